// The dashboard's one way to the Hub: same-origin fetch (the session is the HttpOnly cookie), the CSRF
// header on every write, answers checked against the contract's schemas, refusals turned into ApiError
// with the Hub's code and message (and the wait, when it says one).
import type { z } from 'zod';
import { CSRF_HEADER, DASHBOARD_PREFIX } from '../../../shared/hub-dashboard-contract';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly retryAfterMs: number | null,
    /** The fields the Hub refused, by name (its `details.issues`), so a form shows each next to its field. */
    readonly issues: { path: string; message: string }[] = [],
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

let csrfToken: string | null = null;
let onUnauthenticated: (() => void) | null = null;

export function useCsrf(token: string | null): void {
  csrfToken = token;
}
/** Called when the Hub answers 401 to a call made with a session (it expired or ended elsewhere). */
export function whenLoggedOut(fn: () => void): void {
  onUnauthenticated = fn;
}

export const apiUrl = (path: string, query?: URLSearchParams): string => {
  const qs = query?.toString();
  return `${DASHBOARD_PREFIX}${path}${qs ? `?${qs}` : ''}`;
};

async function request<S extends z.ZodType>(
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  schema: S,
  opts: { query?: URLSearchParams; body?: unknown; quiet401?: boolean } = {},
): Promise<z.infer<S>> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers[CSRF_HEADER] = csrfToken;
  let res: Response;
  try {
    res = await fetch(apiUrl(path, opts.query), {
      method,
      headers,
      credentials: 'same-origin',
      cache: 'no-store',
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    });
  } catch {
    throw new ApiError(
      0,
      'NETWORK',
      'The Hub cannot be reached from this browser: check the network, then try again.',
      null,
    );
  }
  let json: unknown = null;
  try {
    json = await res.json();
  } catch {
    json = null;
  }
  if (!res.ok) {
    const j = (json ?? {}) as {
      code?: string;
      message?: string;
      details?: { retryAfterMs?: number; issues?: unknown };
    };
    const issues = Array.isArray(j.details?.issues)
      ? ((j.details.issues as { path?: unknown; message?: unknown }[]).filter(
          (i) => typeof i?.path === 'string' && typeof i.message === 'string',
        ) as { path: string; message: string }[])
      : [];
    const e = new ApiError(
      res.status,
      j.code ?? `HTTP_${res.status}`,
      j.message ?? `The Hub answered ${res.status}.`,
      typeof j.details?.retryAfterMs === 'number' ? j.details.retryAfterMs : null,
      issues,
    );
    if (res.status === 401 && !opts.quiet401) onUnauthenticated?.();
    throw e;
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success)
    throw new ApiError(
      res.status,
      'BAD_ANSWER',
      'The Hub gave an answer this page does not understand: reload the page (the Hub may have been updated).',
      null,
    );
  return parsed.data;
}

export const api = {
  get: <S extends z.ZodType>(path: string, schema: S, query?: URLSearchParams, quiet401 = false) =>
    request('GET', path, schema, { query, quiet401 }),
  post: <S extends z.ZodType>(path: string, schema: S, body: unknown = {}, quiet401 = false) =>
    request('POST', path, schema, { body, quiet401 }),
  put: <S extends z.ZodType>(path: string, schema: S, body: unknown = {}) => request('PUT', path, schema, { body }),
};

export const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));
