// The dashboard's web app as the Hub serves it: a strict Content-Security-Policy on every page, hashed
// assets cached for a year and index.html revalidated, every screen's address answered with the app
// (SPA fallback), a missing asset a real 404, nothing outside the folder, and a clear page when the
// app is not built.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DASHBOARD_CSP } from '../../../hub/http/dashboard-static';
import { startTestHub, type TestHub } from '../helpers/hub-harness';

describe('dashboard web app served by the Hub', () => {
  let dir: string;
  let hub: TestHub;
  let bare: TestHub;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cp-dash-static-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(
      join(dir, 'index.html'),
      '<!doctype html><title>app</title><script type="module" src="/dashboard/assets/app-1.js"></script>',
    );
    writeFileSync(join(dir, 'assets', 'app-1.js'), 'console.log(1)');
    writeFileSync(join(dir, '..', 'cp-dash-secret.txt'), 'secret');
    hub = await startTestHub({ dashboardDir: dir });
    bare = await startTestHub({ dashboardDir: join(dir, 'not-built') });
  });
  afterAll(async () => {
    await hub?.stop();
    await bare?.stop();
    rmSync(dir, { recursive: true, force: true });
    rmSync(join(dir, '..', 'cp-dash-secret.txt'), { force: true });
  });

  it('index and every screen address: the app, revalidated, under the strict policy', async () => {
    for (const path of ['/dashboard/', '/dashboard/today', '/dashboard/orders/123', '/dashboard/counters?branch=B1']) {
      const r = await fetch(hub.url + path);
      expect(r.status, path).toBe(200);
      expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(r.headers.get('cache-control')).toBe('no-cache');
      expect(r.headers.get('content-security-policy')).toBe(DASHBOARD_CSP);
      expect(r.headers.get('x-content-type-options')).toBe('nosniff');
      expect(await r.text()).toContain('<title>app</title>');
    }
    expect(DASHBOARD_CSP).toContain("script-src 'self'");
    expect(DASHBOARD_CSP).toContain("frame-ancestors 'none'");
    expect(DASHBOARD_CSP).not.toContain('unsafe');
    const redirect = await fetch(`${hub.url}/dashboard`, { redirect: 'manual' });
    expect(redirect.status).toBe(301);
    expect(redirect.headers.get('location')).toBe('/dashboard/');
  });

  it('hashed assets for a year; a missing one is a 404, not the app; nothing outside the folder', async () => {
    const js = await fetch(`${hub.url}/dashboard/assets/app-1.js`);
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await fetch(`${hub.url}/dashboard/assets/app-0.js`)).status).toBe(404);
    expect((await fetch(`${hub.url}/dashboard/favicon.ico`)).status).toBe(404);
    const escape = await fetch(`${hub.url}/dashboard/..%2Fcp-dash-secret.txt`);
    expect(await escape.text()).not.toContain('secret');
    expect((await fetch(`${hub.url}/dashboard/%2e%2e/%2e%2e/etc/passwd`)).status).toBe(404);
  });

  it('not built: every page says how to build it', async () => {
    const r = await fetch(`${bare.url}/dashboard/today`);
    expect(r.status).toBe(503);
    expect(r.headers.get('content-security-policy')).toBe(DASHBOARD_CSP);
    expect(await r.text()).toContain('npm run build:hub');
  });
});
