// The door after a restart (the last row of charge-doors.test.ts): a box office's charge queued
// behind a busy terminal survives a stop of the counter; started again on the same journal file it
// is not sent while the terminal still holds the unpaid order, nor while no shift is open, and goes
// once both hold — one provider order. And what the box office hears of such a charge: Try again is
// not offered (the box office asks again), and a payment after closing reaches it by callback and
// read. Real parts: the sandbox over loopback HTTP, the journal on a real SQLite file, the HTTP API.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCheckoutService, type CheckoutService } from '../../../core/orders';
import { boxOfficeRules, createIntegrations, type Integrations } from '../../../core/integrations';
import { createPosClient } from '../../../core/provider';
import { openJournalDb } from '../../../core/schema';
import { fileVault } from '../../../core/settings/secret-vault';
import { systemClock } from '../../../shared/clock';
import { silentLogger } from '../../../shared/logger';
import type { ChargeView } from '../../../shared/integration';
import { api, startCallbackReceiver, twoSeats, type CallbackReceiver } from '../../helpers/integration-kit';
import { FAST_TUNING, inState, startOrdersSandbox, type OrdersSandbox } from '../../helpers/orders-sandbox';
import { SALE_INPUT } from '../../helpers/orders-db';

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (stops.length) await stops.pop()!();
});

interface Counter {
  db: ReturnType<typeof openJournalDb>;
  checkout: CheckoutService;
  integrations: Integrations;
  base: string;
  stop: () => Promise<void>;
}

async function startCounter(
  sb: OrdersSandbox,
  dir: string,
  shift: { open: boolean },
  callbackUrl?: string,
): Promise<Counter & { key?: string }> {
  const db = openJournalDb(join(dir, 'journal.sqlite'));
  const checkout = createCheckoutService({
    db,
    ...boxOfficeRules(db),
    pos: createPosClient(sb.providerConfig(), { logger: silentLogger }),
    clock: systemClock,
    logger: silentLogger,
    tuning: FAST_TUNING,
    settings: () => ({
      counterName: 'Door Lane',
      headMerchantId: sb.merchant.headMerchantId,
      merchantId: sb.merchant.merchantId,
      orderExpireSeconds: 300,
    }),
    shiftOpen: () => shift.open,
  });
  const integrations = createIntegrations({
    db,
    checkout,
    vault: fileVault(join(dir, 'secrets.json')),
    terminalSn: () => sb.merchant.terminalSn,
    now: () => Date.now(),
    logger: silentLogger,
    callbackBackoff: { baseMs: 20, maxMs: 200 },
  });
  checkout.resume();
  integrations.resume();
  const key = callbackUrl !== undefined ? integrations.pair('Box office', callbackUrl || null).key : undefined;
  const base = (await integrations.serve({ port: 0, lan: false }))!;
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await integrations.stop();
    await checkout.stop();
    db.close();
  };
  stops.push(stop);
  return { db, checkout, integrations, base, stop, ...(key ? { key } : {}) };
}

const createdOf = (sb: OrdersSandbox, outOrderNo: string) =>
  sb.sandbox.listPosOrders().filter((o) => o.outOrderNo === outOrderNo).length;

describe('resume after a restart', () => {
  it('a queued box-office charge waits across a restart for the terminal and for a shift, then goes once', async () => {
    const sb = await startOrdersSandbox();
    stops.push(() => sb.sandbox.close());
    const dir = mkdtempSync(join(tmpdir(), 'counterpay-door-resume-'));
    const shift = { open: true };
    const a = await startCounter(sb, dir, shift, '');
    const key = a.key!;
    const onIt = await a.checkout.sell({ ...SALE_INPUT, sn: sb.merchant.terminalSn });
    await inState(a.checkout, onIt.id, 'waiting');
    const asked = await api<ChargeView>(a.base, key, 'POST', '/v1/charges', twoSeats('RESUME-1'));
    expect(asked.status).toBe(201);
    expect(asked.body).toMatchObject({ state: 'queued', reason: expect.stringContaining(onIt.outOrderNo) });
    await a.stop();

    // Started again: the order on the terminal is still unpaid, so the queued charge stays queued.
    const b = await startCounter(sb, dir, shift);
    const queued = b.checkout.getByOutOrderNo(asked.body.outOrderNo)!;
    await b.checkout.recheckOpen();
    expect(b.checkout.get(queued.id)!.state).toBe('queued');
    expect(createdOf(sb, queued.outOrderNo)).toBe(0);

    // The shift closes (the cashier closed anyway), then the customer pays the first order: still not sent.
    shift.open = false;
    sb.sandbox.present(sb.merchant.terminalSn, 'SUCCESS');
    await inState(b.checkout, onIt.id, 'paid');
    await b.checkout.recheckOpen();
    expect(b.checkout.get(queued.id)!.state).toBe('queued');
    expect(createdOf(sb, queued.outOrderNo)).toBe(0);

    // A shift opens: the charge goes to the terminal, once.
    shift.open = true;
    await b.checkout.recheckOpen();
    await inState(b.checkout, queued.id, 'waiting');
    sb.sandbox.present(sb.merchant.terminalSn, 'SUCCESS');
    await inState(b.checkout, queued.id, 'paid');
    expect(createdOf(sb, queued.outOrderNo)).toBe(1);
    expect((await api<ChargeView>(b.base, key, 'GET', '/v1/charges/RESUME-1')).body).toMatchObject({
      state: 'paid',
      final: true,
    });
  });
});

