// Who may reach the integration API and its pairing: the network only when allowed, pairing only
// behind the admin PIN, a key answered once and never again (not in the list, not in the vault's
// view, not in the settings store).
import { mkdtempSync, readFileSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../../core/app-core';
import { confStore } from '../../../browser-shell/boot';
import { fileVault } from '../../../core/settings/secret-vault';
import { systemClock } from '../../../shared/clock';
import { memoryLogger } from '../../../shared/logger';

const ctx = { trusted: true, sender: 'test' };
const cores: Core[] = [];
afterEach(async () => {
  while (cores.length) await cores.pop()!.stop();
});

async function boot() {
  const dir = mkdtempSync(join(tmpdir(), 'counterpay-int-access-'));
  const core = await createCore({
    shell: 'browser',
    version: 't',
    dataDir: dir,
    store: confStore(dir),
    vault: fileVault(join(dir, 'secrets.json')),
    logger: memoryLogger(),
    clock: systemClock,
    integrations: { port: 0 },
  });
  cores.push(core);
  return { core, dir };
}

const lanAddress = () =>
  Object.values(networkInterfaces())
    .flat()
    .find((a) => a && a.family === 'IPv4' && !a.internal)?.address ?? null;

describe('pairing and the network', () => {
  it('pairing, listing and unpairing need the admin PIN; the key is answered once and never listed', async () => {
    const { core, dir } = await boot();
    expect(await core.dispatch('integrations.pair', { name: 'Box office', callbackUrl: '' }, ctx)).toMatchObject({
      ok: false,
      error: { code: 'PIN_NOT_SET' },
    });
    await core.dispatch('settings.setPin', { newPin: '2468' }, ctx);
    await core.dispatch('settings.lock', {}, ctx);
    expect(await core.dispatch('integrations.list', {}, ctx)).toMatchObject({
      ok: false,
      error: { code: 'PIN_REQUIRED' },
    });
    await core.dispatch('settings.unlock', { pin: '2468' }, ctx);
    const bad = await core.dispatch('integrations.pair', { name: ' ', callbackUrl: 'ftp://x' }, ctx);
    expect(bad).toMatchObject({
      ok: false,
      error: {
        code: 'VALIDATION',
        details: { fields: { name: expect.any(String), callbackUrl: expect.stringMatching(/http/) } },
      },
    });
    const paired = await core.dispatch('integrations.pair', { name: 'Box office', callbackUrl: '' }, ctx);
    if (!paired.ok) throw new Error(paired.error.message);
    const key = (paired.value as { key: string }).key;
    const list = await core.dispatch('integrations.list', {}, ctx);
    expect(JSON.stringify(list)).not.toContain(key.slice(17));
    expect(readFileSync(join(dir, 'settings.json'), 'utf8')).not.toContain(key.slice(17));
  });

  it('with the network allowed the API answers on the network address (and warns); with it off, it does not listen there', async () => {
    const lan = lanAddress();
    if (!lan) {
      console.log('skipped: this machine has no non-loopback IPv4 address to call from');
      return;
    }
    const { core } = await boot();
    await core.dispatch('settings.setPin', { newPin: '2468' }, ctx);
    const paired = await core.dispatch('integrations.pair', { name: 'Box office', callbackUrl: '' }, ctx);
    const key = (paired as { value: { key: string } }).value.key;
    const on = await core.dispatch('integrations.setApi', { port: 17_480, lan: true }, ctx);
    expect(on).toMatchObject({ ok: true, value: { api: { lan: true, warning: expect.stringMatching(/plain HTTP/) } } });
    const port = new URL(core.integrations.apiUrl()!).port;
    const fromLan = await fetch(`http://${lan}:${port}/v1/ping`, { headers: { authorization: `Bearer ${key}` } });
    expect(fromLan.status).toBe(200);
    await core.dispatch('integrations.setApi', { port: Number(port), lan: false }, ctx);
    // (This test's core picks a free port at each start of the API.)
    const again = new URL(core.integrations.apiUrl()!).port;
    await expect(
      fetch(`http://${lan}:${again}/v1/ping`, { headers: { authorization: `Bearer ${key}` } }),
    ).rejects.toThrow();
    expect(
      (await fetch(`http://127.0.0.1:${again}/v1/ping`, { headers: { authorization: `Bearer ${key}` } })).status,
    ).toBe(200);
  });
});
