// The one way the provider clients talk HTTP: ky with no retries (callers own retry policy), one
// deadline for the whole exchange (headers and body), and network failures mapped to PROVIDER_*.
import ky from 'ky';
import type { Logger } from '../../shared/logger';
import { badResponseError, timeoutError, unreachableError, type ProviderCallContext } from './provider-errors';
import type { AppError } from '../../shared/errors';

interface PostRequest {
  op: string;
  url: string;
  headers: Record<string, string>;
  /** Sent byte for byte (the bills signature covers exactly these bytes). */
  body?: string;
  timeoutMs: number;
}

export interface HttpAnswer {
  status: number;
  text: string;
  /** The answer's HTTP Date header (the provider's clock), when it sent one. */
  date?: string | null;
}

interface TransportDeps {
  logger: Logger;
  /** Largest answer read before giving up (default 2 MiB). */
  maxResponseBytes?: number;
}

const DEFAULT_MAX_RESPONSE = 2 * 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 15_000;
const MAX_TIMEOUT_MS = 120_000;

/** Raised internally when the answer is bigger than we are willing to hold. */
class ResponseTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`Response larger than ${limit} bytes`);
    this.name = 'ResponseTooLargeError';
  }
}

/**
 * POSTs once. Resolves with any HTTP status (callers map statuses); rejects only with
 * PROVIDER_UNREACHABLE, PROVIDER_TIMEOUT or PROVIDER_BAD_RESPONSE (answer too large) AppErrors.
 */
export async function postOnce(req: PostRequest, deps: TransportDeps): Promise<HttpAnswer> {
  const started = performance.now();
  // A missing or absurd setting must never mean "wait forever".
  const timeoutMs =
    Number.isFinite(req.timeoutMs) && req.timeoutMs > 0 ? Math.min(req.timeoutMs, MAX_TIMEOUT_MS) : DEFAULT_TIMEOUT_MS;
  const controller = new AbortController();
  // ky's `timeout` covers the wait for headers; this deadline also bounds reading the body.
  const deadline = setTimeout(
    () => controller.abort(new DOMException('Provider deadline passed', 'TimeoutError')),
    timeoutMs,
  );
  const ctx: ProviderCallContext = { op: req.op, url: req.url };
  try {
    const response = await ky.post(req.url, {
      ...(req.body !== undefined ? { body: req.body } : {}),
      headers: req.headers,
      retry: 0,
      timeout: timeoutMs,
      throwHttpErrors: false,
      signal: controller.signal,
      redirect: 'error',
    });
    const text = await readBounded(response, deps.maxResponseBytes ?? DEFAULT_MAX_RESPONSE);
    deps.logger.info('provider call answered', {
      op: req.op,
      status: response.status,
      ms: Math.round(performance.now() - started),
    });
    return { status: response.status, text, date: response.headers.get('date') };
  } catch (err) {
    if (err instanceof ResponseTooLargeError) {
      deps.logger.warn('provider answer too large', { op: req.op, limit: err.limit });
      throw badResponseError(ctx, 'too-large', { limit: err.limit });
    }
    const mapped = mapTransportError(err, ctx, controller.signal.aborted, timeoutMs);
    deps.logger.warn('provider call failed', {
      op: req.op,
      code: mapped.code,
      reason: mapped.details?.reason,
      causeCode: mapped.details?.causeCode,
    });
    throw mapped;
  } finally {
    clearTimeout(deadline);
  }
}

async function readBounded(response: Response, limit: number): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > limit) {
    void response.body?.cancel().catch(() => undefined);
    throw new ResponseTooLargeError(limit);
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      void reader.cancel().catch(() => undefined);
      throw new ResponseTooLargeError(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

// Failures that happen before a single byte of the request can have been delivered.
const NOT_SENT_CODES: Record<string, string> = {
  ECONNREFUSED: 'refused',
  EHOSTUNREACH: 'unreachable',
  ENETUNREACH: 'unreachable',
  EHOSTDOWN: 'unreachable',
  ENETDOWN: 'unreachable',
  EADDRNOTAVAIL: 'unreachable',
  ENOTFOUND: 'dns',
  EAI_AGAIN: 'dns',
  EAI_NONAME: 'dns',
  UND_ERR_CONNECT_TIMEOUT: 'connect-timeout',
  CERT_HAS_EXPIRED: 'tls',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'tls',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'tls',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'tls',
  SELF_SIGNED_CERT_IN_CHAIN: 'tls',
  ERR_TLS_CERT_ALTNAME_INVALID: 'tls',
};

// Failures after the request may have gone out: the provider may have acted on it.
const DROPPED_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'ECONNABORTED']);

interface CauseLink {
  name?: string;
  message?: string;
  code?: string;
}

function causeChain(err: unknown): CauseLink[] {
  const out: CauseLink[] = [];
  const seen = new Set<unknown>();
  const visit = (e: unknown, depth: number) => {
    if (!e || typeof e !== 'object' || seen.has(e) || depth > 8) return;
    seen.add(e);
    const o = e as { name?: unknown; message?: unknown; code?: unknown; cause?: unknown; errors?: unknown };
    out.push({
      ...(typeof o.name === 'string' ? { name: o.name } : {}),
      ...(typeof o.message === 'string' ? { message: o.message } : {}),
      ...(typeof o.code === 'string' ? { code: o.code } : {}),
    });
    visit(o.cause, depth + 1);
    if (Array.isArray(o.errors)) for (const inner of o.errors) visit(inner, depth + 1);
  };
  visit(err, 0);
  return out;
}

/**
 * Maps whatever fetch/ky threw to PROVIDER_UNREACHABLE (certainly not sent) or PROVIDER_TIMEOUT.
 * @internal for tests
 */
export function mapTransportError(
  err: unknown,
  ctx: ProviderCallContext,
  deadlinePassed = false,
  timeoutMs?: number,
): AppError {
  const chain = causeChain(err);
  if (deadlinePassed || chain.some((c) => c.name === 'TimeoutError'))
    return timeoutError(ctx, 'timeout', undefined, timeoutMs);
  for (const c of chain) {
    if (c.code && NOT_SENT_CODES[c.code]) {
      const reason = NOT_SENT_CODES[c.code]!;
      return unreachableError(
        ctx,
        reason === 'refused' || reason === 'unreachable' || reason === 'connect-timeout' ? 'refused' : reason,
        c.code,
      );
    }
  }
  // undici refuses "bad ports" (fetch spec) before connecting.
  if (chain.some((c) => c.message === 'bad port')) return unreachableError(ctx, 'blocked-port');
  const dropped = chain.find(
    (c) => (c.code && DROPPED_CODES.has(c.code)) || c.message === 'other side closed' || c.message === 'terminated',
  );
  if (dropped) return timeoutError(ctx, 'connection-dropped', dropped.code);
  // Unknown network failure: we cannot prove nothing was sent, so the outcome is unknown.
  const code = chain.find((c) => c.code)?.code;
  return timeoutError(ctx, 'network', code);
}
