// Opening a POS answer, strictly in this order: parse the envelope; recognise "not found"; verify
// the provider's signature and the freshness of its timestamp; only then decrypt `data`; then
// judge `code`. No attacker-chosen ciphertext reaches the decryptor (whatever the verify setting),
// and a bad padding is reported exactly like a bad signature. A signature over `data + timestamp`
// does not cover `code`, so under that form alone a refusal proves nothing.
import type { AppError } from '../../shared/errors';
import type { Conventions } from '../../shared/settings';
import { posResponseSignStrings, rsaDecryptChunked, rsaVerify, type KeyInput } from '../../protocol/crypto';
import type { Logger } from '../../shared/logger';
import { describeIssues, parseJson, snippet } from './answer-utils';
import type { HttpAnswer } from './http-transport';
import { PosEnvelopeWire } from './pos-schemas';
import type { SkewState } from './provider-clock';
import {
  authError,
  badResponseError,
  causedRefusalError,
  classifyRefusal,
  httpError,
  type ProviderCallContext,
} from './provider-errors';
import { refusalCause } from './refusal-causes';

const POS_SUCCESS = '00000';
/**
 * A signed answer older or newer than this (against the corrected clock) is a replay or forgery.
 * @internal for tests
 */
export const POS_RESPONSE_MAX_AGE_MS = 5 * 60_000;

/** @internal for tests */
export interface OpenPosResponseOptions {
  ctx: ProviderCallContext;
  conventions: Conventions;
  providerPublicKey: KeyInput;
  merchantPrivateKey: KeyInput;
  logger: Logger;
  /** qryOrderDetail: a not-found code with null data means "no such order" (may be unsigned). */
  notFoundMeansNull: boolean;
  /** Now, on the corrected clock (provider-clock.ts): the window a signed timestamp must fall in. */
  now: number;
  /** The measured clock offset, for refusal messages. */
  skew?: SkewState | null;
  /** Injected only by tests that prove what never reaches decryption. */
  decrypt?: (key: KeyInput, base64: string) => string;
}

/** `signedAt`: the answer's timestamp when its signature verified (the provider's clock, authenticated). */
export type PosOpened =
  { notFound: true } | { notFound: false; data: unknown; code: string; message: string; signedAt?: number };

