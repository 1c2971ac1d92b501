// The browser shell's guards: loopback Host only (DNS rebinding) and our own Origin only. Who may
// call the API (the session) is sessions.ts.
import type { IncomingMessage } from 'node:http';

export type GuardResult = { ok: true } | { ok: false; status: number; code: string; message: string };

function allowedHosts(port: number): Set<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
}

export function checkHost(req: IncomingMessage, port: number): GuardResult {
  const host = (req.headers.host ?? '').toLowerCase();
  if (!allowedHosts(port).has(host))
    return { ok: false, status: 421, code: 'FOREIGN_HOST', message: 'This address is not served here.' };
  return { ok: true };
}

export function checkOrigin(req: IncomingMessage, port: number): GuardResult {
  const origin = req.headers.origin;
  if (origin === undefined) return { ok: true }; // same-origin GETs and non-browser clients; the token still applies
  const allowed = [`http://127.0.0.1:${port}`, `http://localhost:${port}`];
  if (!allowed.includes(origin.toLowerCase()))
    return { ok: false, status: 403, code: 'FOREIGN_ORIGIN', message: 'Calls from other sites are refused.' };
  return { ok: true };
}
