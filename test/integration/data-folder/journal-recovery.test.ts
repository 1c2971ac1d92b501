// The journal on real SQLite files: a truncated file and one with a broken page are kept aside
// unchanged (never overwritten) and a new journal lets the counter sell; backups are taken while
// the app runs and restored from Settings (the journal in use is backed up first) or --restore.
import Database from 'better-sqlite3';
import { closeSync, openSync, readdirSync, readFileSync, statSync, truncateSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BackupsView, RecoveryNotice } from '../../../shared/backups';
import type { OrderView } from '../../../shared/orders';
import { NUMBER_GAP } from '../../../core/backup/backups-module';
import {
  boot,
  call,
  callError,
  payOnDemoTerminal,
  SALE,
  sellPaid,
  tempDataDir,
  type BootedShell,
} from './boot-helpers';
import { ensureShift } from '../../helpers/ensure-shift';

const running: BootedShell[] = [];
afterEach(async () => {
  while (running.length) await running.pop()!.close();
});
async function start(dir: string, restoreFrom?: string) {
  const app = await boot(dir, restoreFrom);
  running.push(app);
  await ensureShift((n, a) => call(app, n, a), 'Ada');
  return app;
}
async function stop(app: BootedShell) {
  running.splice(running.indexOf(app), 1);
  await app.close();
}

async function withSales(dir: string, n: number): Promise<string[]> {
  const app = await start(dir);
  const nos: string[] = [];
  // One terminal holds one unpaid order at a time: each sale is paid before the next.
  for (let i = 0; i < n; i++) nos.push((await sellPaid(app)).outOrderNo);
  await stop(app);
  return nos;
}

const seqOf = (outOrderNo: string) => Number(outOrderNo.split('-').pop());
const keptAside = (dir: string) =>
  readdirSync(dir).filter((n) => n.startsWith('counterpay.db.damaged-') && !n.endsWith('-wal') && !n.endsWith('-shm'));

describe('a damaged journal', () => {
  it('truncated: kept aside byte for byte, a new journal sells, the notice says what to do', async () => {
    const dir = tempDataDir();
    await withSales(dir, 2);
    const file = join(dir, 'counterpay.db');
    truncateSync(file, Math.floor(statSync(file).size / 3));
    const before = readFileSync(file);
    const app = await start(dir);
    const notices = await call<RecoveryNotice[]>(app, 'recovery.notices');
    expect(notices.map((n) => n.kind)).toEqual(['journal-damaged']);
    expect(notices[0]!.message).toMatch(/kept aside unchanged/);
    expect(notices[0]!.message).toMatch(/no backup to restore/);
    const kept = keptAside(dir);
    expect(kept).toHaveLength(1);
    expect(readFileSync(join(dir, kept[0]!)).equals(before)).toBe(true);
    const sale = await call<OrderView>(app, 'sale.charge', SALE);
    // Numbers used in the lost journal may be on receipts and at the provider: never reused.
    expect(seqOf(sale.outOrderNo)).toBeGreaterThan(NUMBER_GAP);
    const journal = new Database(file, { readonly: true });
    const topupSeq = journal.prepare('SELECT max(last_seq) AS n FROM topup_counters').get() as { n: number };
    journal.close();
    expect(topupSeq.n).toBe(NUMBER_GAP); // top-up references skip ahead the same way
  });

  it('with a broken page: the integrity check finds it and offers the latest backup', async () => {
    const dir = tempDataDir();
    const app = await start(dir);
    await call(app, 'settings.setPin', { newPin: '2468' });
    await call(app, 'sale.charge', SALE);
    const backups = await call<BackupsView>(app, 'backups.now');
    expect(backups.backups).toHaveLength(1);
    await stop(app);
    const file = join(dir, 'counterpay.db');
    const db = new Database(file, { readonly: true });
    const root = (db.prepare("SELECT rootpage FROM sqlite_master WHERE name = 'orders'").get() as { rootpage: number })
      .rootpage;
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    db.close();
    const fd = openSync(file, 'r+');
    writeSync(fd, Buffer.alloc(64, 0xee), 0, 64, (root - 1) * pageSize);
    closeSync(fd);
    const again = await start(dir);
    const notices = await call<RecoveryNotice[]>(again, 'recovery.notices');
    expect(notices.map((n) => n.kind)).toEqual(['journal-damaged']);
    expect(notices[0]!.message).toMatch(/restore the latest backup/);
    expect(keptAside(dir)).toHaveLength(1);
    expect(await call<OrderView[]>(again, 'orders.listToday')).toEqual([]);
  });
});

