// The provider status and refusals through the composed core, over the embedded sandbox on real
// loopback HTTP: measured at start, "refusing" with the provider's code for wrong keys or a skewed
// clock, "unreachable" for a dead address (never "online" before an answer), and recovery by itself.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { StatusSnapshot } from '../../../shared/contract';
import type { OrderView } from '../../../shared/orders';
import { createCore, type Core } from '../../../core/app-core';
import { systemClock } from '../../../shared/clock';
import { memoryLogger } from '../../../shared/logger';
import { confStore } from '../../../browser-shell/boot';
import { fileVault } from '../../../core/settings/secret-vault';
import { ensureShift } from '../../helpers/ensure-shift';

const ctx = { trusted: true, sender: 'test' };
const cores: Core[] = [];
const SALE = {
  filmName: 'Lagos Nights',
  filmTitle: 'Lagos Nights (2D)',
  showDate: '2026-11-21',
  showTime: '19:30',
  seats: 'F7',
  tickets: 1,
  priceKobo: 150_000,
  bookingFeeKobo: 0,
  sn: 'DEMO-POS-0001',
};

afterEach(async () => {
  while (cores.length) await cores.pop()!.stop();
});

async function boot() {
  const dir = mkdtempSync(join(tmpdir(), 'counterpay-truth-'));
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
  return { core, logger, sandbox: core.demo()!.sandbox };
}

async function call<T>(core: Core, name: string, args: unknown): Promise<T> {
  const r = await core.dispatch(name, args, ctx);
  if (!r.ok) throw new Error(`${name}: ${r.error.code} ${r.error.message}`);
  return r.value as T;
}

/** Resolves with the first published status that passes `ok` (or the current one if it does). */
function statusWhere(core: Core, ok: (s: StatusSnapshot) => boolean): Promise<StatusSnapshot> {
  if (ok(core.status())) return Promise.resolve(core.status());
  return new Promise((resolve) => {
    const off = core.events.subscribe((name, payload) => {
      if (name === 'status.changed' && ok(payload as StatusSnapshot)) {
        off();
        resolve(payload as StatusSnapshot);
      }
    });
  });
}

function orderWhere(core: Core, id: number, ok: (v: OrderView) => boolean): Promise<OrderView> {
  const now = core.checkout.get(id);
  if (now && ok(now)) return Promise.resolve(now);
  return new Promise((resolve) => {
    const off = core.events.subscribe((name, payload) => {
      const v = payload as OrderView;
      if (name === 'order.changed' && v.id === id && ok(v)) {
        off();
        resolve(v);
      }
    });
  });
}

describe('provider status, measured', () => {
  it('starts checking, and is online only after an authenticated answer', async () => {
    const { core } = await boot();
    expect(['checking', 'online']).toContain(core.status().provider.state);
    await core.providerIdle();
    expect(core.status().provider).toMatchObject({ state: 'online' });
    expect(core.status().clock).toMatchObject({ correcting: false, detail: '' });
  });

  it('an address that refuses connections: checking, then unreachable, never online in between', async () => {
    const { core } = await boot();
    await core.providerIdle();
    const seen: string[] = [];
    core.events.subscribe((name, payload) => {
      if (name === 'status.changed') seen.push((payload as StatusSnapshot).provider.state);
    });
    core.settings.writeInternal('demo', { posBaseUrl: 'http://127.0.0.1:9' });
    const s = await statusWhere(core, (x) => x.provider.state === 'unreachable');
    expect(s.provider.detail).toMatch(/Could not connect to the payment provider/);
    expect(s.provider.action).toMatch(/provider address in Settings/);
    expect(seen[0]).toBe('checking');
    expect(seen.slice(0, seen.indexOf('unreachable'))).not.toContain('online');
  });

  it("a wrong clientAuthKey: refusing, with the provider's code and the administrator's line; fixed keys: online", async () => {
    const { core } = await boot();
    await core.providerIdle();
    const good = core.demo()!.merchant.clientAuthKey;
    core.settings.writeInternal('demo', {}, { posClientAuthKey: 'CAK-typo' });
    const s = await statusWhere(core, (x) => x.provider.state === 'refusing');
    expect(s.provider).toMatchObject({ code: '10001', providerMessage: 'invalid clientAuthKey' });
    expect(s.provider.detail).toMatch(/refused our credentials/);
    expect(s.provider.action).toMatch(/clientAuthKey/);
    core.settings.writeInternal('demo', {}, { posClientAuthKey: good });
    await statusWhere(core, (x) => x.provider.state === 'online');
  });
});

