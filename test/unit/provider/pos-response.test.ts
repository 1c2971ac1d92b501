// The order in which a POS answer is opened: envelope, not-found, signature, decryption, code.
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
import { openPosResponse, type OpenPosResponseOptions } from '../../../core/provider/pos-response';
import type { Conventions } from '../../../shared/settings';
import { defaultConventions } from '../../../shared/settings';
import { keys } from './fixtures';

type Form = 'dataTimestamp' | 'sortedKv';
const SIGNED_AT = 1763726400123;

function envelope(opts: {
  code?: string;
  message?: string;
  data?: unknown;
  encrypt?: boolean;
  form?: Form;
  signWith?: string;
  sign?: string | null;
  timestamp?: number;
}) {
  const data = opts.data === undefined ? { orderNo: '240101000000000001' } : opts.data;
  const env: Record<string, unknown> = {
    code: opts.code ?? '00000',
    message: opts.message ?? 'SUCCESSFUL',
    data:
      data !== null && opts.encrypt !== false ? rsaEncryptChunked(keys.merchantPublicKey, canonicalJson(data)) : data,
    timestamp: String(opts.timestamp ?? SIGNED_AT),
  };
  if (opts.sign !== undefined) {
    if (opts.sign !== null) env.sign = opts.sign;
  } else {
    const forms = posResponseSignStrings(env);
    env.sign = rsaSign(opts.signWith ?? keys.providerPrivateKey, forms[opts.form ?? 'dataTimestamp']);
  }
  return env;
}

function answer(env: unknown, status = 200) {
  return { status, text: typeof env === 'string' ? env : JSON.stringify(env) };
}

function options(conv: Partial<Conventions> = {}, extra: Partial<OpenPosResponseOptions> = {}) {
  const logger = memoryLogger();
  const decrypt = vi.fn((k: KeyInput, b: string) => rsaDecryptChunked(k, b));
  const o: OpenPosResponseOptions = {
    ctx: { op: 'pos.test' },
    conventions: { ...defaultConventions(), ...conv },
    providerPublicKey: keys.providerPublicKey,
    merchantPrivateKey: keys.merchantPrivateKey,
    logger,
    notFoundMeansNull: false,
    now: SIGNED_AT + 1000,
    decrypt,
    ...extra,
  };
  return { o, logger, decrypt };
}

function thrown(fn: () => unknown): { code: string; message: string; details?: Record<string, unknown> } {
  try {
    fn();
  } catch (e) {
    return e as { code: string; message: string; details?: Record<string, unknown> };
  }
  throw new Error('expected a throw');
}

