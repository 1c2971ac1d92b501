// Who may call the browser shell's API. The address it prints carries a launch token in its
// fragment (`#token=…`); the page spends it once, at first load (POST /api/session), for an
// HttpOnly, SameSite=Strict session cookie. A token left behind in the browser's history or
// restored tabs is then worth nothing: a second use is refused with a page saying how to get a
// new address. Sessions live in memory, so they end when the shell stops. The process that
// started the shell (tests, tools) holds a session of its own, sent as the token header.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { TOKEN_HEADER } from '../shared/transport-names';
import type { GuardResult } from './guards';

const newSecret = () => randomBytes(24).toString('base64url');

function sameSecret(got: string, want: string): boolean {
  const a = Buffer.from(got);
  const b = Buffer.from(want);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The secret in `set` equal to `got`, compared in constant time per entry. */
function findIn(set: Iterable<string>, got: string): string | null {
  let found: string | null = null;
  for (const s of set) if (sameSecret(got, s)) found = s;
  return found;
}

const SPENT_LINK =
  'This CounterPay address was used already: it opens CounterPay once, in the first browser that opens it. Go back to that browser window, or restart CounterPay (npm run start:browser) and open the new address it prints.';
const NO_SESSION = 'Open CounterPay with the address printed when it started.';
const OLD_SESSION = 'This page is from an earlier start of CounterPay. Open the address printed when it started.';

export function createShellSessions(firstLaunch?: string) {
  const launches = new Set<string>([firstLaunch ?? newSecret()]);
  const spent = new Set<string>();
  const sessions = new Set<string>();
  const owner = newSecret();
  sessions.add(owner);
  let port = 0;

  const cookieName = () => `counterpay_session_${port}`;
  const header = (req: IncomingMessage) => {
    const v = req.headers[TOKEN_HEADER];
    return typeof v === 'string' && v.length > 0 ? v : null;
  };
  function cookie(req: IncomingMessage): string | null {
    const name = cookieName();
    for (const part of (req.headers.cookie ?? '').split(';')) {
      const [k, ...v] = part.trim().split('=');
      if (k === name) return v.join('=');
    }
    return null;
  }
  const signedIn = (req: IncomingMessage) => {
    const c = cookie(req);
    const h = header(req);
    return (c !== null && findIn(sessions, c) !== null) || (h !== null && findIn(sessions, h) !== null);
  };

  return {
    /** The first address's launch token (printed in the fragment). */
    firstLaunch: [...launches][0]!,
    /** A session for the process that started the shell: the token header, never in a URL. */
    owner,
    usePort(p: number): void {
      port = p;
    },

    /** An API request's credential: the session cookie, or a session in the token header. */
    check(req: IncomingMessage): GuardResult {
      if (signedIn(req)) return { ok: true };
      if (header(req) === null && cookie(req) === null)
        return { ok: false, status: 401, code: 'TOKEN_MISSING', message: NO_SESSION };
      return { ok: false, status: 401, code: 'TOKEN_WRONG', message: OLD_SESSION };
    },

    /**
     * Spends the launch token in the token header for a session cookie (the Set-Cookie value).
     * A page that already holds a session is let through as it is; a spent token is refused.
     */
    exchange(req: IncomingMessage): { ok: true; setCookie?: string } | Exclude<GuardResult, { ok: true }> {
      const h = header(req);
      const launch = h === null ? null : findIn(launches, h);
      if (launch !== null) {
        launches.delete(launch);
        spent.add(launch);
        const sid = newSecret();
        sessions.add(sid);
        return { ok: true, setCookie: `${cookieName()}=${sid}; HttpOnly; SameSite=Strict; Path=/` };
      }
      if (signedIn(req)) return { ok: true };
      if (h !== null && findIn(spent, h) !== null)
        return { ok: false, status: 401, code: 'TOKEN_SPENT', message: SPENT_LINK };
      if (h === null) return { ok: false, status: 401, code: 'TOKEN_MISSING', message: NO_SESSION };
      return { ok: false, status: 401, code: 'TOKEN_WRONG', message: OLD_SESSION };
    },

    /** A new one-time launch token, for a signed-in caller to hand another browser. */
    newLaunch(): string {
      const t = newSecret();
      launches.add(t);
      return t;
    },
  };
}
