// Who may call what: one onRequest hook per audience (anonymous, counter, manager, admin). How routes
// declare their schemas is zod-provider.ts.
//
// Limits: an anonymous request spends its address's bucket; an authenticated one spends only its
// credential's (counter), its manager's or the admin's bucket. So a client flooding without a
// credential — behind a proxy every client may share one address — cannot starve a real counter's
// sync or a logged-in manager (issue 21, High). An address that keeps on past its limit has its
// refusals held a while (flood-brake.ts), so its flood cannot take the Hub's cores either.
//
// Credentials (issue 26, High): one known good is served from memory (credential-cache.ts) and
// charges no address; one not known here is looked up in the database only after its address paid
// (its anonymous bucket, then one of its few lookups a minute), and a wrong one costs the address
// more than a right one (the lookup is not given back, and more of its bucket goes). So a flood of
// random tokens or cookies reads the database a bounded number of times, whatever it sends.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { CSRF_HEADER, DASHBOARD_PREFIX as D, SESSION_COOKIE } from '../../shared/hub-dashboard-contract';
import type { HubContext } from '../context';
import { fail, HubFailure } from '../errors';
import { authenticateCounter, type CounterRow } from '../store/counters';
import { readSession, type Session } from '../store/managers';
import { sha256 } from '../store/tokens';
import type { Cached } from './credential-cache';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the counter audience's hook. */
    counter: CounterRow | null;
    /** Set by the manager audience's hook. */
    session: Session | null;
  }
}

/** Spends one token of the address's anonymous bucket, or answers 429 (held a while when the address keeps on). */
export async function limitAnonymous(ctx: HubContext, req: FastifyRequest): Promise<void> {
  const key = `ip:${req.ip}`;
  const now = ctx.now();
  const wait = ctx.perAddress.take(key, now);
  if (!wait) return;
  await ctx.floodBrake.refused(key, now);
  throw fail('HUB_RATE_LIMITED', 429, 'Too many requests without a valid credential from this address; slow down.', {
    retryAfterMs: wait,
  });
}

/** What a wrong credential costs its address on top of the request itself (tokens of its anonymous bucket). */
export const WRONG_CREDENTIAL_EXTRA = 4;

const isCredentialFailure = (e: unknown) => e instanceof HubFailure && (e.status === 401 || e.status === 403);

/** A wrong or missing credential: the address pays the request (429 when it cannot), then its extra. */
async function chargeWrong(ctx: HubContext, req: FastifyRequest): Promise<void> {
  await limitAnonymous(ctx, req);
  const now = ctx.now();
  for (let i = 0; i < WRONG_CREDENTIAL_EXTRA; i++) ctx.perAddress.take(`ip:${req.ip}`, now);
}

/**
 * A credential's way in. Known good and fresh: from memory, nothing charged. Known good but due for
 * its check: looked up without charging the address. Unknown: the address pays first — its anonymous
 * bucket, then one of its credential lookups — and only then is the database asked; a right one
 * gets its lookup back and is remembered, a wrong one keeps it and costs its extra.
 */
async function earn<T>(
  ctx: HubContext,
  req: FastifyRequest,
  cached: Cached<T>,
  lookup: () => Promise<T>,
  remember: (v: T) => void,
  forget: () => void,
): Promise<T> {
  if (cached?.fresh) return cached.value;
  const key = `ip:${req.ip}`;
  if (!cached) {
    await limitAnonymous(ctx, req);
    const wait = ctx.credentials.reserveLookup(key, ctx.now());
    if (wait) {
      await ctx.floodBrake.refused(key, ctx.now());
      throw fail(
        'HUB_RATE_LIMITED',
        429,
        "Too many unknown credentials from this address: slow down, and check the counter's Hub credential (or log in to the dashboard again).",
        { retryAfterMs: wait },
      );
    }
  }
  ctx.credentials.lookupsDone++;
  try {
    const v = await lookup();
    if (!cached) ctx.credentials.refundLookup(key);
    remember(v);
    return v;
  } catch (e) {
    if (isCredentialFailure(e)) {
      forget();
      if (cached) await limitAnonymous(ctx, req);
      const now = ctx.now();
      for (let i = 0; i < WRONG_CREDENTIAL_EXTRA; i++) ctx.perAddress.take(key, now);
    }
    throw e;
  }
}

const bearerOf = (req: FastifyRequest): string | null => {
  const h = req.headers.authorization;
  const m = typeof h === 'string' ? /^Bearer ([A-Za-z0-9_-]{20,200})$/.exec(h.trim()) : null;
  return m ? m[1]! : null;
};

export const anonymousAudience =
  (ctx: HubContext): onRequestAsyncHookHandler =>
  async (req) =>
    limitAnonymous(ctx, req);

/** Counters: the bearer credential (from memory when known good), then the credential's own bucket. */
export const counterAudience =
  (ctx: HubContext): onRequestAsyncHookHandler =>
  async (req) => {
    const token = bearerOf(req);
    if (!token) {
      await limitAnonymous(ctx, req);
      throw fail(
        'HUB_UNAUTHENTICATED',
        401,
        "This call needs the counter's Hub credential (Authorization: Bearer ...). Enroll the counter first.",
      );
    }
    const hash = sha256(token);
    const cache = ctx.credentials;
    const counter = await earn(
      ctx,
      req,
      cache.counter(hash, ctx.now()),
      () => authenticateCounter(ctx.db, token),
      (c) => cache.rememberCounter(hash, c, ctx.now()),
      () => cache.forget(hash),
    );
    const wait = ctx.perCredential.take(`ctr:${counter.id}`, ctx.now());
    if (wait)
      throw fail('HUB_RATE_LIMITED', 429, 'This counter is sending too many requests; slow down.', {
        retryAfterMs: wait,
      });
    req.counter = counter;
  };

