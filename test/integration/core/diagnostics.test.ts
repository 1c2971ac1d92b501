// Export diagnostics on the composed Demo core: real log files, the embedded sandbox over loopback
// HTTP, the journal in a real SQLite file. The file must be useful (counts, provider errors, logs)
// and must not carry a key or the PIN.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DiagnosticsFileSchema, type DiagnosticsExport } from '../../../shared/contract-diagnostics';
import type { StatusSnapshot } from '../../../shared/contract';
import type { OrderView } from '../../../shared/orders';
import { confStore } from '../../../browser-shell/boot';
import { orderReaches } from '../../helpers/core-events';
import { createCore, type Core } from '../../../core/app-core';
import { systemClock } from '../../../shared/clock';
import { logFileNames, openFileLogger, type FileLogger } from '../../../core/logging/log-files';
import { fileVault } from '../../../core/settings/secret-vault';
import { ensureShift } from '../../helpers/ensure-shift';

const ctx = { trusted: true, sender: 'test' };
const PIN = '97531864';
const WRONG_CLIENT_AUTH_KEY = 'wrong-client-auth-key-77';
const SALE = {
  filmName: 'Lagos Nights',
  filmTitle: 'Lagos Nights (2D)',
  showDate: '2026-11-21',
  showTime: '19:30',
  seats: 'F7,F8',
  tickets: 2,
  priceKobo: 150_000,
  bookingFeeKobo: 50_000,
  sn: 'DEMO-POS-0001',
};

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function boot() {
  const dir = mkdtempSync(join(tmpdir(), 'counterpay-diag-'));
  const logger: FileLogger = await openFileLogger({ dir: join(dir, 'logs'), scope: 'test' });
  const core = await createCore({
    shell: 'browser',
    version: '9.8.7',
    dataDir: dir,
    store: confStore(dir),
    vault: fileVault(join(dir, 'secrets.json')),
    logger,
    logFiles: logger,
    clock: systemClock,
  });
  cleanups.push(
    () => rmSync(dir, { recursive: true, force: true }),
    () => logger.close(),
    () => core.stop(),
  );
  await ensureShift((n, a) => call(core, n, a));
  return { dir, core, logger };
}

async function call<T>(core: Core, name: string, args: unknown): Promise<T> {
  const r = await core.dispatch(name, args, ctx);
  if (!r.ok) throw new Error(`${name}: ${r.error.code} ${r.error.message}`);
  return r.value as T;
}

describe('Export diagnostics', () => {
  it('needs the admin PIN', async () => {
    const { core } = await boot();
    const r = await core.dispatch('diagnostics.export', {}, ctx);
    expect(r.ok).toBe(false);
  });

  it('holds versions, status, journal counts, provider errors and logs, and no key or PIN', async () => {
    const { dir, core, logger } = await boot();
    await call(core, 'settings.setPin', { newPin: PIN });

    // One paid sale for the journal counts.
    const sold = await call<OrderView>(core, 'sale.charge', SALE);
    await orderReaches(core, sold.id, 'waiting');
    const paid = orderReaches(core, sold.id, 'paid');
    await call(core, 'demo.present', { outcome: 'SUCCESS' });
    await paid;

    // A wrong clientAuthKey: the sandbox refuses the next sale, a provider error to report.
    const demoKeys = Object.values(core.settings.secretsOf('demo')).filter((v): v is string => typeof v === 'string');
    const view = await call<{ settings: Record<string, unknown> }>(core, 'settings.getProfile', { profile: 'demo' });
    await call(core, 'settings.saveProfile', {
      profile: 'demo',
      settings: view.settings,
      secrets: { posClientAuthKey: WRONG_CLIENT_AUTH_KEY },
    });
    await call<OrderView>(core, 'sale.charge', { ...SALE, seats: 'G1,G2' });
    await vi.waitFor(
      () =>
        expect(logger.recent(256 * 1024).some((r) => r.level !== 'info' && String(r.op).startsWith('pos.'))).toBe(true),
      { timeout: 20_000, interval: 50 },
    );

    const out = await call<DiagnosticsExport>(core, 'diagnostics.export', {});
    const file = DiagnosticsFileSchema.parse(JSON.parse(out.content));
    expect(out.fileName).toMatch(/^counterpay-diagnostics-\d{8}-\d{6}\.json$/);
    expect(file.versions).toMatchObject({
      app: '9.8.7',
      shell: 'browser',
      node: process.versions.node,
      electron: null,
    });
    // As status.get returns it (the same keys; values such as a measured clock offset may move between the two reads).
    const status = await call<StatusSnapshot>(core, 'status.get', {});
    expect(Object.keys(file.status).sort()).toEqual(Object.keys(status).sort());
    expect(file.status).toMatchObject({ profile: 'demo', counterName: status.counterName, terminal: status.terminal });
    expect(file.journal.orders.paid).toBe(1);
    expect(Object.values(file.journal.orders).reduce((a, b) => a + b, 0)).toBe(2);
    expect(file.journal.topups).toEqual({});
    expect(file.providerErrors.length).toBeGreaterThan(0);
    for (const r of file.providerErrors) {
      expect(r.level === 'warn' || r.level === 'error').toBe(true);
      expect(String(r.op)).toMatch(/^(pos|bills)\./);
    }
    expect(out.providerErrors).toBe(file.providerErrors.length);
    expect(file.logs.records.some((r) => r.msg === 'profile saved')).toBe(true);
    expect(file.settings.activeProfile).toBe('demo');
    expect(file.settings.pin).toEqual({ set: true, lockedUntil: null });
    expect(JSON.stringify(file.settings.profiles.demo)).toContain('"fingerprint"');

    // Nothing secret, in the export or in the log files behind it.
    const logs = logFileNames(join(dir, 'logs'))
      .map((n) => readFileSync(join(dir, 'logs', n), 'utf8'))
      .join('');
    expect(demoKeys.length).toBeGreaterThanOrEqual(4);
    for (const text of [out.content, logs]) {
      for (const secret of [...demoKeys, WRONG_CLIENT_AUTH_KEY, PIN]) expect(text).not.toContain(secret);
      expect(text).not.toContain('PRIVATE KEY-----');
    }

    // The copy in the data folder, readable by this user only.
    expect(out.savedTo).toBe(join(dir, 'diagnostics', out.fileName));
    expect(readFileSync(out.savedTo!, 'utf8')).toBe(out.content);
    expect(statSync(out.savedTo!).mode & 0o777).toBe(0o600);
  });
});