describe('what the box office hears', () => {
  let receiver: CallbackReceiver | null = null;
  afterEach(async () => {
    await receiver?.close();
    receiver = null;
  });

  it('Try again is not offered for its charge (it asks again); a payment after closing reaches it by callback and read', async () => {
    const sb = await startOrdersSandbox();
    stops.push(() => sb.sandbox.close());
    let key = '';
    receiver = await startCallbackReceiver(() => key);
    const dir = mkdtempSync(join(tmpdir(), 'counterpay-door-late-'));
    const c = await startCounter(sb, dir, { open: true }, receiver.url);
    key = c.key!;
    const asked = await api<ChargeView>(c.base, key, 'POST', '/v1/charges', twoSeats('LATE-1'));
    const id = c.checkout.getByOutOrderNo(asked.body.outOrderNo)!.id;
    const waiting = await inState(c.checkout, id, 'waiting');
    sb.sandbox.present(sb.merchant.terminalSn, 'CANCEL');
    await inState(c.checkout, id, 'cancelled');
    await receiver.until((r) => r.body.event.to === 'cancelled');

    const pos = sb.sandbox.listPosOrders().length;
    await expect(c.checkout.retrySale(id)).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringMatching(/Box office \(booking LATE-1\).*new booking reference/),
    });
    expect(sb.sandbox.listPosOrders()).toHaveLength(pos);

    // The provider took the money after all: the counter learns it on Check with the provider.
    const taken = sb.sandbox.reportLate(waiting.orderNo!, 'SUCCESS');
    const checked = await c.checkout.checkNow(id);
    expect(checked.late).toMatchObject({ kind: 'paid-after-closing' });
    const cb = await receiver.until((r) => r.body.charge.latePayment !== undefined);
    expect(cb.signatureOk).toBe(true);
    expect(cb.body.event).toMatchObject({
      from: 'cancelled',
      to: 'cancelled',
      note: expect.stringMatching(/Paid after closing/),
    });
    const read = (await api<ChargeView>(c.base, key, 'GET', '/v1/charges/LATE-1')).body;
    expect(read).toMatchObject({
      state: 'cancelled',
      final: true,
      latePayment: { amountKobo: 350_000, at: expect.any(Number) },
    });
    expect(read.latePayment!.payNo).toBe(checked.late!.payNo);
    expect(read.latePayment!.at).toBe(checked.late!.providerAt ?? checked.late!.foundAt);
    expect(taken).toBeTruthy();
  });

  it('a payment after closing recorded while the callbacks were not running (a crash between) is told at the next start', async () => {
    const sb = await startOrdersSandbox();
    stops.push(() => sb.sandbox.close());
    let key = '';
    receiver = await startCallbackReceiver(() => key);
    const dir = mkdtempSync(join(tmpdir(), 'counterpay-door-late-crash-'));
    const c = await startCounter(sb, dir, { open: true }, receiver.url);
    key = c.key!;
    const asked = await api<ChargeView>(c.base, key, 'POST', '/v1/charges', twoSeats('LATE-2'));
    const id = c.checkout.getByOutOrderNo(asked.body.outOrderNo)!.id;
    const waiting = await inState(c.checkout, id, 'waiting');
    sb.sandbox.present(sb.merchant.terminalSn, 'FAIL');
    await inState(c.checkout, id, 'failed');
    await receiver.until((r) => r.body.event.to === 'failed');
    // The integrations stop (as a crash would leave them) before the late payment is recorded.
    await c.integrations.stop();
    sb.sandbox.reportLate(waiting.orderNo!, 'SUCCESS');
    expect((await c.checkout.checkNow(id)).late?.kind).toBe('paid-after-closing');
    expect(receiver.all.some((r) => r.body.charge.latePayment)).toBe(false);

    // Started again on the same journal: the change not yet queued is queued and told.
    const again = createIntegrations({
      db: c.db,
      checkout: c.checkout,
      vault: fileVault(join(dir, 'secrets.json')),
      terminalSn: () => sb.merchant.terminalSn,
      now: () => Date.now(),
      logger: silentLogger,
      callbackBackoff: { baseMs: 20, maxMs: 200 },
    });
    stops.push(() => again.stop());
    again.resume();
    const cb = await receiver.until((r) => r.body.charge.latePayment !== undefined);
    expect(cb.body.charge).toMatchObject({
      reference: 'LATE-2',
      state: 'failed',
      latePayment: { amountKobo: 350_000 },
    });
  });
});
