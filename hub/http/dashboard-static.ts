// The dashboard's web app (built by `npm run build:hub` from hub/dashboard/ into out/hub-dashboard/),
// served under /dashboard/ with a strict Content-Security-Policy (self only, no inline script or
// style). Hashed files under assets/ are cached for a year; index.html is revalidated every time;
// any other path under /dashboard/ is a screen of the app (SPA fallback) and gets index.html. When
// the app is not built, every page says how to build it.
import { createReadStream, existsSync, statSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';
import type { FastifyReply } from 'fastify';
import type { HubApp } from './zod-provider';

export const DASHBOARD_PATH = '/dashboard/';

export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

const NOT_BUILT = `<!doctype html><html lang="en-NG"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Dashboard not built</title></head>
<body><h1>The dashboard is not built yet</h1><p>On the Hub's machine, in the CounterPay folder, run <code>npm run build:hub</code>, then reload this page.</p>
<p>(<code>npm run hub</code> builds it by itself at start unless it was started with <code>--no-dashboard-build</code>.)</p></body></html>`;

function secure(reply: FastifyReply): FastifyReply {
  return reply
    .header('content-security-policy', DASHBOARD_CSP)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('x-frame-options', 'DENY');
}

/** `dir` is the built app (index.html and assets/); it is read at every request, so a rebuild needs no restart. */
export function dashboardStaticRoutes(app: HubApp, dir: string): void {
  const root = normalize(dir + sep);
  const sendIndex = (reply: FastifyReply) => {
    const index = join(root, 'index.html');
    if (!existsSync(index))
      return secure(reply)
        .code(503)
        .header('cache-control', 'no-store')
        .type('text/html; charset=utf-8')
        .send(NOT_BUILT);
    return secure(reply).header('cache-control', 'no-cache').type(TYPES['.html']!).send(createReadStream(index));
  };

  app.get('/dashboard', async (_req, reply) => reply.redirect(DASHBOARD_PATH, 301));
  app.get('/dashboard/*', async (req, reply) => {
    // Fastify has decoded the path already: decoding again would throw on a literal % (/dashboard/%25).
    const rest = (req.params as { '*': string })['*'] ?? '';
    if (rest === '' || rest === 'index.html') return sendIndex(reply);
    const file = normalize(join(root, rest));
    const isFile = file.startsWith(root) && existsSync(file) && statSync(file).isFile();
    if (isFile) {
      const immutable = rest.startsWith('assets/');
      return secure(reply)
        .header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache')
        .type(TYPES[extname(file)] ?? 'application/octet-stream')
        .send(createReadStream(file));
    }
    // A missing hashed file is a real 404 (an old page asking for last build's script), not the app.
    if (rest.startsWith('assets/') || extname(rest) !== '')
      return secure(reply)
        .code(404)
        .header('cache-control', 'no-store')
        .type('text/plain; charset=utf-8')
        .send('Not found.');
    return sendIndex(reply);
  });
}
