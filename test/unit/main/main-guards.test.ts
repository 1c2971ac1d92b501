// Decisions of the Electron main process, as pure functions (Electron itself cannot run here): which
// page may call main, whether the OS keychain is safe enough for keys, and the window's CSP.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CSP } from '../../../shared/csp';
import { isRendererUrl, rendererUrlPrefix } from '../../../electron/main/sender-url';
import { safeStorageVerdict } from '../../../electron/main/safe-storage-policy';
import { CSP as SHELL_CSP } from '../../../browser-shell/server';

describe('IPC sender URL', () => {
  const prefix = rendererUrlPrefix('/opt/CounterPay/resources/app/out/renderer');

  it('ends the prefix with a slash', () => {
    expect(prefix).toBe('file:///opt/CounterPay/resources/app/out/renderer/');
    expect(rendererUrlPrefix('/opt/app/out/renderer/')).toBe('file:///opt/app/out/renderer/');
  });

  it('accepts our own pages only, not a sibling folder whose name starts the same', () => {
    expect(isRendererUrl('file:///opt/CounterPay/resources/app/out/renderer/index.html', prefix)).toBe(true);
    expect(isRendererUrl('file:///opt/CounterPay/resources/app/out/renderer/index.html#/sell', prefix)).toBe(true);
    expect(isRendererUrl('file:///opt/CounterPay/resources/app/out/renderer-evil/index.html', prefix)).toBe(false);
    expect(isRendererUrl('file:///opt/CounterPay/resources/app/out/renderer.html', prefix)).toBe(false);
    expect(isRendererUrl('https://attacker.example/opt/CounterPay/resources/app/out/renderer/index.html', prefix)).toBe(
      false,
    );
    expect(isRendererUrl('', prefix)).toBe(false);
  });

  it('refuses a prefix without the trailing slash, so the mistake cannot come back', () => {
    expect(() => isRendererUrl('file:///opt/app/out/renderer/index.html', 'file:///opt/app/out/renderer')).toThrow(
      /end with \//,
    );
  });
});

describe('keys at rest: the safeStorage backend', () => {
  it.each(['gnome_libsecret', 'kwallet', 'kwallet5', 'kwallet6'])('accepts a real keyring on Linux (%s)', (backend) => {
    expect(safeStorageVerdict({ platform: 'linux', available: true, backend })).toEqual({ ok: true });
  });

  it.each(['basic_text', 'unknown', null])('refuses %s on Linux and says what to install', (backend) => {
    const v = safeStorageVerdict({ platform: 'linux', available: true, backend });
    expect(v.ok).toBe(false);
    if (!v.ok) {
      expect(v.message).toMatch(/gnome-keyring|KWallet/);
      expect(v.message).toMatch(/libsecret/);
      expect(v.reason).toBe(backend === 'basic_text' ? 'basic_text' : 'unknown');
    }
  });

  it('refuses when safeStorage is not available at all, on every system', () => {
    for (const platform of ['linux', 'win32', 'darwin'] as const) {
      expect(safeStorageVerdict({ platform, available: false, backend: null })).toMatchObject({
        ok: false,
        reason: 'unavailable',
      });
    }
  });

  it('Windows (DPAPI) and macOS (Keychain) have no weak backend to refuse', () => {
    expect(safeStorageVerdict({ platform: 'win32', available: true, backend: null })).toEqual({ ok: true });
    expect(safeStorageVerdict({ platform: 'darwin', available: true, backend: null })).toEqual({ ok: true });
  });
});

describe('CSP', () => {
  it('one policy for the Electron window, the browser shell and the page itself; images only from the app', () => {
    expect(CSP).toContain("img-src 'self' data:;");
    expect(CSP).not.toMatch(/img-src[^;]*https:/);
    expect(SHELL_CSP).toBe(CSP);
    const html = readFileSync(resolve(__dirname, '../../../renderer/index.html'), 'utf8');
    expect(/http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1]).toBe(CSP);
  });
});
