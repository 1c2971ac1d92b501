// The provider's error family: every failure of a call to the provider becomes an AppError with a
// PROVIDER_* code, a message a cashier can act on, and details (always incl. outcomeUnknown).
import { AppError, isAppError, type ErrorCode } from '../../shared/errors';
import { SECRET_LABELS, type SecretName } from '../../shared/settings';
import type { SkewState } from './provider-clock';
import { refusalText, type RefusalCause } from './refusal-causes';

type ProviderErrorCode = Extract<ErrorCode, `PROVIDER_${string}`>;

const PROVIDER_ERROR_CODES: readonly ProviderErrorCode[] = [
  'PROVIDER_UNREACHABLE',
  'PROVIDER_TIMEOUT',
  'PROVIDER_HTTP',
  'PROVIDER_REFUSED',
  'PROVIDER_AUTH',
  'PROVIDER_BAD_RESPONSE',
  'PROVIDER_NOT_CONFIGURED',
];

/** Which provider operation failed, for details and logs (e.g. "pos.createOrder"). */
export interface ProviderCallContext {
  op: string;
  url?: string;
}

export function isProviderError(e: unknown): e is AppError & { code: ProviderErrorCode } {
  return isAppError(e) && (PROVIDER_ERROR_CODES as readonly string[]).includes(e.code);
}

/**
 * True when the provider may have acted on the request although we got no usable answer
 * (timeout, connection dropped after sending, 5xx, unreadable or unauthenticated answer).
 * The caller must settle such an operation with a status query before sending anything again.
 * Anything that is not an AppError (a bug after the request went out) counts as unknown too:
 * assuming "nothing happened" is the one unsafe guess.
 */
export function isOutcomeUnknown(err: unknown): boolean {
  if (!isAppError(err)) return true;
  if (err.code === 'PROVIDER_TIMEOUT') return true;
  return err.details?.outcomeUnknown === true;
}

const ALREADY_EXISTS = /already\s*exist|duplicate|repeat(ed)?\s*(order|request|reference)|existed/i;

/** True for the provider's "this order/reference already exists" refusal (e.g. on createOrder). */
export function isAlreadyExists(err: unknown): boolean {
  if (!isAppError(err) || err.code !== 'PROVIDER_REFUSED') return false;
  if (err.details?.alreadyExists === true) return true;
  const msg = err.details?.providerMessage;
  return typeof msg === 'string' && ALREADY_EXISTS.test(msg);
}

function looksLikeAlreadyExists(providerMessage: string): boolean {
  return ALREADY_EXISTS.test(providerMessage);
}

// ---- constructors ----

export function unreachableError(ctx: ProviderCallContext, reason: string, causeCode?: string): AppError {
  const hint =
    reason === 'dns'
      ? 'the provider address could not be found (DNS)'
      : reason === 'tls'
        ? 'the secure connection was refused (certificate problem)'
        : reason === 'blocked-port'
          ? 'the provider address uses a port that is not allowed'
          : 'the connection was refused or the network is unreachable';
  return new AppError(
    'PROVIDER_UNREACHABLE',
    `Could not connect to the payment provider: ${hint}. Nothing was sent. Check the internet connection and the provider address in Settings, then try again.`,
    { ...ctx, reason, ...(causeCode ? { causeCode } : {}), outcomeUnknown: false },
  );
}

export function timeoutError(
  ctx: ProviderCallContext,
  reason: 'timeout' | 'connection-dropped' | 'network',
  causeCode?: string,
  timeoutMs?: number,
): AppError {
  const what =
    reason === 'timeout'
      ? 'The payment provider did not answer in time'
      : reason === 'connection-dropped'
        ? 'The connection to the payment provider dropped after the request was sent'
        : 'The network failed while talking to the payment provider';
  return new AppError(
    'PROVIDER_TIMEOUT',
    `${what}. The request may or may not have reached the provider: check its status before trying again.`,
    { ...ctx, reason, ...(causeCode ? { causeCode } : {}), ...(timeoutMs ? { timeoutMs } : {}), outcomeUnknown: true },
  );
}

/**
 * A non-2xx answer that is not a refusal we can act on. Every 5xx lands here even when it carries
 * a provider code: a server failure never proves the request was not processed.
 */
export function httpError(
  ctx: ProviderCallContext,
  httpStatus: number,
  bodySnippet?: string,
  extra: Record<string, unknown> = {},
): AppError {
  const serverSide = httpStatus >= 500;
  const message = serverSide
    ? `The payment provider had an internal problem (HTTP ${httpStatus}). The request may or may not have been processed: check its status before trying again.`
    : `The payment provider did not accept the request (HTTP ${httpStatus}). Check the provider address in Settings; if it persists, call support.`;
  return new AppError('PROVIDER_HTTP', message, {
    ...ctx,
    ...extra,
    httpStatus,
    ...(bodySnippet ? { bodySnippet } : {}),
    outcomeUnknown: serverSide,
  });
}

/** `unproven`: the refusal was not signed (a 401 page, a gateway), so the outcome stays unknown. */
export function authError(
  ctx: ProviderCallContext,
  info: { httpStatus?: number; providerCode?: string; providerMessage?: string },
  unproven = false,
): AppError {
  const clockHint =
    info.providerMessage && /timestamp|expired|time\b/i.test(info.providerMessage)
      ? " Also check that this computer's date and time are correct."
      : '';
  const said = info.providerMessage ? ` ("${info.providerMessage}")` : '';
  return new AppError(
    'PROVIDER_AUTH',
    `The payment provider refused our credentials${said}. Ask the administrator to check the keys and merchant ids in Settings.${clockHint}`,
    { ...ctx, ...info, outcomeUnknown: unproven },
  );
}