describe('backups and restore while the app runs', () => {
  it('restores a backup: the journal in use is backed up first, later sales are gone, numbers are not reused', async () => {
    const dir = tempDataDir();
    const app = await start(dir);
    expect((await callError(app, 'backups.now')).code).toBe('PIN_NOT_SET'); // admin only
    await call(app, 'settings.setPin', { newPin: '2468' });
    const first = await sellPaid(app);
    const taken = await call<BackupsView>(app, 'backups.now');
    const backup = taken.backups[0]!;
    expect(backup).toMatchObject({ place: 'main', reason: 'manual' });
    expect(backup.sizeBytes).toBeGreaterThan(0);
    expect(statSync(backup.path).mode & 0o777).toBe(0o600);
    const later = await call<OrderView>(app, 'sale.charge', SALE);
    // A sale still waiting for its payment blocks a restore: it would drop out of the journal.
    const blocked = await callError(app, 'backups.restore', { name: backup.name, place: 'main' });
    expect(blocked.code).toBe('CONFLICT');
    expect(blocked.message).toContain(later.outOrderNo);
    await payOnDemoTerminal(app, later.id);

    const restored = await call<{ restored: string; safetyBackup: string }>(app, 'backups.restore', {
      name: backup.name,
      place: 'main',
    });
    expect(restored.restored).toBe(backup.name);
    const today = await call<OrderView[]>(app, 'orders.listToday');
    expect(today.map((o) => o.outOrderNo)).toEqual([first.outOrderNo]);
    const notices = await call<RecoveryNotice[]>(app, 'recovery.notices');
    expect(notices.map((n) => n.kind)).toEqual(['restore-finished']);
    expect(notices[0]!.message).toMatch(/ 1 sale made after .* are not in it/);
    // The safety backup holds the sale made after the restored backup.
    const safety = new Database(join(dir, 'backups', restored.safetyBackup), { readonly: true });
    const nos = (safety.prepare('SELECT out_order_no FROM orders ORDER BY id').all() as { out_order_no: string }[]).map(
      (r) => r.out_order_no,
    );
    safety.close();
    expect(nos).toEqual([first.outOrderNo, later.outOrderNo]);
    const next = await call<OrderView>(app, 'sale.charge', SALE);
    expect(seqOf(next.outOrderNo)).toBeGreaterThan(seqOf(later.outOrderNo));
    expect(readdirSync(dir).some((n) => n.startsWith('counterpay.db.replaced-'))).toBe(true);
  });

  it('refuses a file that is not a whole journal, and changes nothing', async () => {
    const dir = tempDataDir();
    const app = await start(dir);
    await call(app, 'settings.setPin', { newPin: '2468' });
    await sellPaid(app);
    const backup = (await call<BackupsView>(app, 'backups.now')).backups[0]!;
    truncateSync(backup.path, 1000);
    const err = await callError(app, 'backups.restore', { name: backup.name, place: 'main' });
    expect(err.code).toBe('VALIDATION');
    expect(err.message).toMatch(/cannot be restored/);
    expect(await call<OrderView[]>(app, 'orders.listToday')).toHaveLength(1);
  });

  it('a second folder gets a copy of each backup', async () => {
    const dir = tempDataDir();
    const usb = tempDataDir('counterpay-usb-');
    const app = await start(dir);
    await call(app, 'settings.setPin', { newPin: '2468' });
    expect((await callError(app, 'backups.setSecondFolder', { folder: join(usb, 'missing') })).code).toBe('VALIDATION');
    await call(app, 'backups.setSecondFolder', { folder: usb });
    const view = await call<BackupsView>(app, 'backups.now');
    expect(view.backups.map((b) => b.place).sort()).toEqual(['main', 'second']);
    expect(readdirSync(usb).filter((n) => n.endsWith('.db'))).toHaveLength(1);
  });

  it('a shift close takes a backup', async () => {
    const dir = tempDataDir();
    const app = await start(dir);
    await call(app, 'settings.setPin', { newPin: '2468' });
    await ensureShift((n, a) => call(app, n, a), 'Ada');
    await call(app, 'shift.close', { acceptOpen: true });
    // Backups run one at a time: this one waits for the one the close started.
    const view = await call<BackupsView>(app, 'backups.now');
    expect(view.backups.map((b) => b.reason).sort()).toEqual(['manual', 'shift-close']);
  });
});

describe('--restore FILE at start', () => {
  it('puts the backup in place before the app opens the journal and keeps the one it replaced', async () => {
    const dir = tempDataDir();
    const app = await start(dir);
    await call(app, 'settings.setPin', { newPin: '2468' });
    const first = await sellPaid(app);
    const backup = (await call<BackupsView>(app, 'backups.now')).backups[0]!;
    await call(app, 'sale.charge', SALE);
    await stop(app);
    const again = await start(dir, backup.path);
    expect((await call<OrderView[]>(again, 'orders.listToday')).map((o) => o.outOrderNo)).toEqual([first.outOrderNo]);
    expect((await call<RecoveryNotice[]>(again, 'recovery.notices')).map((n) => n.kind)).toEqual(['restore-finished']);
    expect(readdirSync(dir).some((n) => n.startsWith('counterpay.db.replaced-'))).toBe(true);
  });
});
