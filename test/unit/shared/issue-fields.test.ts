// The one place schema issues become the per-field messages the screens show next to each field.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { issueFields } from '../../../shared/errors';

const Form = z.object({
  name: z.string().min(1, 'Enter a name'),
  webhook: z.object({ port: z.number().max(65535, 'At most 65535') }),
});

describe('issueFields', () => {
  it('keys each message by its dotted path; the first message of a field wins', () => {
    const issues = [
      ...Form.safeParse({ name: '', webhook: { port: 70000 } }).error!.issues,
      { path: ['name'], message: 'second' },
    ];
    expect(issueFields(issues)).toEqual({ name: 'Enter a name', 'webhook.port': 'At most 65535' });
  });

  it('nests keys under a prefix (the part of the arguments the form is)', () => {
    expect(
      issueFields(Form.safeParse({ name: 'x', webhook: { port: 70000 } }).error!.issues, { prefix: 'settings' }),
    ).toEqual({ 'settings.webhook.port': 'At most 65535' });
  });

  it('names an issue about the whole value by the root key given', () => {
    expect(issueFields(Form.safeParse('oops').error!.issues, { root: 'sale' })).toEqual({ sale: expect.any(String) });
    expect(Object.keys(issueFields([{ path: [], message: 'x' }]))).toEqual(['(arguments)']);
  });
});