/** The administrator: the admin token (compared by hash, in constant time; a wrong one costs the address like any wrong credential), then the admin's bucket. */
export const adminAudience =
  (ctx: HubContext): onRequestAsyncHookHandler =>
  async (req) => {
    const token = bearerOf(req);
    if (!ctx.adminToken || !token || !sameHash(token, ctx.adminToken)) {
      await chargeWrong(ctx, req);
      if (!ctx.adminToken)
        throw fail(
          'HUB_ADMIN_DISABLED',
          403,
          'The admin API is off: start the Hub with HUB_ADMIN_TOKEN set (or --admin-token-file).',
        );
      throw fail('HUB_FORBIDDEN', 403, 'The admin token is missing or wrong.');
    }
    const wait = ctx.perCredential.take('admin', ctx.now());
    if (wait) throw fail('HUB_RATE_LIMITED', 429, 'Too many admin requests; slow down.', { retryAfterMs: wait });
  };

function sameHash(a: string, b: string): boolean {
  const h = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(h(a), h(b));
}

export function sessionCookieOf(req: FastifyRequest): string | null {
  const h = req.headers.cookie;
  if (!h) return null;
  for (const part of h.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === SESSION_COOKIE) {
      const val = v.join('=');
      return /^[A-Za-z0-9_-]{43}$/.test(val) ? val : null;
    }
  }
  return null;
}

const sameText = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * A browser's Origin, when sent, must be this Hub's own address, scheme and port included: one of
 * its public origins when configured, else the Host it was asked under with the Hub's scheme (https
 * when its cookie is Secure — TLS here or at a proxy — else the request's own).
 */
export function checkOrigin(
  req: FastifyRequest,
  dc: { publicOrigins: readonly string[]; secureCookie: boolean },
): void {
  const { publicOrigins } = dc;
  const origin = req.headers.origin;
  if (origin === undefined) return;
  let u: URL | null = null;
  try {
    u = new URL(origin);
  } catch {
    u = null;
  }
  const own = publicOrigins.length
    ? publicOrigins.includes(u?.origin ?? '')
    : u?.protocol === (dc.secureCookie ? 'https:' : `${req.protocol}:`) && u.host === req.headers.host;
  if (!own)
    throw fail(
      'HUB_CSRF',
      403,
      "This request came from another web site (Origin). Use the dashboard at the Hub's own address.",
    );
}

/**
 * With public origins configured, the dashboard answers only under their Host names: a page that a
 * foreign name resolves to the Hub (DNS rebinding) gets nothing. Counters and the provider are not
 * concerned (they carry credentials of their own, not cookies).
 */
export const dashboardHostCheck = (publicOrigins: readonly string[]): onRequestAsyncHookHandler => {
  const hosts = new Set(publicOrigins.map((o) => new URL(o).host));
  return async (req) => {
    if (!hosts.size || !/^\/(api\/v1\/)?dashboard(\/|\?|$)/.test(req.url)) return;
    const host = req.headers.host ?? '';
    if (!hosts.has(host)) {
      throw fail(
        'HUB_HOST',
        403,
        `This Hub answers its dashboard only at ${publicOrigins.join(' or ')}, not under the name "${host.slice(0, 100)}". Open the dashboard at that address; if this name is right, add it to the Hub's --public-url.`,
        { host: host.slice(0, 100), publicOrigins: [...publicOrigins] },
      );
    }
  };
};

/**
 * Managers: the session cookie (from memory when known good), then the manager's own bucket. A write (any method but GET/HEAD)
 * also needs the session's CSRF token header and, when the browser sends one, a same-origin Origin.
 */
export const managerAudience =
  (ctx: HubContext): onRequestAsyncHookHandler =>
  async (req) => {
    const dc = ctx.dashboard;
    const id = sessionCookieOf(req);
    const missing = () =>
      fail('HUB_UNAUTHENTICATED', 401, 'Log in to the dashboard (the session is missing or has expired).');
    if (!id) {
      await limitAnonymous(ctx, req);
      throw missing();
    }
    const hash = sha256(id);
    const cache = ctx.credentials;
    const s = await earn(
      ctx,
      req,
      cache.session(hash, ctx.now()),
      async () => (await readSession(ctx.db, id, ctx.now(), dc.session)) ?? Promise.reject(missing()),
      (found) => cache.rememberSession(hash, found, ctx.now()),
      () => cache.forget(hash),
    );
    const wait = ctx.perCredential.take(`mgr:${s.manager.id}`, ctx.now());
    if (wait)
      throw fail('HUB_RATE_LIMITED', 429, 'Too many requests from this manager; slow down.', { retryAfterMs: wait });
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      checkOrigin(req, dc);
      const t = req.headers[CSRF_HEADER];
      if (typeof t !== 'string' || !sameText(t, s.csrfToken))
        throw fail(
          'HUB_CSRF',
          403,
          `This change needs the session's ${CSRF_HEADER} header (from the login answer or GET ${D}/session).`,
        );
    }
    req.session = s;
  };

/** The request's counter (a route of the counter audience). */
export const counterOf = (req: FastifyRequest): CounterRow => req.counter ?? unreachable('counter');
/** The request's session (a route of the manager audience). */
export const sessionOf = (req: FastifyRequest): Session => req.session ?? unreachable('session');
const unreachable = (what: string): never => {
  throw fail('HUB_INTERNAL', 500, `route registered outside the ${what} audience`);
};