describe('clock skew', () => {
  it('a provider that refuses a skewed timestamp: the sale is held safely, then the app recovers by itself', async () => {
    const { core, logger, sandbox } = await boot();
    await core.providerIdle();
    sandbox.setClock({ offsetMs: 6 * 60_000 });
    const order = await call<OrderView>(core, 'sale.charge', SALE);
    // Refused (unsigned 10002), measured from the Date header, corrected, asked again, sent again.
    const waiting = await orderWhere(core, order.id, (v) => v.state === 'waiting');
    expect(waiting.orderNo).toBeTruthy();
    const history = await call<{ note: string }[]>(core, 'orders.history', { id: order.id });
    expect(history.map((h) => h.note).join('\n')).toMatch(/10002 timestamp expired/);
    expect(sandbox.listPosOrders().filter((o) => o.outOrderNo === order.outOrderNo)).toHaveLength(1);
    const clock = core.status().clock;
    expect(clock.correcting).toBe(true);
    expect(Math.abs((clock.offsetMs ?? 0) - 360_000)).toBeLessThan(5_000);
    expect(clock.detail).toMatch(/6 minutes behind the provider's.*stamps its requests with the provider's time/);
    expect(logger.lines.some((l) => /signing provider requests with the corrected time/.test(l.msg))).toBe(true);
  });

  it('without a Date header the offset cannot be measured: the cashier is told what the provider said and what to do; a fixed clock recovers the order', async () => {
    const { core, sandbox } = await boot();
    await core.providerIdle();
    sandbox.setClock({ offsetMs: 6 * 60_000, sendDate: false });
    const order = await call<OrderView>(core, 'sale.charge', SALE);
    const held = await orderWhere(core, order.id, (v) => v.state === 'unknown' && /10002/.test(v.reason ?? ''));
    expect(held.reason).toBe(
      'The provider says the request is too old (code 10002 "timestamp expired"). Check that this computer\'s date, time and time zone are right, then press Check now. The order may or may not have reached the terminal: do not start a new sale for these tickets.',
    );
    const s = await statusWhere(core, (x) => x.provider.state === 'refusing');
    expect(s.provider).toMatchObject({ code: '10002', providerMessage: 'timestamp expired' });
    expect(sandbox.listPosOrders()).toHaveLength(0);

    // The clock is put right: the next check (the cashier's Check now) finds nothing and sends the same order once.
    sandbox.setClock({ offsetMs: 0, sendDate: true });
    await call(core, 'orders.checkNow', { id: order.id });
    const waiting = await orderWhere(core, order.id, (v) => v.state === 'waiting');
    expect(waiting.reason).toBeUndefined();
    expect(sandbox.listPosOrders().filter((o) => o.outOrderNo === order.outOrderNo)).toHaveLength(1);
    await statusWhere(core, (x) => x.provider.state === 'online');
  });

  it("without a Date header, a verified answer's own timestamp measures the offset", async () => {
    const { core, sandbox } = await boot();
    await core.providerIdle();
    // 3 minutes: inside the provider's window, so its answers are signed successes.
    sandbox.setClock({ offsetMs: 3 * 60_000, sendDate: false });
    const order = await call<OrderView>(core, 'sale.charge', SALE);
    await orderWhere(core, order.id, (v) => v.state === 'waiting');
    const s = await statusWhere(core, (x) => x.clock.correcting);
    expect(Math.abs((s.clock.offsetMs ?? 0) - 180_000)).toBeLessThan(2_000);
    expect(s.clock.detail).toMatch(/3 minutes behind the provider's/);
  });
});
