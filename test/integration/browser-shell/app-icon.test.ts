// The app icon: every generated size is there with the right dimensions, the page links the
// favicon its CSP allows, and the browser shell serves it (a missing file is a 404, not the page).
import { copyFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createDispatcher, type CallsSpec } from '../../../shared/contract-kit';
import { createEventBus } from '../../../core/events';
import { silentLogger } from '../../../shared/logger';
import { CSP, startBrowserShell, type BrowserShell } from '../../../browser-shell/server';

const ROOT = resolve(__dirname, '../../..');
const RESOURCES = join(ROOT, 'resources');
const INDEX_HTML = readFileSync(join(ROOT, 'renderer/index.html'), 'utf8');

/** Width and height from a PNG's IHDR chunk. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  expect(bytes.subarray(12, 16).toString('latin1')).toBe('IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** The sizes an .ico holds, from its directory (a 0 byte means 256). */
function icoSizes(bytes: Buffer): number[] {
  expect(bytes.readUInt16LE(0)).toBe(0);
  expect(bytes.readUInt16LE(2)).toBe(1);
  const count = bytes.readUInt16LE(4);
  return Array.from({ length: count }, (_, i) => bytes[6 + i * 16] || 256);
}

describe('icon files', () => {
  it.each([16, 32, 48, 64, 128, 256, 512])('icons/%ix%i.png has that size', (size) => {
    expect(pngSize(readFileSync(join(RESOURCES, 'icons', `${size}x${size}.png`)))).toEqual({
      width: size,
      height: size,
    });
  });

  it('the window icon is the 512 px PNG', () => {
    const icon = readFileSync(join(RESOURCES, 'icon.png'));
    expect(pngSize(icon)).toEqual({ width: 512, height: 512 });
    expect(icon.equals(readFileSync(join(RESOURCES, 'icons/512x512.png')))).toBe(true);
  });

  it('the Windows .ico holds 16 to 256 px; the favicon 16, 32 and 48', () => {
    expect(icoSizes(readFileSync(join(RESOURCES, 'icon.ico')))).toEqual([16, 32, 48, 64, 128, 256]);
    expect(icoSizes(readFileSync(join(RESOURCES, 'web/favicon.ico')))).toEqual([16, 32, 48]);
  });

  it('the design is an SVG named for the app', () => {
    const svg = readFileSync(join(RESOURCES, 'icon.svg'), 'utf8');
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 512 512"/);
    expect(svg).toContain('<title>CounterPay</title>');
  });
});

describe('the page links the favicon, and its CSP allows it', () => {
  it('links /favicon.ico, which the renderer build copies from resources/web', () => {
    const href = /<link rel="icon" href="([^"]+)"/.exec(INDEX_HTML)?.[1];
    expect(href).toBe('/favicon.ico');
    expect(readFileSync(join(RESOURCES, 'web', href!.slice(1))).length).toBeGreaterThan(0);
  });

  it("the page's CSP is the browser shell's, and both allow images from the app itself", () => {
    const meta = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(INDEX_HTML)?.[1];
    expect(meta).toBe(CSP);
    expect(CSP).toMatch(/(^|; )img-src 'self'[ ;]/);
  });
});

describe('the browser shell serves the favicon', () => {
  let shell: BrowserShell;
  let dir: string;

  function get(path: string): Promise<{ status: number; type: string | undefined; body: Buffer }> {
    return new Promise((ok, fail) => {
      const req = request({ host: '127.0.0.1', port: shell.port, path }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          ok({ status: res.statusCode ?? 0, type: res.headers['content-type'], body: Buffer.concat(chunks) }),
        );
      });
      req.on('error', fail);
      req.end();
    });
  }

  beforeAll(async () => {
    // What the renderer build holds: the page and the public folder's favicon.
    dir = mkdtempSync(join(tmpdir(), 'counterpay-icon-'));
    copyFileSync(join(ROOT, 'renderer/index.html'), join(dir, 'index.html'));
    copyFileSync(join(RESOURCES, 'web/favicon.ico'), join(dir, 'favicon.ico'));
    const calls = { 'status.get': { args: z.object({}).strict(), result: z.object({}) } } satisfies CallsSpec;
    shell = await startBrowserShell({
      dispatch: createDispatcher(calls, { 'status.get': () => ({}) }),
      events: createEventBus(),
      rendererDir: dir,
      logger: silentLogger,
    });
  });
  afterAll(() => shell.close());

  it('as an icon, byte for byte', async () => {
    const r = await get('/favicon.ico');
    expect(r.status).toBe(200);
    expect(r.type).toBe('image/x-icon');
    expect(r.body.equals(readFileSync(join(RESOURCES, 'web/favicon.ico')))).toBe(true);
  });

  it('a file that is not there is a 404, not the page', async () => {
    const r = await get('/apple-touch-icon.png');
    expect(r.status).toBe(404);
    expect(JSON.parse(r.body.toString('utf8'))).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
  });

  it('any other path is still the app', async () => {
    for (const path of ['/', '/orders']) {
      const r = await get(path);
      expect(r.status).toBe(200);
      expect(r.type).toBe('text/html; charset=utf-8');
      expect(r.body.toString('utf8')).toContain('<link rel="icon"');
    }
  });
});
