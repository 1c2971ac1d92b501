// The terminal belongs to a profile: switching from Demo to Sandbox or Production never keeps the
// Demo terminal, each profile gets back its own terminal, and the one terminal an older version
// kept for the whole counter is handed to the right profile once.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { StatusSnapshot } from '../../../shared/contract';
import { createCore, type Core } from '../../../core/app-core';
import { systemClock } from '../../../shared/clock';
import { memoryLogger } from '../../../shared/logger';
import { confStore } from '../../../browser-shell/boot';
import { fileVault } from '../../../core/settings/secret-vault';

const ctx = { trusted: true, sender: 'test' };
const cores: Core[] = [];

async function boot(dir: string) {
  const core = await createCore({
    shell: 'browser',
    version: 't',
    dataDir: dir,
    store: confStore(dir),
    vault: fileVault(join(dir, 'secrets.json')),
    logger: memoryLogger(),
    clock: systemClock,
  });
  cores.push(core);
  return core;
}

async function call<T>(core: Core, name: string, args: unknown): Promise<T> {
  const r = await core.dispatch(name, args, ctx);
  if (!r.ok) throw new Error(`${name}: ${r.error.code} ${r.error.message}`);
  return r.value as T;
}

afterEach(async () => {
  while (cores.length) await cores.pop()!.stop();
});

describe('the terminal follows the profile', () => {
  it('Demo → Sandbox drops the Demo terminal; a Sandbox terminal stays with Sandbox; back to Demo brings DEMO-POS-0001 back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'counterpay-terminal-profile-'));
    const core = await boot(dir);
    expect(core.status().terminal.sn).toBe('DEMO-POS-0001');
    await call(core, 'settings.setPin', { newPin: '2468' });

    const sandbox = await call<StatusSnapshot>(core, 'settings.setActiveProfile', { profile: 'sandbox' });
    expect(sandbox.profile).toBe('sandbox');
    expect(sandbox.terminal.sn).toBeNull();
    expect((await call<{ sn: string | null }>(core, 'sale.defaults', {})).sn).toBeNull();

    await call(core, 'terminal.configure', { source: 'manual', manualSn: 'P2-0012-3456' });
    expect(core.status().terminal.sn).toBe('P2-0012-3456');

    expect(
      (await call<StatusSnapshot>(core, 'settings.setActiveProfile', { profile: 'production' })).terminal.sn,
    ).toBeNull();
    expect((await call<StatusSnapshot>(core, 'settings.setActiveProfile', { profile: 'demo' })).terminal.sn).toBe(
      'DEMO-POS-0001',
    );
    expect((await call<StatusSnapshot>(core, 'settings.setActiveProfile', { profile: 'sandbox' })).terminal.sn).toBe(
      'P2-0012-3456',
    );

    // After a restart the active profile's own terminal is used.
    await cores.pop()!.stop();
    const again = await boot(dir);
    expect(again.status()).toMatchObject({ profile: 'sandbox', terminal: { sn: 'P2-0012-3456', state: 'manual' } });
  }, 30_000);

  it('an older single terminal setting: the Demo terminal goes to Demo only, a real one to the profile that was in use', async () => {
    const demoDir = mkdtempSync(join(tmpdir(), 'counterpay-terminal-legacy-'));
    const legacyDemo = confStore(demoDir);
    legacyDemo.set('activeProfile', 'sandbox');
    legacyDemo.set('terminal', { source: 'manual', manualSn: 'DEMO-POS-0001', portPath: null, baudRate: 115200 });
    const a = await boot(demoDir);
    expect(a.status()).toMatchObject({ profile: 'sandbox', terminal: { sn: null } });
    expect(confStore(demoDir).get('terminal')).toBeUndefined();

    const realDir = mkdtempSync(join(tmpdir(), 'counterpay-terminal-legacy-'));
    const legacyReal = confStore(realDir);
    legacyReal.set('activeProfile', 'sandbox');
    // Older versions stored a regular expression; it is not run any more.
    legacyReal.set('terminal', {
      source: 'manual',
      manualSn: 'PB0123456789',
      portPath: null,
      baudRate: 115200,
      pattern: '^TID:(?<sn>\\d{8})$',
    });
    const b = await boot(realDir);
    expect(b.status()).toMatchObject({ profile: 'sandbox', terminal: { sn: 'PB0123456789' } });
    expect(b.terminal.getSettings().pattern).toBe('auto');
    expect(confStore(realDir).get('terminal')).toBeUndefined();
  }, 30_000);
});
