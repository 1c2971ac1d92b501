// The contract's dispatcher: sender checked and arguments validated before any handler runs.
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createDispatcher, patchOf, unwrap, type CallsSpec, type Handlers } from '../../../shared/contract-kit';
import { AppError, isAppError } from '../../../shared/errors';

const calls = {
  'orders.get': {
    args: z.object({ id: z.number().int().positive() }).strict(),
    result: z.object({ id: z.number(), label: z.string() }),
  },
  'admin.thing': { args: z.object({}).strict(), result: z.object({ done: z.boolean() }), admin: true },
  'broken.result': { args: z.object({}).strict(), result: z.object({ n: z.number() }) },
  'form.save': {
    args: z
      .object({
        name: z.string().min(1, 'Enter a name'),
        seats: z.object({ row: z.string().regex(/^[A-Z]$/, 'One letter') }),
      })
      .strict(),
    result: z.object({ done: z.boolean() }),
    admin: true,
    invalid: 'Fix the marked fields',
  },
} satisfies CallsSpec;

function setup() {
  const get = vi.fn((a: { id: number }) => ({ id: a.id, label: 'ok', secretKey: 'never-leaves-main' }));
  const thing = vi.fn(() => ({ done: true }));
  const handlers = {
    'orders.get': get,
    'admin.thing': thing,
    'broken.result': () => ({ n: 'x' }) as unknown as { n: number },
    'form.save': thing,
  } as Handlers<typeof calls>;
  const logs: string[] = [];
  let unlocked = false;
  const dispatch = createDispatcher(calls, handlers, {
    log: (_l, msg) => logs.push(msg),
    requireAdmin: () => {
      if (!unlocked) throw new AppError('PIN_REQUIRED', 'locked');
    },
  });
  return { dispatch, get, thing, logs, unlock: () => (unlocked = true) };
}
const trusted = { trusted: true, sender: 'test' };

