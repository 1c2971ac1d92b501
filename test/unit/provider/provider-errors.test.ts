// Error family of the provider clients: transport failures, outcome knowledge, refusals.
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors';
import { mapTransportError } from '../../../core/provider/http-transport';
import {
  authError,
  badResponseError,
  classifyRefusal,
  httpError,
  isAlreadyExists,
  isOutcomeUnknown,
  notConfiguredError,
  refusedError,
} from '../../../core/provider/provider-errors';

const ctx = { op: 'pos.createOrder', url: 'http://127.0.0.1:1/x' };

function fetchFailed(cause: Record<string, unknown>): Error {
  const inner = Object.assign(new Error(String(cause.message ?? 'x')), cause);
  const te = new TypeError('fetch failed', { cause: inner });
  const ky = new Error('Request failed due to a network error', { cause: te });
  ky.name = 'NetworkError';
  return ky;
}

describe('mapTransportError', () => {
  it.each(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN'])(
    '%s: unreachable, certainly not sent',
    (code) => {
      const e = mapTransportError(fetchFailed({ code, message: `connect ${code}` }), ctx);
      expect(e.code).toBe('PROVIDER_UNREACHABLE');
      expect(e.details).toMatchObject({ causeCode: code, outcomeUnknown: false, op: 'pos.createOrder' });
      expect(isOutcomeUnknown(e)).toBe(false);
      expect(e.message).toMatch(/Nothing was sent/);
    },
  );

  it('finds ECONNREFUSED inside an AggregateError (happy eyeballs)', () => {
    const agg = Object.assign(new AggregateError([Object.assign(new Error('a'), { code: 'ECONNREFUSED' })], 'x'), {
      code: 'ECONNREFUSED',
    });
    const e = mapTransportError(new TypeError('fetch failed', { cause: agg }), ctx);
    expect(e.code).toBe('PROVIDER_UNREACHABLE');
  });

  it.each([
    [{ code: 'ECONNRESET', message: 'read ECONNRESET' }],
    [{ code: 'UND_ERR_SOCKET', message: 'other side closed' }],
    [{ message: 'other side closed' }],
  ])('%o after sending: timeout, outcome unknown', (cause) => {
    const e = mapTransportError(fetchFailed(cause), ctx);
    expect(e.code).toBe('PROVIDER_TIMEOUT');
    expect(e.details).toMatchObject({ reason: 'connection-dropped', outcomeUnknown: true });
    expect(e.message).toMatch(/may or may not have reached the provider/);
    expect(isOutcomeUnknown(e)).toBe(true);
  });

  it('body cut off mid-read ("terminated") is outcome unknown', () => {
    const e = mapTransportError(
      new TypeError('terminated', { cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }) }),
      ctx,
    );
    expect(e.code).toBe('PROVIDER_TIMEOUT');
  });

  it('ky TimeoutError and our own deadline are timeouts', () => {
    const t = new Error('Request timed out');
    t.name = 'TimeoutError';
    expect(mapTransportError(t, ctx).code).toBe('PROVIDER_TIMEOUT');
    expect(mapTransportError(new DOMException('aborted', 'AbortError'), ctx, true).details).toMatchObject({
      reason: 'timeout',
      outcomeUnknown: true,
    });
  });

  it('an unknown network failure is never reported as "not sent"', () => {
    const e = mapTransportError(fetchFailed({ code: 'EWEIRD' }), ctx);
    expect(e.code).toBe('PROVIDER_TIMEOUT');
    expect(e.details?.outcomeUnknown).toBe(true);
  });

  it('a blocked port is unreachable', () => {
    expect(mapTransportError(fetchFailed({ message: 'bad port' }), ctx).code).toBe('PROVIDER_UNREACHABLE');
  });
});

describe('outcome knowledge', () => {
  it('every constructor states outcomeUnknown', () => {
    expect(httpError(ctx, 500).details?.outcomeUnknown).toBe(true);
    expect(httpError(ctx, 404).details?.outcomeUnknown).toBe(false);
    expect(badResponseError(ctx, 'unauthenticated').details?.outcomeUnknown).toBe(true);
    expect(refusedError(ctx, '00009', 'nope').details?.outcomeUnknown).toBe(false);
    expect(authError(ctx, { httpStatus: 401 }).details?.outcomeUnknown).toBe(false);
    expect(notConfiguredError('x', 'billsSecretKey').details?.outcomeUnknown).toBe(false);
  });
  it('anything that is not an AppError is treated as unknown', () => {
    expect(isOutcomeUnknown(new Error('bug'))).toBe(true);
    expect(isOutcomeUnknown(new AppError('BAD_ARGUMENTS', 'x'))).toBe(false);
  });
});

describe('refusals', () => {
  it('recognises "already exists" refusals', () => {
    const e = refusedError(ctx, '02001', 'Order already exist');
    expect(e.code).toBe('PROVIDER_REFUSED');
    expect(e.details).toMatchObject({
      providerCode: '02001',
      providerMessage: 'Order already exist',
      alreadyExists: true,
    });
    expect(isAlreadyExists(e)).toBe(true);
    expect(e.message).toMatch(/already has this order/);
    expect(isAlreadyExists(refusedError(ctx, '1', 'Duplicate outOrderNo'))).toBe(true);
    expect(isAlreadyExists(refusedError(ctx, '1', 'amount too small'))).toBe(false);
    expect(isAlreadyExists(httpError(ctx, 409))).toBe(false);
  });
  it('a refusal about credentials becomes PROVIDER_AUTH, with a clock hint for timestamps', () => {
    expect(classifyRefusal(ctx, '00001', 'Invalid signature').code).toBe('PROVIDER_AUTH');
    const stale = classifyRefusal(ctx, '00002', 'timestamp expired');
    expect(stale.code).toBe('PROVIDER_AUTH');
    expect(stale.message).toMatch(/date and time/);
    const other = classifyRefusal(ctx, '00003', 'Not support this merchant service type. [A.A.I.00003]');
    expect(other.code).toBe('PROVIDER_REFUSED');
    expect(other.message).toContain('Not support this merchant service type');
  });
  it('not configured names the setting', () => {
    const e = notConfiguredError('bills.bulkBills', 'billsSecretKey');
    expect(e.code).toBe('PROVIDER_NOT_CONFIGURED');
    expect(e.message).toContain('Bills secret key');
    expect(e.details).toMatchObject({ setting: 'billsSecretKey' });
  });
});
