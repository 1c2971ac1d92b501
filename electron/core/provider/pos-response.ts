// Opening a POS answer, strictly in this order: parse the envelope; recognise "not found"; verify
// the provider's signature; only then decrypt `data`; then judge `code`. No attacker-chosen
// ciphertext reaches the decryptor, and a bad padding is reported exactly like a bad signature.
import type { AppError } from '../../../shared/errors';
import type { Conventions } from '../../../shared/settings';
import { posResponseSignStrings, rsaDecryptChunked, rsaVerify, type KeyInput } from '../crypto';
import type { Logger } from '../log';
import { describeIssues, parseJson, snippet } from './answer-utils';
import type { HttpAnswer } from './http-transport';
import { PosEnvelopeWire } from './pos-schemas';
import { authError, badResponseError, classifyRefusal, httpError, type ProviderCallContext } from './provider-errors';

export const POS_SUCCESS = '00000';

export interface OpenPosResponseOptions {
  ctx: ProviderCallContext;
  conventions: Conventions;
  providerPublicKey: KeyInput;
  merchantPrivateKey: KeyInput;
  logger: Logger;
  /** qryOrderDetail: a not-found code with null data means "no such order" (may be unsigned). */
  notFoundMeansNull: boolean;
  /** Injected only by tests that prove what never reaches decryption. */
  decrypt?: (key: KeyInput, base64: string) => string;
}

export type PosOpened = { notFound: true } | { notFound: false; data: unknown; code: string; message: string };

export function openPosResponse(answer: HttpAnswer, o: OpenPosResponseOptions): PosOpened {
  const { ctx, logger } = o;
  const fail = (e: AppError): never => {
    logger.warn('pos call refused or unreadable', { op: ctx.op, code: e.code, httpStatus: answer.status, providerCode: e.details?.providerCode, reason: e.details?.reason });
    throw e;
  };
  const ok2xx = answer.status >= 200 && answer.status < 300;

  // 1. The envelope.
  const parsed = parseJson(answer.text);
  const envelope = parsed.ok ? PosEnvelopeWire.safeParse(parsed.value) : undefined;
  if (answer.status === 401 || answer.status === 403) {
    const env = envelope?.success ? envelope.data : undefined;
    return fail(authError(ctx, { httpStatus: answer.status, ...(env ? { providerCode: env.code, providerMessage: env.message } : {}) }));
  }
  if (!ok2xx) {
    // An error status never yields data we act on, so its signature does not matter. A 4xx with
    // a provider code is a refusal; a 5xx is a server failure whatever it carries.
    const env = envelope?.success ? envelope.data : undefined;
    if (answer.status >= 500) {
      return fail(httpError(ctx, answer.status, snippet(answer.text), env ? { providerCode: env.code, providerMessage: env.message } : {}));
    }
    if (env && env.code !== POS_SUCCESS) {
      return fail(classifyRefusal(ctx, env.code, env.message, { httpStatus: answer.status, verified: false }));
    }
    return fail(httpError(ctx, answer.status, snippet(answer.text)));
  }
  if (!parsed.ok) return fail(badResponseError(ctx, 'malformed-json', { httpStatus: answer.status }));
  if (!envelope?.success) return fail(badResponseError(ctx, 'schema', { issues: envelope ? describeIssues(envelope.error) : [] }));
  const env = envelope.data;
  const raw = parsed.value as Record<string, unknown>;

  // 2. "Not found" on a query, which the provider may leave unsigned.
  if (o.notFoundMeansNull && env.data == null && o.conventions.posNotFoundCodes.includes(env.code)) {
    logger.info('pos order not found', { op: ctx.op, providerCode: env.code });
    return { notFound: true };
  }

  // 3. The signature, before anything else is read from the answer.
  const mode = o.conventions.posResponseVerify;
  if (mode !== 'off' && !signatureVerifies(raw, env.sign, o)) {
    if (mode === 'verify') {
      return fail(badResponseError(ctx, 'unauthenticated', { unverifiedProviderCode: env.code, unverifiedProviderMessage: env.message.slice(0, 200) }));
    }
    logger.warn('pos answer signature does not verify; accepted because Settings say warn', { op: ctx.op, providerCode: env.code });
  }

  // 4. Only now decrypt.
  let data: unknown = env.data;
  if (typeof env.data === 'string') {
    try {
      data = JSON.parse((o.decrypt ?? rsaDecryptChunked)(o.merchantPrivateKey, env.data));
    } catch {
      // Same reason and message as a bad signature: a padding failure must not be told apart.
      return fail(badResponseError(ctx, 'unauthenticated', { unverifiedProviderCode: env.code, unverifiedProviderMessage: env.message.slice(0, 200) }));
    }
  }

  // 5. The provider's verdict.
  if (env.code !== POS_SUCCESS) return fail(classifyRefusal(ctx, env.code, env.message, { verified: mode === 'verify' }));
  return { notFound: false, data, code: env.code, message: env.message };
}

function signatureVerifies(raw: Record<string, unknown>, sign: string | null | undefined, o: OpenPosResponseOptions): boolean {
  if (!sign) return false;
  const forms = posResponseSignStrings(raw);
  const hash = o.conventions.posSignHash;
  const want = o.conventions.posResponseSignForm;
  if ((want === 'either' || want === 'dataTimestamp') && rsaVerify(o.providerPublicKey, forms.dataTimestamp, sign, hash)) return true;
  if ((want === 'either' || want === 'sortedKv') && rsaVerify(o.providerPublicKey, forms.sortedKv, sign, hash)) return true;
  return false;
}
