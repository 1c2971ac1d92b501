// The browser shell: serves the built renderer on 127.0.0.1 and carries the contract over HTTP
// (POST /api/call/<name>) and server-sent events (GET /api/events), behind the guards and a
// session (sessions.ts: the printed address's one-time token spent for an HttpOnly cookie).
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';
import type { Dispatch } from '../shared/contract-kit';
import { CSP } from '../shared/csp';
import type { EventBus } from '../core/events';
import type { Logger } from '../shared/logger';
import { guardedHandler, isJsonContentType, readBoundedBody, sendJson } from '../protocol/http';
import { checkHost, checkOrigin, type GuardResult } from './guards';
import { createShellSessions } from './sessions';

const MAX_BODY = 1024 * 1024;
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};
export { CSP };

export interface BrowserShellOptions {
  dispatch: Dispatch;
  events: EventBus;
  rendererDir: string;
  logger: Logger;
  port?: number;
  /** The printed address's one-time launch token (default: a random one). */
  token?: string;
  /**
   * Tests only (COUNTERPAY_TEST_HOOKS=1): `POST /api/_test/events?hold=1` ends every event stream
   * and refuses new ones until `?hold=0`, as if main had gone away, so a test can watch the page
   * lose contact and re-read its state after. Behind the token like every API path.
   */
  testHooks?: boolean;
}

/** @internal for tests */
export interface BrowserShell {
  /** The address to open, with its one-time launch token in the fragment. */
  url: string;
  origin: string;
  port: number;
  /** A session for the process that started the shell (tests, tools): the token header, never in a URL. */
  token: string;
  close(): Promise<void>;
}

