// The shared node:http helper on a real loopback server: bodies within the limit arrive whole,
// oversized ones answer 413 (drained, or with reading stopped), the JSON content-type rule, and a
// throwing handler answered with the server's own 500 body.
import { once } from 'node:events';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { guardedHandler, isJsonContentType, readBoundedBody, sendJson, type BodyLimits } from '../../../protocol/http';

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise<void>((ok) => s.close(() => ok()));
  }
});

async function serve(limits: BodyLimits, failWith?: Error): Promise<string> {
  const server = createServer(
    guardedHandler(
      async (req, res) => {
        if (failWith) throw failWith;
        const read = await readBoundedBody(req, limits);
        if (!read.ok) return sendJson(res, 413, { tooLarge: true, drained: read.drained }, { connection: 'close' });
        sendJson(res, 200, { bytes: read.body.length, text: read.body.toString('utf8') });
      },
      (e) => ({ status: 500, body: { failed: (e as Error).message }, headers: { 'cache-control': 'no-store' } }),
    ),
  );
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

/** Posts `body` in chunks; resolves with the answer, or with the error when the connection is cut. */
function post(
  url: string,
  chunks: Buffer[],
  headers: Record<string, string | number> = {},
): Promise<{ status: number; body: unknown; headers: Record<string, unknown> } | { error: string }> {
  return new Promise((resolve) => {
    const req = request(
      url,
      { method: 'POST', agent: false, headers: { 'content-type': 'application/json', ...headers } },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: JSON.parse(Buffer.concat(parts).toString('utf8')),
            headers: res.headers,
          }),
        );
        res.on('error', (e) => resolve({ error: e.message }));
      },
    );
    req.on('error', (e) => resolve({ error: e.message }));
    for (const c of chunks) req.write(c);
    req.end();
  });
}

const kb = (n: number) => Buffer.alloc(n * 1024, 'a');

describe('readBoundedBody', () => {
  it('reads a body within the limit whole, across chunks', async () => {
    const url = await serve({ maxBytes: 4096 });
    const r = await post(url, [Buffer.from('{"a":'), Buffer.from('1}')]);
    expect(r).toMatchObject({ status: 200, body: { bytes: 7, text: '{"a":1}' } });
  });

  it('refuses a declared Content-Length past the limit before reading', async () => {
    const url = await serve({ maxBytes: 1024 });
    const r = await post(url, [kb(2)], { 'content-length': 2048 });
    expect(r).toMatchObject({ status: 413, body: { tooLarge: true, drained: false } });
  });

  it('with a drain allowance, reads an oversized body to its end so the 413 reaches the sender', async () => {
    const url = await serve({ maxBytes: 1024, drainBytes: 64 * 1024 });
    const r = await post(url, [kb(1), kb(1), kb(1)], { 'transfer-encoding': 'chunked' });
    expect(r).toMatchObject({ status: 413, body: { tooLarge: true, drained: true } });
  });

  it('without one, stops reading at the limit (buffering nothing more) and answers 413', async () => {
    const url = await serve({ maxBytes: 1024 });
    const r = await post(url, [kb(2)], { 'transfer-encoding': 'chunked' });
    expect(r).toMatchObject({ status: 413, body: { tooLarge: true, drained: false } });
  });
});

describe('guardedHandler', () => {
  it('answers a throwing handler with the server’s own 500 body and headers', async () => {
    const url = await serve({ maxBytes: 1024 }, new Error('database is locked'));
    const r = await post(url, [Buffer.from('{}')]);
    expect(r).toMatchObject({
      status: 500,
      body: { failed: 'database is locked' },
      headers: { 'cache-control': 'no-store', 'content-type': 'application/json; charset=utf-8' },
    });
  });
});

describe('isJsonContentType', () => {
  it('accepts application/json with parameters, in any case, and nothing else', () => {
    expect(
      ['application/json', 'Application/JSON; charset=utf-8', 'application/json ;charset=utf-8'].map((h) =>
        isJsonContentType(h),
      ),
    ).toEqual([true, true, true]);
    expect(['application/jsonfoo', 'text/json', 'text/plain', '', undefined].map((h) => isJsonContentType(h))).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});