describe('dispatcher', () => {
  it('answers {ok, value} and strips what the result schema does not name', async () => {
    const { dispatch } = setup();
    const r = await dispatch('orders.get', { id: 7 }, trusted);
    expect(r).toEqual({ ok: true, value: { id: 7, label: 'ok' } });
    expect(JSON.stringify(r)).not.toContain('never-leaves-main');
  });

  it.each([
    ['a string id', { id: '7' }],
    ['a negative id', { id: -1 }],
    ['an extra key', { id: 1, sql: 'drop' }],
    ['null', null],
    ['an array', [1]],
  ])('refuses %s with BAD_ARGUMENTS and never calls the handler', async (_label, args) => {
    const { dispatch, get } = setup();
    const r = await dispatch('orders.get', args, trusted);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe('BAD_ARGUMENTS');
      expect(r.error.message).toContain('orders.get');
    }
    expect(get).not.toHaveBeenCalled();
  });

  it('names the offending field', async () => {
    const { dispatch } = setup();
    const r = await dispatch('orders.get', { id: 'x' }, trusted);
    expect(!r.ok && r.error.details?.fields).toHaveProperty('id');
  });

  it('refuses an untrusted sender before looking at anything, handler never called', async () => {
    const { dispatch, get, logs } = setup();
    const r = await dispatch('orders.get', { id: 1 }, { trusted: false, sender: 'evil' });
    expect(r).toMatchObject({ ok: false, error: { code: 'UNTRUSTED_SENDER' } });
    expect(get).not.toHaveBeenCalled();
    expect(logs.join()).toContain('untrusted sender');
  });

  it.each([
    ['an unknown name', 'orders.delete'],
    ['a prototype key', '__proto__'],
    ['a non-string', 42],
  ])('refuses %s as UNKNOWN_CALL', async (_l, name) => {
    const { dispatch } = setup();
    expect(await dispatch(name, {}, trusted)).toMatchObject({ ok: false, error: { code: 'UNKNOWN_CALL' } });
  });

  it('admin calls need the unlock', async () => {
    const { dispatch, thing, unlock } = setup();
    expect(await dispatch('admin.thing', {}, trusted)).toMatchObject({ ok: false, error: { code: 'PIN_REQUIRED' } });
    expect(thing).not.toHaveBeenCalled();
    unlock();
    expect(await dispatch('admin.thing', {}, trusted)).toEqual({ ok: true, value: { done: true } });
  });

  it('a handler result outside its schema is an INTERNAL error, not a leak', async () => {
    const { dispatch } = setup();
    expect(await dispatch('broken.result', {}, trusted)).toMatchObject({ ok: false, error: { code: 'INTERNAL' } });
  });

  it('AppErrors cross intact and are rebuilt by code on the other side', async () => {
    const dispatch = createDispatcher(calls, {
      'orders.get': () => {
        throw new AppError('NOT_FOUND', 'No order 9', { id: 9 });
      },
      'admin.thing': () => ({ done: true }),
      'broken.result': () => ({ n: 1 }),
      'form.save': () => ({ done: true }),
    });
    const r = await dispatch('orders.get', { id: 9 }, trusted);
    const wire = JSON.parse(JSON.stringify(r));
    try {
      unwrap(wire);
      expect.unreachable();
    } catch (e) {
      expect(isAppError(e) && e.code).toBe('NOT_FOUND');
      expect(isAppError(e) && e.details).toEqual({ id: 9 });
    }
  });

  it('a thrown non-AppError becomes INTERNAL without its message', async () => {
    const dispatch = createDispatcher(calls, {
      'orders.get': () => {
        throw new Error('db path /secret/x');
      },
      'admin.thing': () => ({ done: true }),
      'broken.result': () => ({ n: 1 }),
      'form.save': () => ({ done: true }),
    });
    const r = await dispatch('orders.get', { id: 1 }, trusted);
    expect(r).toMatchObject({ ok: false, error: { code: 'INTERNAL' } });
    expect(JSON.stringify(r)).not.toContain('/secret/x');
  });

  it('a form call answers VALIDATION with one message per field, keyed by its path, without a warning', async () => {
    const { dispatch, thing, unlock, logs } = setup();
    unlock();
    const r = await dispatch('form.save', { name: '', seats: { row: '7' } }, trusted);
    expect(r).toEqual({
      ok: false,
      error: {
        code: 'VALIDATION',
        message: 'Fix the marked fields',
        details: { fields: { name: 'Enter a name', 'seats.row': 'One letter' } },
      },
    });
    expect(thing).not.toHaveBeenCalled();
    expect(logs).toEqual([]);
  });

  it('adds the checks only main can make to a form call’s field errors, so every wrong field shows at once', async () => {
    const { get, thing } = setup();
    const seen: string[] = [];
    const dispatch = createDispatcher(
      calls,
      { 'orders.get': get, 'admin.thing': thing, 'broken.result': () => ({ n: 1 }), 'form.save': thing },
      {
        moreFieldErrors: (call) => {
          seen.push(call);
          return { 'seats.key': 'This key does not parse' };
        },
      },
    );
    const r = await dispatch('form.save', { name: '', seats: { row: 'A' } }, trusted);
    expect(!r.ok && r.error.details?.fields).toEqual({ name: 'Enter a name', 'seats.key': 'This key does not parse' });
    expect(await dispatch('orders.get', { id: 'x' }, trusted)).toMatchObject({
      ok: false,
      error: { code: 'BAD_ARGUMENTS', details: { fields: { id: expect.any(String) } } },
    });
    expect(seen).toEqual(['form.save']);
  });

  it('checks the PIN before the arguments: a locked caller learns nothing about its fields', async () => {
    const { dispatch } = setup();
    const r = await dispatch('form.save', { name: '' }, trusted);
    expect(r).toMatchObject({ ok: false, error: { code: 'PIN_REQUIRED' } });
    expect(JSON.stringify(r)).not.toContain('Enter a name');
  });
});

describe('patchOf', () => {
  const Saved = z.object({
    port: z.coerce.number().int('A whole number').default(9100),
    host: z.string().trim().default(''),
  });
  const Patch = patchOf(Saved.shape);

  it('leaves out what was not sent (no defaults that would overwrite a saved value)', () => {
    expect(Patch.parse({ host: ' printer ' })).toEqual({ host: 'printer' });
    expect(Patch.parse({})).toEqual({});
  });

  it('checks each field that was sent with the saved schema’s own rule', () => {
    const r = Patch.safeParse({ port: 1.5 });
    expect(r.success).toBe(false);
    expect(!r.success && r.error.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['port', 'A whole number'],
    ]);
  });
});