/** Every API answer: JSON, never cached, never sniffed as something else. */
function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  sendJson(res, status, body, { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', ...headers });
}

function refuse(res: ServerResponse, g: Exclude<GuardResult, { ok: true }>): void {
  send(res, g.status, {
    ok: false,
    error: { code: 'UNTRUSTED_SENDER', message: g.message, details: { reason: g.code } },
  });
}

/**
 * Bodies past MAX_BODY are read to their end and thrown away rather than cut off, so the caller
 * gets a 413 answer instead of a connection reset; past this they are not even drained.
 */
const MAX_DRAIN = 16 * MAX_BODY;

/** The app's files under `root` (any path without an extension is the app's one page). */
function serveStaticFile(root: string, req: IncomingMessage, res: ServerResponse, pathname: string) {
  if (req.method !== 'GET' && req.method !== 'HEAD')
    return send(res, 405, { ok: false, error: { code: 'BAD_ARGUMENTS', message: 'Method not allowed' } });
  const rel = pathname === '/' ? 'index.html' : decodeURIComponent(pathname).replace(/^\/+/, '');
  const file = normalize(join(root, rel));
  if (!file.startsWith(root + sep))
    return send(res, 404, { ok: false, error: { code: 'NOT_FOUND', message: 'Not found' } });
  const found = existsSync(file) && statSync(file).isFile();
  // A missing file (favicon, script, picture) is a 404, never the page in its place; any other
  // path is the app (it has one page, so there is nothing else a path could mean).
  if (!found && extname(rel) !== '')
    return send(res, 404, { ok: false, error: { code: 'NOT_FOUND', message: 'Not found' } });
  const target = found ? file : join(root, 'index.html');
  if (!existsSync(target))
    return send(res, 503, {
      ok: false,
      error: { code: 'NOT_READY', message: 'The app is not built yet: run npm run build.' },
    });
  res.writeHead(200, {
    'content-type': TYPES[extname(target)] ?? 'application/octet-stream',
    'content-security-policy': CSP,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cache-control': target.endsWith('index.html') ? 'no-store' : 'max-age=3600',
  });
  if (req.method === 'HEAD') return res.end();
  createReadStream(target).pipe(res);
}

/** A charge link opened as an address: handed to the counter, answered in plain words. */
async function openChargeLinkOf(opts: BrowserShellOptions, res: ServerResponse, query: string) {
  const r = await opts.dispatch(
    'integrations.openLink',
    { url: `counterpay://charge?${query}` },
    { trusted: true, sender: 'http:charge-link' },
  );
  const text = r.ok
    ? `Sent to the counter: booking ${(r.value as { reference: string }).reference}, order ${(r.value as { outOrderNo: string }).outOrderNo}. The outcome goes to your return address.`
    : `Not charged: ${r.error.message}${Object.entries(
        (r.error.details as { fields?: Record<string, string> } | undefined)?.fields ?? {},
      )
        .map(([k, m]) => `\n${k}: ${m}`)
        .join('')}`;
  res.writeHead(r.ok ? 200 : 400, {
    'content-type': 'text/plain; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  res.end(text);
}

export async function startBrowserShell(opts: BrowserShellOptions): Promise<BrowserShell> {
  const sessions = createShellSessions(opts.token);
  const root = resolve(opts.rendererDir);
  const streams = new Set<ServerResponse>();
  let port = 0;
  let eventsHeld = false;

  const serveStatic = (req: IncomingMessage, res: ServerResponse, pathname: string) =>
    serveStaticFile(root, req, res, pathname);
  const openChargeLink = (res: ServerResponse, query: string) => openChargeLinkOf(opts, res, query);

  const server = createServer(
    guardedHandler(
      async (req, res) => {
        const host = checkHost(req, port);
        if (!host.ok) return refuse(res, host);
        const url = new URL(req.url ?? '/', 'http://127.0.0.1');
        // A charge link as an address: /counterpay/charge?… is counterpay://charge?… (signed by a paired system, so no token).
        if (url.pathname === '/counterpay/charge' && req.method === 'GET')
          return openChargeLink(res, url.search.slice(1));
        if (!url.pathname.startsWith('/api/')) return serveStatic(req, res, url.pathname);
        const origin = checkOrigin(req, port);
        if (!origin.ok) return refuse(res, origin);
        // The page's first request: the launch token from the address, spent for a session cookie.
        if (url.pathname === '/api/session' && req.method === 'POST') {
          const r = sessions.exchange(req);
          if (!r.ok) return refuse(res, r);
          return send(res, 200, { ok: true, value: {} }, r.setCookie ? { 'set-cookie': r.setCookie } : {});
        }
        const tok = sessions.check(req);
        if (!tok.ok) return refuse(res, tok);
        // A signed-in caller asks for a new one-time address (to open CounterPay in another browser).
        if (url.pathname === '/api/session/link' && req.method === 'POST') {
          return send(res, 200, {
            ok: true,
            value: { url: `http://127.0.0.1:${port}/#token=${sessions.newLaunch()}` },
          });
        }

        if (opts.testHooks && url.pathname === '/api/_test/events' && req.method === 'POST') {
          eventsHeld = url.searchParams.get('hold') === '1';
          if (eventsHeld) for (const s of streams) s.destroy();
          opts.logger.warn('test hook: event streams', { held: eventsHeld });
          return send(res, 200, { ok: true, value: { held: eventsHeld } });
        }
        if (url.pathname === '/api/events' && req.method === 'GET') {
          if (eventsHeld)
            return send(res, 503, { ok: false, error: { code: 'NOT_READY', message: 'Events are held by a test.' } });
          res.writeHead(200, {
            'content-type': 'text/event-stream; charset=utf-8',
            'cache-control': 'no-store',
            connection: 'keep-alive',
            'x-content-type-options': 'nosniff',
          });
          res.write(': connected\n\n');
          streams.add(res);
          const beat = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
          req.on('close', () => {
            clearInterval(beat);
            streams.delete(res);
          });
          return;
        }
        const m = /^\/api\/call\/([A-Za-z0-9_.-]{1,64})$/.exec(url.pathname);
        if (!m || req.method !== 'POST')
          return send(res, 404, { ok: false, error: { code: 'UNKNOWN_CALL', message: 'No such API path.' } });
        if (!isJsonContentType(req.headers['content-type']))
          return send(res, 415, {
            ok: false,
            error: { code: 'BAD_ARGUMENTS', message: 'Send JSON (content-type: application/json).' },
          });
        const tooLarge = () =>
          send(
            res,
            413,
            { ok: false, error: { code: 'BAD_ARGUMENTS', message: 'The request is larger than 1 MB.' } },
            { connection: 'close' },
          );
        const read = await readBoundedBody(req, { maxBytes: MAX_BODY, drainBytes: MAX_DRAIN });
        if (!read.ok) {
          tooLarge();
          if (!read.drained) req.destroy();
          return;
        }
        const text = read.body.toString('utf8');
        let body: unknown;
        try {
          body = text.length ? JSON.parse(text) : {};
        } catch {
          return send(res, 400, {
            ok: false,
            error: { code: 'BAD_ARGUMENTS', message: 'The request is not valid JSON.' },
          });
        }
        const args = body && typeof body === 'object' && 'args' in body ? (body as { args: unknown }).args : undefined;
        const result = await opts.dispatch(m[1], args, { trusted: true, sender: 'http:loopback' });
        return send(res, 200, result);
      },
      (e) => {
        opts.logger.error('browser shell request failed', { error: e instanceof Error ? e.message : String(e) });
        return {
          status: 500,
          body: {
            ok: false,
            error: { code: 'INTERNAL', message: 'CounterPay made an internal error. It has been logged.' },
          },
          headers: { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' },
        };
      },
    ),
  );

  const unsubscribe = opts.events.subscribe((name, payload) => {
    const frame = `event: ${name}\ndata: ${JSON.stringify(payload)}\n\n`;
    for (const s of streams) s.write(frame);
  });

  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(opts.port ?? 0, '127.0.0.1', () => ok());
  });
  port = (server.address() as AddressInfo).port;
  sessions.usePort(port);
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}/#token=${sessions.firstLaunch}`,
    origin,
    port,
    token: sessions.owner,
    async close() {
      unsubscribe();
      for (const s of streams) s.end();
      streams.clear();
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}
