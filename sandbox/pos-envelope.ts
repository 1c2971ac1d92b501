// The POS API's wire envelope. Requests: headers (clientAuthKey, version, bodyFormat, timestamp)
// and `{paramContent, sign}`; the sign is verified BEFORE anything is decrypted. Responses:
// `{code, message, data, sign, timestamp}` with data encrypted for the merchant and signed.
import {
  canonicalJson,
  posResponseSignStrings,
  rsaDecryptChunked,
  rsaEncryptChunked,
  rsaSign,
  rsaVerify,
} from '../protocol/crypto';
import { CODES, PosGatewayRefusal, SUCCESS_MESSAGE, SandboxError, badRequest, invalid } from './codes';
import type { PosMerchant } from './config';
import type { SandboxContext } from './context';
import { header } from '../protocol/http';
import { parseJsonObject } from './http-util';
import type { ApiRequest, ApiResult } from './routes';

export const POS_PREFIX = '/openApi/order/checkout';
export const POS_VERSION = 'V1.0.1';

/** "order not exist": unsigned unless pos.signNotFound. */
export class PosNotFound extends SandboxError {
  constructor(code: string) {
    super(200, code, 'order not exist');
  }
}

export interface VerifiedPosRequest {
  merchant: PosMerchant;
  params: Record<string, unknown>;
}

/** Order of checks: who (clientAuthKey), headers, freshness, sign, and only then decryption. Refusals of who or when are unsigned 1000x codes. */
export function verifyPosRequest(ctx: SandboxContext, r: ApiRequest): VerifiedPosRequest {
  const cfg = ctx.config.pos;
  const key = header(r.req, 'clientauthkey');
  if (!key) throw new PosGatewayRefusal(CODES.POS_CLIENT_AUTH, 'clientAuthKey is required');
  const merchant = cfg.merchants.find((m) => m.clientAuthKey === key);
  if (!merchant) throw new PosGatewayRefusal(CODES.POS_CLIENT_AUTH, 'invalid clientAuthKey');
  const version = header(r.req, 'version');
  if (version !== POS_VERSION)
    throw badRequest(`version header must be ${POS_VERSION} (got ${JSON.stringify(version ?? null)})`);
  const bodyFormat = header(r.req, 'bodyformat');
  if (bodyFormat !== 'JSON')
    throw badRequest(`bodyFormat header must be JSON (got ${JSON.stringify(bodyFormat ?? null)})`);
  const timestamp = header(r.req, 'timestamp') ?? '';
  if (!/^\d{10,16}$/.test(timestamp)) throw new PosGatewayRefusal(CODES.POS_TIMESTAMP, 'timestamp invalid');
  if (Math.abs(ctx.clock.now() - Number(timestamp)) > cfg.timestampToleranceMs)
    throw new PosGatewayRefusal(CODES.POS_TIMESTAMP, 'timestamp expired');
  const body = parseJsonObject(r.req, r.body);
  if (typeof body.paramContent !== 'string' || body.paramContent.length === 0)
    throw badRequest('paramContent is required');
  if (typeof body.sign !== 'string' || body.sign.length === 0)
    throw new PosGatewayRefusal(CODES.POS_SIGN, 'sign is required');
  if (!rsaVerify(merchant.merchantPublicKey, body.paramContent + timestamp, body.sign, cfg.signHash))
    throw new PosGatewayRefusal(CODES.POS_SIGN, 'sign verification failed');
  let plain: string;
  try {
    plain = rsaDecryptChunked(cfg.providerPrivateKey, body.paramContent);
  } catch {
    // Same answer as a bad sign: nothing about the decryption may leak.
    throw new PosGatewayRefusal(CODES.POS_SIGN, 'sign verification failed');
  }
  let params: unknown;
  try {
    params = JSON.parse(plain);
  } catch {
    throw invalid('paramContent does not hold JSON');
  }
  if (params === null || typeof params !== 'object' || Array.isArray(params))
    throw invalid('paramContent must hold a JSON object');
  return { merchant, params: params as Record<string, unknown> };
}

function sortDeep(value: unknown): unknown {
  return JSON.parse(canonicalJson(value));
}

/** Builds a response envelope; `data` is encrypted for `merchant` when configured and known. */
export function posEnvelope(
  ctx: SandboxContext,
  merchant: PosMerchant | null,
  code: string,
  message: string,
  data: Record<string, unknown> | null,
  signed: boolean,
): Record<string, unknown> {
  const cfg = ctx.config.pos;
  let wireData: unknown = null;
  if (data !== null)
    wireData =
      cfg.encryptResponseData && merchant
        ? rsaEncryptChunked(merchant.merchantPublicKey, canonicalJson(data))
        : sortDeep(data);
  const envelope: Record<string, unknown> = { code, message, data: wireData, timestamp: String(ctx.clock.now()) };
  if (signed) {
    const forms = posResponseSignStrings(envelope);
    envelope.sign = rsaSign(cfg.providerPrivateKey, forms[cfg.responseSignForm], cfg.signHash);
  }
  return { code, message, data: wireData, ...(signed ? { sign: envelope.sign } : {}), timestamp: envelope.timestamp };
}

export function posOk(ctx: SandboxContext, merchant: PosMerchant, data: Record<string, unknown>): ApiResult {
  return { status: 200, body: posEnvelope(ctx, merchant, CODES.OK, SUCCESS_MESSAGE, data, true) };
}

export function posErrorResult(ctx: SandboxContext, e: SandboxError): ApiResult {
  const signed =
    e instanceof PosGatewayRefusal
      ? false
      : e instanceof PosNotFound
        ? ctx.config.pos.signNotFound
        : ctx.config.pos.signErrors;
  return { status: e.status, body: posEnvelope(ctx, null, e.code, e.message, null, signed), headers: e.headers };
}
