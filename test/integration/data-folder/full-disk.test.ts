// A full disk, made with a small tmpfs mount: the status bar warns before it bites, a sale that
// cannot be journaled is refused before anything is sent, a failed backup leaves no broken file
// and never stops selling, and the app carries on once space is freed. Skipped (with the reason
// printed) where mounting is not permitted.
import { closeSync, openSync, readdirSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BackupsView } from '../../../shared/backups';
import type { StatusSnapshot } from '../../../shared/contract';
import type { OrderView } from '../../../shared/orders';
import { confStore } from '../../../browser-shell/boot';
import { createCore, type Core } from '../../../core/app-core';
import { systemClock } from '../../../shared/clock';
import { DataDirError, prepareDataDir } from '../../../core/data-folder/prepare-dir';
import { memoryLogger } from '../../../shared/logger';
import { fileVault } from '../../../core/settings/secret-vault';
import { generateDemoConfig, startSandbox, type Sandbox } from '../../../sandbox';
import { mountTmpfs, type Mount } from '../../helpers/mounts';
import { ensureShift } from '../../helpers/ensure-shift';

const ctx = { trusted: true, sender: 'test' };
const mount = mountTmpfs({ sizeBytes: 12 << 20 });
const skip = 'skip' in mount ? mount.skip : null;
if (skip) console.log(`full-disk tests skipped: ${skip}`);

async function call<T>(core: Core, name: string, args: unknown = {}): Promise<T> {
  const r = await core.dispatch(name, args, ctx);
  if (!r.ok) throw Object.assign(new Error(`${name}: ${r.error.code} ${r.error.message}`), { error: r.error });
  return r.value as T;
}

/** Writes until the disk answers ENOSPC, in smaller and smaller pieces, so not one byte is left. */
function fill(file: string): void {
  const fd = openSync(file, 'w');
  try {
    for (const size of [1 << 20, 1 << 12, 1]) {
      const chunk = Buffer.alloc(size, 7);
      for (;;) {
        try {
          writeSync(fd, chunk);
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code === 'ENOSPC') break;
          throw e;
        }
      }
    }
  } finally {
    closeSync(fd);
  }
}

describe.skipIf(skip !== null)('a full disk', () => {
  const m = mount as Mount;
  const dataDir = join(m.dir ?? '/nonexistent', 'data');
  const filler = join(m.dir ?? '/nonexistent', 'filler.bin');
  let sandbox: Sandbox;
  let core: Core;
  let sn: string;
  let created = 0;
  const nextCreated = () => new Promise<void>((ok) => sandbox.events.once('pos-order-created', () => ok()));

  beforeAll(async () => {
    const { config, merchant } = generateDemoConfig();
    sandbox = await startSandbox(config, { port: 0 });
    sandbox.events.on('pos-order-created', () => (created += 1));
    sn = merchant.terminalSn;
    prepareDataDir(dataDir);
    core = await createCore({
      shell: 'browser',
      version: 't',
      dataDir,
      store: confStore(dataDir),
      vault: fileVault(join(dataDir, 'secrets.json')),
      logger: memoryLogger(),
      clock: systemClock,
      embeddedSandbox: false,
    });
    core.settings.writeInternal(
      'demo',
      { posBaseUrl: sandbox.posBaseUrl, headMerchantId: merchant.headMerchantId, merchantId: merchant.merchantId },
      {
        posClientAuthKey: merchant.clientAuthKey,
        merchantPrivateKey: merchant.merchantPrivateKeyPem,
        providerPublicKey: merchant.providerPublicKeyPem,
      },
    );
    await call(core, 'settings.setPin', { newPin: '2468' });
    await ensureShift((n, a) => call(core, n, a));
  });
  afterAll(async () => {
    await core?.stop();
    await sandbox?.close();
    m.unmount?.();
  });

  let firstNo = '';
  const sale = () => ({
    filmName: 'Lagos Nights',
    filmTitle: 'Lagos Nights (2D)',
    showDate: '2026-11-21',
    showTime: '19:30',
    seats: 'F7',
    tickets: 1,
    priceKobo: 150_000,
    bookingFeeKobo: 0,
    sn,
  });

  it('the status bar says the disk is low before it is full', async () => {
    const status = await call<StatusSnapshot>(core, 'status.get');
    expect(status.disk.state).toBe('low');
    expect(status.disk.detail).toMatch(/MB free/);
  });

  it('refuses a sale it cannot journal, before anything is sent; a failed backup leaves nothing behind', async () => {
    const sent = nextCreated();
    firstNo = (await call<OrderView>(core, 'sale.charge', sale())).outOrderNo;
    await sent;
    expect(created).toBe(1);
    fill(filler);

    // The first sale still waits on the terminal: the cashier decides, by its number, to charge beside it.
    const r = await core.dispatch('sale.charge', { ...sale(), besideWaiting: firstNo }, ctx);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toMatch(/disk of this computer is full, so nothing was sent/);
    expect(await call<OrderView[]>(core, 'orders.listToday')).toHaveLength(1); // never journaled, so never sent
    expect(created).toBe(1);

    const b = await core.dispatch('backups.now', {}, ctx);
    expect(b.ok).toBe(false);
    if (!b.ok) expect(b.error.message).toMatch(/disk is full/);
    expect(readdirSync(join(dataDir, 'backups')).filter((n) => n.endsWith('.partial') || n.endsWith('.db'))).toEqual(
      [],
    );
    expect((await call<BackupsView>(core, 'backups.view')).lastError?.message).toMatch(/disk is full/);
  });

  it('a new start on the full disk says so in one sentence', () => {
    fill(`${filler}.2`); // the failed backup's removed partial file had freed a little space
    const second = join(m.dir, 'other');
    let err: unknown;
    try {
      prepareDataDir(second);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DataDirError);
    expect((err as DataDirError).message).toMatch(/full; free some space|cannot create/);
  });

  it('once space is freed, selling and backups carry on', async () => {
    rmSync(filler);
    rmSync(`${filler}.2`);
    const sent = nextCreated();
    const v = await call<OrderView>(core, 'sale.charge', { ...sale(), besideWaiting: firstNo });
    expect(v.outOrderNo).toBeTruthy();
    await sent;
    expect(created).toBe(2);
    const view = await call<BackupsView>(core, 'backups.now');
    expect(view.backups).toHaveLength(1);
    expect(view.lastError).toBeNull();
  });
});
