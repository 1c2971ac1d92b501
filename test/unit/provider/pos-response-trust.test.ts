// Which answers can be trusted: the signature must cover what is acted on (the `code` is not part
// of the data+timestamp form), a signed answer must be fresh, and an unsigned refusal about our
// clock or keys is explained to the cashier but never taken as proof that nothing was created.
import { describe, expect, it, vi } from 'vitest';
import {
  canonicalJson,
  posResponseSignStrings,
  rsaDecryptChunked,
  rsaEncryptChunked,
  rsaSign,
  type KeyInput,
} from '../../../protocol/crypto';
import { memoryLogger } from '../../../shared/logger';
import {
  openPosResponse,
  POS_RESPONSE_MAX_AGE_MS,
  type OpenPosResponseOptions,
} from '../../../core/provider/pos-response';
import { isOutcomeUnknown } from '../../../core/provider/provider-errors';
import { defaultConventions } from '../../../shared/settings';
import { keys } from './fixtures';

const NOW = 1_763_726_400_000;

function signed(
  fields: { code: string; message: string; data: unknown; timestamp: number },
  form: 'dataTimestamp' | 'sortedKv',
): Record<string, unknown> {
  const env: Record<string, unknown> = {
    code: fields.code,
    message: fields.message,
    data: fields.data,
    timestamp: String(fields.timestamp),
  };
  env.sign = rsaSign(keys.providerPrivateKey, posResponseSignStrings(env)[form]);
  return env;
}

function open(env: Record<string, unknown>, extra: Partial<OpenPosResponseOptions> = {}) {
  const decrypt = vi.fn((k: KeyInput, b: string) => rsaDecryptChunked(k, b));
  const o: OpenPosResponseOptions = {
    ctx: { op: 'pos.test' },
    conventions: { ...defaultConventions(), posResponseSignForm: 'either' },
    providerPublicKey: keys.providerPublicKey,
    merchantPrivateKey: keys.merchantPrivateKey,
    logger: memoryLogger(),
    notFoundMeansNull: false,
    now: NOW,
    decrypt,
    ...extra,
  };
  try {
    return { result: openPosResponse({ status: 200, text: JSON.stringify(env) }, o), error: null, decrypt };
  } catch (e) {
    return { result: null, error: e as { code: string; message: string; details?: Record<string, unknown> }, decrypt };
  }
}