describe('openPosResponse', () => {
  it('accepts either published signature form and decrypts data', () => {
    for (const form of ['dataTimestamp', 'sortedKv'] as const) {
      const { o, decrypt } = options();
      const r = openPosResponse(answer(envelope({ form })), o);
      expect(r).toEqual({
        notFound: false,
        data: { orderNo: '240101000000000001' },
        code: '00000',
        message: 'SUCCESSFUL',
        signedAt: SIGNED_AT,
      });
      expect(decrypt).toHaveBeenCalledTimes(1);
    }
  });

  it('accepts data sent as a plain object when signed', () => {
    const { o, decrypt } = options();
    const r = openPosResponse(answer(envelope({ encrypt: false, form: 'sortedKv' })), o);
    expect(r).toMatchObject({ data: { orderNo: '240101000000000001' } });
    expect(decrypt).not.toHaveBeenCalled();
  });

  it('honours a single configured form', () => {
    const { o } = options({ posResponseSignForm: 'sortedKv' });
    expect(thrown(() => openPosResponse(answer(envelope({ form: 'dataTimestamp' })), o)).details).toMatchObject({
      reason: 'unauthenticated',
    });
    expect(openPosResponse(answer(envelope({ form: 'sortedKv' })), o).notFound).toBe(false);
  });

  it('verify: a bad signature is refused and never reaches decryption', () => {
    const { o, decrypt } = options();
    const bad = envelope({ signWith: keys.merchantPrivateKey });
    const e = thrown(() => openPosResponse(answer(bad), o));
    expect(e.code).toBe('PROVIDER_BAD_RESPONSE');
    expect(e.details).toMatchObject({ reason: 'unauthenticated', outcomeUnknown: true });
    expect(decrypt).not.toHaveBeenCalled();
  });

  it('verify: a missing signature is refused before decryption', () => {
    const { o, decrypt } = options();
    const e = thrown(() => openPosResponse(answer(envelope({ sign: null })), o));
    expect(e.code).toBe('PROVIDER_BAD_RESPONSE');
    expect(decrypt).not.toHaveBeenCalled();
  });

  it('verify: a tampered data field breaks the signature', () => {
    const { o, decrypt } = options();
    const env = envelope({});
    env.data = rsaEncryptChunked(keys.merchantPublicKey, canonicalJson({ orderNo: 'forged' }));
    expect(thrown(() => openPosResponse(answer(env), o)).code).toBe('PROVIDER_BAD_RESPONSE');
    expect(decrypt).not.toHaveBeenCalled();
  });

  it('warn: a bad signature over plain data passes with a warning logged', () => {
    const { o, logger, decrypt } = options({ posResponseVerify: 'warn' });
    const r = openPosResponse(answer(envelope({ sign: 'AAAA', encrypt: false })), o);
    expect(r).toMatchObject({ data: { orderNo: '240101000000000001' } });
    expect(decrypt).not.toHaveBeenCalled();
    expect(logger.lines.some((l) => l.level === 'warn' && /signature does not verify/.test(l.msg))).toBe(true);
  });

  it('warn and off: encrypted data that did not verify is never decrypted', () => {
    for (const mode of ['warn', 'off'] as const) {
      const { o, decrypt } = options({ posResponseVerify: mode });
      const e = thrown(() => openPosResponse(answer(envelope({ sign: 'AAAA' })), o));
      expect(e).toMatchObject({
        code: 'PROVIDER_BAD_RESPONSE',
        details: { reason: 'unauthenticated', outcomeUnknown: true },
      });
      expect(decrypt).not.toHaveBeenCalled();
    }
  });

  it('off: no check and no warning', () => {
    const { o, logger } = options({ posResponseVerify: 'off' });
    expect(openPosResponse(answer(envelope({ sign: null, encrypt: false })), o).notFound).toBe(false);
    expect(logger.lines.filter((l) => l.level === 'warn')).toEqual([]);
  });

  it('a bad padding is reported exactly like a bad signature', () => {
    const { o } = options();
    const badSig = thrown(() => openPosResponse(answer(envelope({ signWith: keys.merchantPrivateKey })), o));
    // Correctly signed, but the data was encrypted for someone else's key: padding fails.
    const env: Record<string, unknown> = {
      code: '00000',
      message: 'SUCCESSFUL',
      data: rsaEncryptChunked(keys.providerPublicKey, '{"orderNo":"1"}'),
      timestamp: '1',
    };
    env.sign = rsaSign(keys.providerPrivateKey, posResponseSignStrings(env).dataTimestamp);
    const badPad = thrown(() => openPosResponse(answer(env), o));
    expect(badPad.code).toBe(badSig.code);
    expect(badPad.message).toBe(badSig.message);
    expect(badPad.details?.reason).toBe(badSig.details?.reason);
  });

  it('not found on a query: null even when unsigned', () => {
    const { o, decrypt } = options({}, { notFoundMeansNull: true });
    for (const code of ['00003', '50002']) {
      expect(openPosResponse(answer({ code, message: 'order not exist', data: null }), o)).toEqual({ notFound: true });
    }
    expect(decrypt).not.toHaveBeenCalled();
  });

  it('not found outside a query goes through verification', () => {
    const { o } = options();
    expect(
      thrown(() => openPosResponse(answer({ code: '00003', message: 'order not exist', data: null }), o)).code,
    ).toBe('PROVIDER_BAD_RESPONSE');
    const signed = envelope({ code: '00003', message: 'order not exist', data: null, form: 'sortedKv' });
    expect(thrown(() => openPosResponse(answer(signed), o))).toMatchObject({
      code: 'PROVIDER_REFUSED',
      details: { providerCode: '00003' },
    });
  });

  it('a signed refusal is PROVIDER_REFUSED with code and message; "already exists" recognisable', () => {
    const { o } = options();
    const e = thrown(() =>
      openPosResponse(
        answer(envelope({ code: '02006', message: 'outOrderNo already exist', data: null, form: 'sortedKv' })),
        o,
      ),
    );
    expect(e.code).toBe('PROVIDER_REFUSED');
    expect(e.details).toMatchObject({
      providerCode: '02006',
      providerMessage: 'outOrderNo already exist',
      alreadyExists: true,
      outcomeUnknown: false,
    });
  });

  it('malformed JSON, wrong shape, HTTP errors and auth statuses', () => {
    const { o } = options();
    expect(thrown(() => openPosResponse(answer('{not json'), o)).details).toMatchObject({ reason: 'malformed-json' });
    expect(thrown(() => openPosResponse(answer({ hello: 1 }), o)).details).toMatchObject({ reason: 'schema' });
    expect(thrown(() => openPosResponse(answer('<html>bad gateway</html>', 502), o))).toMatchObject({
      code: 'PROVIDER_HTTP',
      details: { httpStatus: 502, outcomeUnknown: true },
    });
    expect(thrown(() => openPosResponse(answer({ code: '401', message: 'no' }, 401), o)).code).toBe('PROVIDER_AUTH');
    expect(thrown(() => openPosResponse(answer({ code: '99999', message: 'bad request body' }, 400), o))).toMatchObject(
      { code: 'PROVIDER_REFUSED', details: { httpStatus: 400 } },
    );
    // A 5xx is never a definitive refusal, even with a provider code in it.
    expect(
      thrown(() => openPosResponse(answer({ code: '99999', message: 'system error', data: null }, 500), o)),
    ).toMatchObject({
      code: 'PROVIDER_HTTP',
      details: { httpStatus: 500, providerCode: '99999', outcomeUnknown: true },
    });
  });
});
