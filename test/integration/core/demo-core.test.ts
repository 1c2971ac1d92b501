// The composed core in the Demo profile, as either shell builds it: the embedded sandbox, the
// real clients over loopback HTTP, the journal on a real SQLite file.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { OrderView } from '../../../shared/orders';
import { createCore, type Core } from '../../../core/app-core';
import { systemClock } from '../../../shared/clock';
import { memoryLogger } from '../../../shared/logger';
import { confStore } from '../../../browser-shell/boot';
import { orderReaches } from '../../helpers/core-events';
import { fileVault } from '../../../core/settings/secret-vault';
import { ensureShift } from '../../helpers/ensure-shift';

const ctx = { trusted: true, sender: 'test' };
const cores: Core[] = [];

async function boot(dir: string) {
  const logger = memoryLogger();
  const core = await createCore({
    shell: 'browser',
    version: 't',
    dataDir: dir,
    store: confStore(dir),
    vault: fileVault(join(dir, 'secrets.json')),
    logger,
    clock: systemClock,
  });
  cores.push(core);
  await ensureShift((n, a) => call(core, n, a));
  return { core, logger };
}

async function call<T>(core: Core, name: string, args: unknown): Promise<T> {
  const r = await core.dispatch(name, args, ctx);
  if (!r.ok) throw new Error(`${name}: ${r.error.code} ${r.error.message}`);
  return r.value as T;
}

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

afterEach(async () => {
  while (cores.length) await cores.pop()!.stop();
});

describe('Demo profile, nothing typed', () => {
  it('offers the Demo terminal and sells a ticket to paid', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'counterpay-core-'));
    const { core } = await boot(dir);
    const defaults = await call<{ sn: string }>(core, 'sale.defaults', {});
    expect(defaults.sn).toBe('DEMO-POS-0001');
    const order = await call<OrderView>(core, 'sale.charge', SALE);
    expect(order.amountKobo).toBe(350_000);
    await orderReaches(core, order.id, 'waiting');
    const screen = await call<{ pending: { outOrderNo: string } | null }>(core, 'demo.terminalScreen', {});
    expect(screen.pending?.outOrderNo).toBe(order.outOrderNo);
    const paid = orderReaches(core, order.id, 'paid');
    await call(core, 'demo.present', { outcome: 'SUCCESS' });
    const final = await paid;
    expect(final.payNo).toBeTruthy();
    expect(final.senderAccount).toMatch(/\*{4}/);
    expect(
      (await call<{ films: { filmName: string; priceKobo: number }[] }>(core, 'sale.defaults', {})).films[0],
    ).toMatchObject({ filmName: 'Lagos Nights', priceKobo: 150_000 });
  });

  it('with the webhook receiver on, the provider’s notification settles the order', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'counterpay-core-'));
    const { core } = await boot(dir);
    await call(core, 'settings.setPin', { newPin: '2468' });
    const view = await call<{ settings: Record<string, unknown> }>(core, 'settings.getProfile', { profile: 'demo' });
    await call(core, 'settings.saveProfile', {
      profile: 'demo',
      settings: { ...view.settings, webhook: { enabled: true, host: '127.0.0.1', port: 0, callbackBaseUrl: '' } },
      secrets: {},
    });
    expect(core.webhookUrl()).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const order = await call<OrderView>(core, 'sale.charge', SALE);
    await orderReaches(core, order.id, 'waiting');
    const demo = core.demo()!;
    const delivered = new Promise<void>((ok) => demo.sandbox.events.once('webhook-delivered', () => ok()));
    const paid = orderReaches(core, order.id, 'paid');
    // The notification carries no payNo: one query afterwards completes the receipt's details.
    const completed = new Promise<OrderView>((ok) => {
      const off = core.events.subscribe((name, payload) => {
        const v = payload as OrderView;
        if (name === 'order.changed' && v.id === order.id && v.state === 'paid' && v.payNo) {
          off();
          ok(v);
        }
      });
    });
    demo.sandbox.present('DEMO-POS-0001', 'SUCCESS');
    await Promise.all([paid, delivered]);
    expect((await completed).payNo).toMatch(/^\d+$/);
    // The provider's notification reached our receiver and was accepted (00000 → delivered).
    const sent = demo.sandbox.listPosOrders().find((o) => o.outOrderNo === order.outOrderNo);
    expect(sent?.webhook).toMatchObject({ delivered: true, httpCode: '200' });
  });

  it('keeps its generated keys and reuses them on the next start', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'counterpay-core-'));
    const first = (await boot(dir)).core;
    const fp1 = first.settings.view('demo').secrets.merchantPrivateKey.fingerprint;
    await cores.pop()!.stop();
    const second = (await boot(dir)).core;
    expect(second.settings.view('demo').secrets.merchantPrivateKey.fingerprint).toBe(fp1);
    expect(fp1).toBeTruthy();
  });

  it('a sale with a wrong shape is refused per field and nothing is journaled', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'counterpay-core-'));
    const { core } = await boot(dir);
    const r = await core.dispatch('sale.charge', { ...SALE, seats: 'F7', tickets: 2, priceKobo: -5 }, ctx);
    expect(r).toMatchObject({ ok: false, error: { code: 'VALIDATION' } });
    expect(!r.ok && Object.keys(r.error.details?.fields as object)).toEqual(expect.arrayContaining(['priceKobo']));
    expect(await call<OrderView[]>(core, 'orders.listToday', {})).toEqual([]);
  });
});

describe('profile switch', () => {
  it('is refused while a sale is not settled, and allowed after', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'counterpay-core-'));
    const { core } = await boot(dir);
    await call(core, 'settings.setPin', { newPin: '2468' });
    const order = await call<OrderView>(core, 'sale.charge', SALE);
    await orderReaches(core, order.id, 'waiting');
    const refused = await core.dispatch('settings.setActiveProfile', { profile: 'sandbox' }, ctx);
    expect(refused).toMatchObject({ ok: false, error: { code: 'CONFLICT' } });
    expect(!refused.ok && refused.error.message).toContain(order.outOrderNo);
    expect(core.settings.activeProfile()).toBe('demo');
    const failed = orderReaches(core, order.id, 'failed');
    await call(core, 'demo.present', { outcome: 'FAIL' });
    await failed;
    await call(core, 'settings.setActiveProfile', { profile: 'sandbox' });
    expect(core.settings.activeProfile()).toBe('sandbox');
  });
});