describe('response trust', () => {
  it('a code changed on an answer signed over data+timestamp is not believed: outcome unknown', () => {
    const env = signed({ code: '00000', message: 'SUCCESSFUL', data: null, timestamp: NOW }, 'dataTimestamp');
    env.code = '02001';
    env.message = 'order failed';
    const { error } = open(env);
    expect(error).toMatchObject({
      code: 'PROVIDER_BAD_RESPONSE',
      details: { reason: 'unauthenticated', why: 'code-not-signed', outcomeUnknown: true },
    });
    expect(isOutcomeUnknown(error)).toBe(true);
  });

  it('the same refusal signed over every field (sortedKv) is believed', () => {
    const { error } = open(signed({ code: '02001', message: 'order failed', data: null, timestamp: NOW }, 'sortedKv'));
    expect(error).toMatchObject({
      code: 'PROVIDER_REFUSED',
      details: { providerCode: '02001', outcomeUnknown: false },
    });
  });

  it('a year-old signed answer is refused before its data is decrypted', () => {
    const data = rsaEncryptChunked(keys.merchantPublicKey, canonicalJson({ orderNo: '1' }));
    const { error, decrypt } = open(
      signed({ code: '00000', message: 'SUCCESSFUL', data, timestamp: NOW - 365 * 24 * 3600_000 }, 'sortedKv'),
    );
    expect(error).toMatchObject({
      code: 'PROVIDER_BAD_RESPONSE',
      details: { reason: 'unauthenticated', why: 'stale' },
    });
    expect(decrypt).not.toHaveBeenCalled();
  });

  it('the window is five minutes either side of the corrected clock', () => {
    const at = (ts: number, now: number) =>
      open(signed({ code: '00000', message: 'SUCCESSFUL', data: { orderNo: '1' }, timestamp: ts }, 'sortedKv'), { now })
        .error;
    expect(at(NOW - POS_RESPONSE_MAX_AGE_MS + 1000, NOW)).toBeNull();
    expect(at(NOW + POS_RESPONSE_MAX_AGE_MS - 1000, NOW)).toBeNull();
    expect(at(NOW - POS_RESPONSE_MAX_AGE_MS - 1000, NOW)?.details?.why).toBe('stale');
    // This computer 6 minutes behind, corrected: the provider's fresh answer is accepted.
    expect(at(NOW + 6 * 60_000, NOW + 6 * 60_000)).toBeNull();
  });

  it('an unsigned "timestamp expired" says what to do, and leaves the outcome unknown', () => {
    const { error } = open(
      { code: '10002', message: 'timestamp expired', data: null },
      { skew: { offsetMs: 6 * 60_000, correcting: false, measuredAt: NOW } },
    );
    expect(error?.code).toBe('PROVIDER_AUTH');
    expect(error?.details).toMatchObject({
      cause: 'clock',
      providerCode: '10002',
      providerMessage: 'timestamp expired',
      verified: false,
      outcomeUnknown: true,
    });
    expect(error?.message).toBe(
      'The provider says the request is too old (code 10002 "timestamp expired"): this computer\'s clock is 6 minutes behind. Fix the date and time, then press Check now.',
    );
    expect(isOutcomeUnknown(error)).toBe(true);
  });

  it('unsigned 10001 and 10004 name the keys for the administrator, outcome unknown', () => {
    const auth = open({ code: '10001', message: 'invalid clientAuthKey', data: null }).error;
    expect(auth?.details).toMatchObject({ cause: 'credentials', outcomeUnknown: true });
    expect(auth?.details?.adminAction).toMatch(/clientAuthKey/);
    const sign = open({ code: '10004', message: 'sign verification failed', data: null }).error;
    expect(sign?.details).toMatchObject({ cause: 'signature', outcomeUnknown: true });
    expect(sign?.details?.adminAction).toMatch(/merchant private key/);
  });

  it("an HTTP 401 is nobody's signed word either: our keys were refused, outcome unknown", () => {
    const o: OpenPosResponseOptions = {
      ctx: { op: 'pos.createOrder' },
      conventions: defaultConventions(),
      providerPublicKey: keys.providerPublicKey,
      merchantPrivateKey: keys.merchantPrivateKey,
      logger: memoryLogger(),
      notFoundMeansNull: false,
      now: NOW,
    };
    const bare = (() => {
      try {
        openPosResponse({ status: 401, text: 'Unauthorized' }, o);
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(bare).toMatchObject({ code: 'PROVIDER_AUTH', details: { httpStatus: 401, outcomeUnknown: true } });
    const coded = (() => {
      try {
        openPosResponse({ status: 401, text: JSON.stringify({ code: '10001', message: 'invalid clientAuthKey' }) }, o);
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(coded).toMatchObject({
      code: 'PROVIDER_AUTH',
      details: { cause: 'credentials', providerCode: '10001', outcomeUnknown: true },
    });
  });

  it('with verification set to warn, an unsigned clock refusal is still explained and still unproven', () => {
    const { error } = open(
      { code: '10002', message: 'timestamp expired', data: null },
      { conventions: { ...defaultConventions(), posResponseVerify: 'warn' } },
    );
    expect(error).toMatchObject({
      code: 'PROVIDER_AUTH',
      details: { cause: 'clock', verified: false, outcomeUnknown: true },
    });
  });

  it('an unsigned refusal with an unknown cause stays an unauthenticated answer', () => {
    const { error } = open({ code: '77777', message: 'something', data: null });
    expect(error).toMatchObject({
      code: 'PROVIDER_BAD_RESPONSE',
      details: { reason: 'unauthenticated', unverifiedProviderCode: '77777', outcomeUnknown: true },
    });
  });
});