export function openPosResponse(answer: HttpAnswer, o: OpenPosResponseOptions): PosOpened {
  const { ctx, logger } = o;
  const fail = (e: AppError): never => {
    logger.warn('pos call refused or unreadable', {
      op: ctx.op,
      code: e.code,
      httpStatus: answer.status,
      providerCode: e.details?.providerCode,
      reason: e.details?.reason,
    });
    throw e;
  };
  const ok2xx = answer.status >= 200 && answer.status < 300;

  // 1. The envelope.
  const parsed = parseJson(answer.text);
  const envelope = parsed.ok ? PosEnvelopeWire.safeParse(parsed.value) : undefined;
  if (answer.status === 401 || answer.status === 403) {
    // Nobody signs a 401: it says our credentials were refused, but cannot prove nothing was created.
    const env = envelope?.success ? envelope.data : undefined;
    const cause = env ? refusalCause(env.code, env.message) : null;
    if (env && cause)
      return fail(
        causedRefusalError(ctx, cause, env.code, env.message, {
          verified: false,
          httpStatus: answer.status,
          skew: o.skew ?? null,
        }),
      );
    return fail(
      authError(
        ctx,
        { httpStatus: answer.status, ...(env ? { providerCode: env.code, providerMessage: env.message } : {}) },
        true,
      ),
    );
  }
  if (!ok2xx) {
    // An error status never yields data we act on, so its signature does not matter. A 4xx with
    // a provider code is a refusal; a 5xx is a server failure whatever it carries.
    const env = envelope?.success ? envelope.data : undefined;
    if (answer.status >= 500) {
      return fail(
        httpError(
          ctx,
          answer.status,
          snippet(answer.text),
          env ? { providerCode: env.code, providerMessage: env.message } : {},
        ),
      );
    }
    if (env && env.code !== POS_SUCCESS) {
      const cause = refusalCause(env.code, env.message);
      if (cause)
        return fail(
          causedRefusalError(ctx, cause, env.code, env.message, {
            verified: false,
            httpStatus: answer.status,
            skew: o.skew ?? null,
          }),
        );
      return fail(classifyRefusal(ctx, env.code, env.message, { httpStatus: answer.status, verified: false }));
    }
    return fail(httpError(ctx, answer.status, snippet(answer.text)));
  }
  if (!parsed.ok) return fail(badResponseError(ctx, 'malformed-json', { httpStatus: answer.status }));
  if (!envelope?.success)
    return fail(badResponseError(ctx, 'schema', { issues: envelope ? describeIssues(envelope.error) : [] }));
  const env = envelope.data;
  const raw = parsed.value as Record<string, unknown>;

  // 2. "Not found" on a query, which the provider may leave unsigned.
  if (o.notFoundMeansNull && env.data == null && o.conventions.posNotFoundCodes.includes(env.code)) {
    logger.info('pos order not found', { op: ctx.op, providerCode: env.code });
    return { notFound: true };
  }

  // 3. The signature, before anything else is read from the answer.
  const mode = o.conventions.posResponseVerify;
  const form = mode === 'off' ? null : verifiedForm(raw, env.sign, o);
  const unauthenticated = (why: string) =>
    badResponseError(ctx, 'unauthenticated', {
      why,
      unverifiedProviderCode: env.code,
      unverifiedProviderMessage: env.message.slice(0, 200),
    });
  if (mode !== 'off' && form === null) {
    if (mode === 'verify') {
      // An unsigned refusal about our clock or credentials: say so, but it proves nothing.
      const cause = env.code !== POS_SUCCESS && env.data == null ? refusalCause(env.code, env.message) : null;
      if (cause)
        return fail(causedRefusalError(ctx, cause, env.code, env.message, { verified: false, skew: o.skew ?? null }));
      return fail(unauthenticated('signature'));
    }
    logger.warn('pos answer signature does not verify; accepted because Settings say warn', {
      op: ctx.op,
      providerCode: env.code,
    });
  }
  if (form !== null) {
    const ts = Number(env.timestamp);
    if (env.timestamp != null && (!Number.isFinite(ts) || Math.abs(o.now - ts) > POS_RESPONSE_MAX_AGE_MS)) {
      logger.warn('pos answer timestamp outside the accepted window', {
        op: ctx.op,
        ageMs: Number.isFinite(ts) ? o.now - ts : null,
      });
      return fail(unauthenticated('stale'));
    }
  }

  // 4. Only now decrypt, and only what verified.
  let data: unknown = env.data;
  if (typeof env.data === 'string') {
    if (form === null) return fail(unauthenticated('encrypted-data-not-verified'));
    try {
      data = JSON.parse((o.decrypt ?? rsaDecryptChunked)(o.merchantPrivateKey, env.data));
    } catch {
      // Same reason and message as a bad signature: a padding failure must not be told apart.
      return fail(unauthenticated('signature'));
    }
  }

  // 5. The provider's verdict. Under the data+timestamp form alone, `code` and `message` are not
  // covered by the signature: a refusal there may be forged, so the outcome is unknown.
  if (env.code !== POS_SUCCESS) {
    if (form === 'dataTimestamp') return fail(unauthenticated('code-not-signed'));
    const cause = refusalCause(env.code, env.message);
    // About our clock or keys: the cashier gets the cause; unverified (warn/off) it stays unproven.
    if (cause)
      return fail(
        causedRefusalError(ctx, cause, env.code, env.message, { verified: form === 'sortedKv', skew: o.skew ?? null }),
      );
    return fail(classifyRefusal(ctx, env.code, env.message, { verified: form !== null }));
  }
  const signedAt = form !== null && env.timestamp != null ? Number(env.timestamp) : NaN;
  return {
    notFound: false,
    data,
    code: env.code,
    message: env.message,
    ...(Number.isFinite(signedAt) ? { signedAt } : {}),
  };
}

/** Which published form the signature verifies under (sortedKv first: it covers every field). */
function verifiedForm(
  raw: Record<string, unknown>,
  sign: string | null | undefined,
  o: OpenPosResponseOptions,
): 'sortedKv' | 'dataTimestamp' | null {
  if (!sign) return null;
  const forms = posResponseSignStrings(raw);
  const hash = o.conventions.posSignHash;
  const want = o.conventions.posResponseSignForm;
  if ((want === 'either' || want === 'sortedKv') && rsaVerify(o.providerPublicKey, forms.sortedKv, sign, hash))
    return 'sortedKv';
  if (
    (want === 'either' || want === 'dataTimestamp') &&
    rsaVerify(o.providerPublicKey, forms.dataTimestamp, sign, hash)
  )
    return 'dataTimestamp';
  return null;
}
