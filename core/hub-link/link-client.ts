// JSON calls to the Hub with the counter's credential. Every failure becomes a HubCallError with
// the Hub's stable code (or HUB_UNREACHABLE / HUB_BAD_ANSWER when the Hub did not answer usefully),
// so callers decide by code: revoked → tell the cashier; gap → resend; anything else → retry later.
import ky, { HTTPError } from 'ky';
import type { z } from 'zod';
import { HUB_API_PREFIX, HubErrorSchema, type HubErrorCode } from '../../shared/hub-contract';

/** An enrolled counter's way to the Hub. The credential is a secret: never logged, never sent to the renderer. */
export interface HubConnection {
  /** Base address, no trailing slash: `https://hub.mycinema.ng` (or `http://…` for a lab). */
  url: string;
  counterId: string;
  credential: string;
  /** The POS branch id (merchantId) given at enrollment. */
  branch: string;
}

type HubCallCode = HubErrorCode | 'HUB_UNREACHABLE' | 'HUB_BAD_ANSWER';

export class HubCallError extends Error {
  readonly code: HubCallCode;
  readonly status: number | null;
  readonly details: Record<string, unknown>;
  constructor(code: HubCallCode, message: string, status: number | null, details: Record<string, unknown> = {}) {
    super(message);
    this.name = 'HubCallError';
    this.code = code;
    this.status = status;
    this.details = details;
  }
}

interface HubCallOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface HubClient {
  /** A call with the counter's credential (`Authorization: Bearer`). */
  call<S extends z.ZodType>(
    conn: Pick<HubConnection, 'url' | 'credential'>,
    method: 'GET' | 'POST',
    path: string,
    body: unknown,
    answer: S,
    o?: HubCallOptions,
  ): Promise<z.infer<S>>;
  /** A call without a credential (enrollment). */
  callAnonymous<S extends z.ZodType>(
    url: string,
    method: 'GET' | 'POST',
    path: string,
    body: unknown,
    answer: S,
    o?: HubCallOptions,
  ): Promise<z.infer<S>>;
}

/** `/api/v1` + path unless the path already starts with it. */
const hubPath = (path: string) => (path.startsWith(HUB_API_PREFIX) ? path : `${HUB_API_PREFIX}${path}`);

export function createHubClient(deps: { fetch?: typeof fetch; defaultTimeoutMs?: number } = {}): HubClient {
  const timeoutDefault = deps.defaultTimeoutMs ?? 10_000;
  async function send<S extends z.ZodType>(
    base: string,
    credential: string | null,
    method: 'GET' | 'POST',
    path: string,
    body: unknown,
    answer: S,
    o: HubCallOptions = {},
  ): Promise<z.infer<S>> {
    let res: Response;
    try {
      res = await ky(`${base.replace(/\/+$/, '')}${hubPath(path)}`, {
        method,
        ...(body !== undefined && method === 'POST' ? { json: body } : {}),
        headers: credential ? { authorization: `Bearer ${credential}` } : {},
        timeout: o.timeoutMs ?? timeoutDefault,
        retry: 0,
        throwHttpErrors: false,
        ...(o.signal ? { signal: o.signal } : {}),
        ...(deps.fetch ? { fetch: deps.fetch } : {}),
      });
    } catch (e) {
      if (e instanceof HTTPError)
        throw new HubCallError('HUB_BAD_ANSWER', `The Hub answered HTTP ${e.response.status}.`, e.response.status);
      const why = e instanceof Error ? e.message : String(e);
      throw new HubCallError('HUB_UNREACHABLE', `The Hub at ${base} could not be reached (${why}).`, null);
    }
    const text = await res.text().catch(() => '');
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      throw new HubCallError(
        'HUB_BAD_ANSWER',
        `The Hub answered HTTP ${res.status} with something that is not JSON: is ${base} really a CounterPay Hub?`,
        res.status,
      );
    }
    if (!res.ok) {
      const err = HubErrorSchema.safeParse(json);
      if (err.success) throw new HubCallError(err.data.code, err.data.message, res.status, err.data.details ?? {});
      throw new HubCallError(
        'HUB_BAD_ANSWER',
        `The Hub answered HTTP ${res.status}: is ${base} really a CounterPay Hub?`,
        res.status,
      );
    }
    const parsed = answer.safeParse(json);
    if (!parsed.success)
      throw new HubCallError(
        'HUB_BAD_ANSWER',
        `The Hub's answer to ${method} ${path} does not match this app's version of the Hub contract.`,
        res.status,
        { issues: parsed.error.issues.slice(0, 5) },
      );
    return parsed.data;
  }
  return {
    call: (conn, method, path, body, answer, o) => send(conn.url, conn.credential, method, path, body, answer, o),
    callAnonymous: (url, method, path, body, answer, o) => send(url, null, method, path, body, answer, o),
  };
}