/** @internal for tests */
export function refusedError(
  ctx: ProviderCallContext,
  providerCode: string,
  providerMessage: string,
  extra: Record<string, unknown> = {},
): AppError {
  const alreadyExists = looksLikeAlreadyExists(providerMessage);
  const text = providerMessage.trim() || 'no reason given';
  const message = alreadyExists
    ? `The payment provider already has this order (${text}, code ${providerCode}). Check its status instead of creating it again.`
    : `The payment provider refused the request: ${text} (code ${providerCode}).`;
  const httpStatus = typeof extra.httpStatus === 'number' ? extra.httpStatus : undefined;
  return new AppError('PROVIDER_REFUSED', message, {
    ...ctx,
    ...extra,
    providerCode,
    providerMessage,
    alreadyExists,
    outcomeUnknown: httpStatus !== undefined && httpStatus >= 500,
  });
}

/** Every way the answer can be unusable. `unauthenticated` covers bad signature AND bad padding alike. */
type BadResponseReason = 'malformed-json' | 'schema' | 'unauthenticated' | 'too-large';

export function badResponseError(
  ctx: ProviderCallContext,
  reason: BadResponseReason,
  extra: Record<string, unknown> = {},
): AppError {
  const message =
    reason === 'unauthenticated'
      ? "The payment provider's answer could not be authenticated (its signature does not verify), so it was not trusted. The request may or may not have been processed: check its status before trying again. If this repeats, ask the administrator to check the provider public key and merchant private key in Settings."
      : 'The payment provider sent an answer this app cannot read. The request may or may not have been processed: check its status before trying again.';
  return new AppError('PROVIDER_BAD_RESPONSE', message, { ...ctx, reason, ...extra, outcomeUnknown: true });
}

export type ProviderSetting =
  SecretName | 'billsBaseUrl' | 'posBaseUrl' | 'billsMerchantId' | 'headMerchantId' | 'merchantId';

const SETTING_LABELS: Record<ProviderSetting, string> = {
  ...SECRET_LABELS,
  billsBaseUrl: 'Bills API address',
  posBaseUrl: 'POS API address',
  billsMerchantId: 'Bills merchant id',
  headMerchantId: 'Head merchant id (business id)',
  merchantId: 'Merchant id (branch id)',
};

export function notConfiguredError(
  op: string,
  setting: ProviderSetting,
  problem: 'missing' | 'invalid' = 'missing',
): AppError {
  const label = SETTING_LABELS[setting];
  const message =
    problem === 'missing'
      ? `"${label}" is not set. Ask the administrator to fill it in Settings before using this.`
      : `"${label}" in Settings is not valid. Ask the administrator to correct it.`;
  return new AppError('PROVIDER_NOT_CONFIGURED', message, { op, setting, problem, outcomeUnknown: false });
}

// Provider codes are not documented; these words in a refusal mean our credentials were refused.
const AUTH_REFUSAL =
  /signature|\bsign\b|unauthori[sz]ed|authenticat|auth(orization)?\s*(fail|error|invalid)|(public|secret|auth)\s*key|clientAuthKey|invalid\s*merchant|merchant\s*(id\s*)?(is\s*)?(invalid|not\s*(exist|found))|forbidden|permission\s*denied|access\s*denied|timestamp/i;

/** A refusal with a provider code: PROVIDER_AUTH when it is about our credentials, else PROVIDER_REFUSED. */
export function classifyRefusal(
  ctx: ProviderCallContext,
  providerCode: string,
  providerMessage: string,
  extra: Record<string, unknown> = {},
): AppError {
  if (AUTH_REFUSAL.test(providerMessage)) {
    const httpStatus = typeof extra.httpStatus === 'number' ? extra.httpStatus : undefined;
    return authError(ctx, { providerCode, providerMessage, ...(httpStatus !== undefined ? { httpStatus } : {}) });
  }
  return refusedError(ctx, providerCode, providerMessage, extra);
}

/**
 * A refusal whose likely cause is our clock or our credentials. Signed (verified), it proves the
 * provider refused: nothing was created. Unsigned, anyone could have sent it, so the outcome stays
 * unknown and the order is settled by asking, never by sending it again blindly.
 */
export function causedRefusalError(
  ctx: ProviderCallContext,
  cause: RefusalCause,
  providerCode: string,
  providerMessage: string,
  o: { verified: boolean; httpStatus?: number; skew?: SkewState | null },
): AppError {
  const text = refusalText(cause, providerCode, providerMessage, o.skew ?? null);
  return new AppError('PROVIDER_AUTH', text.cashier, {
    ...ctx,
    providerCode,
    providerMessage,
    cause,
    adminAction: text.admin,
    verified: o.verified,
    ...(o.httpStatus !== undefined ? { httpStatus: o.httpStatus } : {}),
    ...(o.skew?.offsetMs != null ? { clockOffsetMs: o.skew.offsetMs, clockCorrected: o.skew.correcting } : {}),
    outcomeUnknown: !o.verified,
  });
}
