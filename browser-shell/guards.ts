// The browser shell's guards: loopback Host only (DNS rebinding), our own Origin only, and the
// per-launch token on every API request.
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { TOKEN_HEADER } from '../shared/transport-names';

export type GuardResult = { ok: true } | { ok: false; status: number; code: string; message: string };

export function allowedHosts(port: number): Set<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
}

export function checkHost(req: IncomingMessage, port: number): GuardResult {
  const host = (req.headers.host ?? '').toLowerCase();
  if (!allowedHosts(port).has(host)) return { ok: false, status: 421, code: 'FOREIGN_HOST', message: 'This address is not served here.' };
  return { ok: true };
}

export function checkOrigin(req: IncomingMessage, port: number): GuardResult {
  const origin = req.headers.origin;
  if (origin === undefined) return { ok: true }; // same-origin GETs and non-browser clients; the token still applies
  const allowed = [`http://127.0.0.1:${port}`, `http://localhost:${port}`];
  if (!allowed.includes(origin.toLowerCase())) return { ok: false, status: 403, code: 'FOREIGN_ORIGIN', message: 'Calls from other sites are refused.' };
  return { ok: true };
}

export function checkToken(req: IncomingMessage, token: string): GuardResult {
  const got = req.headers[TOKEN_HEADER];
  if (typeof got !== 'string' || got.length === 0) return { ok: false, status: 401, code: 'TOKEN_MISSING', message: 'Open CounterPay with the address printed when it started.' };
  const a = Buffer.from(got);
  const b = Buffer.from(token);
  if (a.length !== b.length || !timingSafeEqual(a, b)) return { ok: false, status: 401, code: 'TOKEN_WRONG', message: 'This page is from an earlier start of CounterPay. Open the address printed when it started.' };
  return { ok: true };
}
