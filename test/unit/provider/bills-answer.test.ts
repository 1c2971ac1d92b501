// Reading bills answers: wrapped and bare forms, refusals, statuses, schema checks, kobo.
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { silentLogger } from '../../../shared/logger';
import { readBillsAnswer } from '../../../core/provider/bills-answer';
import { BettingProvidersWire, TopupResultsWire, toBettingProvider } from '../../../core/provider/bills-schemas';

const ctx = { op: 'bills.test' };
function read(status: number, body: unknown): z.infer<typeof TopupResultsWire>;
function read<S extends z.ZodType>(status: number, body: unknown, schema: S): z.infer<S>;
function read(status: number, body: unknown, schema: z.ZodType = TopupResultsWire): unknown {
  return readBillsAnswer(
    ctx,
    { status, text: typeof body === 'string' ? body : JSON.stringify(body) },
    schema,
    silentLogger,
  );
}
const err = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return e as { code: string; details?: Record<string, unknown> };
  }
  throw new Error('expected a throw');
};

const item = { orderNo: '211004140885521681', reference: 'ref-1', status: 'SUCCESS', errorMsg: '' };

describe('readBillsAnswer', () => {
  it('accepts the wrapped and the bare form alike', () => {
    expect(read(200, { code: '00000', message: 'SUCCESSFUL', data: [item] })).toEqual([item]);
    expect(read(200, [item])).toEqual([item]);
  });
  it('maps an unknown order (status null) and missing orderNo', () => {
    expect(read(200, [{ reference: 'r', status: null, errorMsg: 'order does not exist' }])).toEqual([
      { orderNo: null, reference: 'r', status: null, errorMsg: 'order does not exist' },
    ]);
  });
  it('provider refusal carries code and message', () => {
    const e = err(() =>
      read(200, { code: '00003', message: 'Not support this merchant service type. [A.A.I.00003]', data: null }),
    );
    expect(e).toMatchObject({ code: 'PROVIDER_REFUSED', details: { providerCode: '00003' } });
  });
  it('statuses: 401/403 auth, 500 http (outcome unknown), 4xx http', () => {
    expect(err(() => read(401, 'nope')).code).toBe('PROVIDER_AUTH');
    expect(err(() => read(403, { code: '1', message: 'forbidden' })).code).toBe('PROVIDER_AUTH');
    expect(err(() => read(500, 'oops'))).toMatchObject({
      code: 'PROVIDER_HTTP',
      details: { httpStatus: 500, outcomeUnknown: true },
    });
    expect(err(() => read(404, 'not here'))).toMatchObject({
      code: 'PROVIDER_HTTP',
      details: { httpStatus: 404, outcomeUnknown: false },
    });
    expect(err(() => read(500, { code: '99999', message: 'system error', data: null }))).toMatchObject({
      code: 'PROVIDER_HTTP',
      details: { providerCode: '99999', outcomeUnknown: true },
    });
    expect(
      err(() => read(400, { code: '00002', message: 'request body is not valid JSON', data: null })),
    ).toMatchObject({ code: 'PROVIDER_REFUSED', details: { httpStatus: 400 } });
  });
  it('malformed JSON and unexpected shapes are bad responses', () => {
    expect(err(() => read(200, '[{"a":'))).toMatchObject({
      code: 'PROVIDER_BAD_RESPONSE',
      details: { reason: 'malformed-json' },
    });
    expect(err(() => read(200, [{ reference: 'r', status: 'WEIRD', errorMsg: '' }]))).toMatchObject({
      code: 'PROVIDER_BAD_RESPONSE',
      details: { reason: 'schema' },
    });
  });
  it('betting providers: amounts in kobo, absent limits are null', () => {
    const list = read(
      200,
      {
        code: '00000',
        message: 'OK',
        data: [
          {
            provider: 'BET9JA',
            providerLogoUrl: 'https://x/l.png',
            minAmount: { currency: 'NGN', amount: 10000 },
            maxAmount: { currency: 'NGN', amount: '50000000' },
          },
          { provider: 'NAIRABET', providerLogoUrl: 'https://x/n.png' },
        ],
      },
      BettingProvidersWire,
    );
    expect(list.map(toBettingProvider)).toEqual([
      { provider: 'BET9JA', providerLogoUrl: 'https://x/l.png', minAmountKobo: 10000, maxAmountKobo: 50000000 },
      { provider: 'NAIRABET', providerLogoUrl: 'https://x/n.png', minAmountKobo: null, maxAmountKobo: null },
    ]);
    expect(
      err(() => read(200, [{ provider: 'X', providerLogoUrl: '', minAmount: { amount: 10.5 } }], BettingProvidersWire))
        .code,
    ).toBe('PROVIDER_BAD_RESPONSE');
  });
});
