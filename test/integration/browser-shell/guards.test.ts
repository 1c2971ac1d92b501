// The browser shell over real loopback HTTP: token, Host and Origin guards on every request;
// the contract carried over HTTP and server-sent events.
import { request } from 'node:http';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createDispatcher, type CallsSpec } from '../../../shared/contract-kit';
import { createEventBus } from '../../../core/events';
import { silentLogger } from '../../../shared/logger';
import { startBrowserShell, type BrowserShell } from '../../../browser-shell/server';

const calls = {
  'status.get': { args: z.object({}).strict(), result: z.object({ fine: z.boolean() }) },
} satisfies CallsSpec;
const handler = vi.fn(() => ({ fine: true }));
const hub = createEventBus();
let shell: BrowserShell;

interface Reply {
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}
function http(
  path: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Reply> {
  return new Promise((ok, fail) => {
    const req = request(
      { host: '127.0.0.1', port: shell.port, path, method: opts.method ?? 'GET', headers: opts.headers },
      (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => ok({ status: res.statusCode ?? 0, body, headers: res.headers }));
      },
    );
    req.on('error', fail);
    req.end(opts.body);
  });
}
const call = (headers: Record<string, string>) =>
  http('/api/call/status.get', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: '{"args":{}}',
  });

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'counterpay-shell-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>t</title>');
  shell = await startBrowserShell({
    dispatch: createDispatcher(calls, { 'status.get': handler }),
    events: hub,
    rendererDir: dir,
    logger: silentLogger,
  });
});
afterAll(() => shell.close());

describe('guards', () => {
  it('binds to loopback and prints the token only in the fragment', () => {
    expect(shell.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#token=[A-Za-z0-9_-]{20,}$/);
  });

  it('the right token, host and origin get through', async () => {
    const r = await call({ 'x-counterpay-token': shell.token, origin: shell.origin });
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body)).toEqual({ ok: true, value: { fine: true } });
  });

  it.each([
    ['a missing token', {}, 401, 'TOKEN_MISSING'],
    ['a wrong token', { 'x-counterpay-token': 'x'.repeat(32) }, 401, 'TOKEN_WRONG'],
    [
      'a foreign Host (DNS rebinding)',
      { host: 'attacker.example:80', 'x-counterpay-token': 'TOKEN' },
      421,
      'FOREIGN_HOST',
    ],
    ['a foreign Origin', { origin: 'http://attacker.example', 'x-counterpay-token': 'TOKEN' }, 403, 'FOREIGN_ORIGIN'],
    [
      'a look-alike Origin',
      { origin: 'http://127.0.0.1.attacker.example', 'x-counterpay-token': 'TOKEN' },
      403,
      'FOREIGN_ORIGIN',
    ],
  ])('refuses %s, handler never called', async (_label, headers, status, reason) => {
    handler.mockClear();
    const h = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v === 'TOKEN' ? shell.token : v]));
    const r = await call(h);
    expect(r.status).toBe(status);
    expect(JSON.parse(r.body)).toMatchObject({ ok: false, error: { code: 'UNTRUSTED_SENDER', details: { reason } } });
    expect(handler).not.toHaveBeenCalled();
  });

  it('a foreign Host cannot even load the page', async () => {
    const r = await http('/', { headers: { host: 'attacker.example' } });
    expect(r.status).toBe(421);
  });

  it('the page is served with a strict CSP', async () => {
    const r = await http('/');
    expect(r.status).toBe(200);
    expect(String(r.headers['content-security-policy'])).toContain("script-src 'self'");
    // Images only from the app itself (and data: URLs for the receipt QR code), never any https: site.
    expect(String(r.headers['content-security-policy'])).toContain("img-src 'self' data:;");
  });

  it('refuses path traversal, non-JSON, bad JSON and oversized bodies', async () => {
    expect((await http('/../../etc/passwd')).body).not.toContain('root:');
    const auth = { 'x-counterpay-token': shell.token };
    expect(
      (
        await http('/api/call/status.get', {
          method: 'POST',
          headers: { ...auth, 'content-type': 'text/plain' },
          body: '{}',
        })
      ).status,
    ).toBe(415);
    expect(
      (
        await http('/api/call/status.get', {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: '{nope',
        })
      ).status,
    ).toBe(400);
    expect(JSON.parse((await call(auth)).body)).toMatchObject({ ok: true });
  });

  it('a look-alike JSON content type is refused', async () => {
    handler.mockClear();
    const auth = { 'x-counterpay-token': shell.token };
    for (const type of ['application/jsonfoo', 'application/json-patch+json', 'text/application/json']) {
      expect(
        (
          await http('/api/call/status.get', {
            method: 'POST',
            headers: { ...auth, 'content-type': type },
            body: '{"args":{}}',
          })
        ).status,
      ).toBe(415);
    }
    expect(
      (
        await http('/api/call/status.get', {
          method: 'POST',
          headers: { ...auth, 'content-type': 'Application/JSON; charset=utf-8' },
          body: '{"args":{}}',
        })
      ).status,
    ).toBe(200);
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['declared in Content-Length', {}],
    ['sent chunked', { 'transfer-encoding': 'chunked' }],
  ])('a body over 1 MB %s gets a 413 answer, not a reset', async (_how, extra) => {
    handler.mockClear();
    const headers = { 'x-counterpay-token': shell.token, 'content-type': 'application/json', ...extra };
    const big = await http('/api/call/status.get', {
      method: 'POST',
      headers,
      body: `{"args":"${'x'.repeat(1_100_000)}"}`,
    });
    expect(big.status).toBe(413);
    expect(JSON.parse(big.body)).toMatchObject({
      ok: false,
      error: { code: 'BAD_ARGUMENTS', message: expect.stringMatching(/larger than 1 MB/) },
    });
    expect(handler).not.toHaveBeenCalled();
  });

  it('carries events as server-sent events, behind the token', async () => {
    expect((await http('/api/events')).status).toBe(401);
    const received = new Promise<string>((ok, fail) => {
      const req = request(
        { host: '127.0.0.1', port: shell.port, path: '/api/events', headers: { 'x-counterpay-token': shell.token } },
        (res) => {
          let buf = '';
          res.on('data', (c) => {
            buf += c;
            if (buf.includes(': connected')) {
              hub.emit('status.changed', {
                profile: 'demo',
                counterName: 'C1',
                provider: { state: 'online', detail: '' },
                clock: { offsetMs: null, correcting: false, detail: '' },
                terminal: { state: 'manual', sn: 'PB01234567', detail: '' },
                queue: { length: 0, online: true },
                disk: { state: 'ok', freeBytes: null, detail: '' },
                hub: { state: 'not-set-up', toSync: 0, detail: '' },
              });
            }
            if (buf.includes('event: status.changed')) {
              req.destroy();
              ok(buf);
            }
          });
        },
      );
      req.on('error', fail);
      req.end();
    });
    expect(await received).toContain('"sn":"PB01234567"');
  });
});
