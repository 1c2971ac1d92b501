// The checkout's main road: sell, the order reaches the terminal, the customer pays (or not),
// webhooks end the wait, and nothing changes a final order.
import { afterEach, describe, expect, it } from 'vitest';
import { checkoutHarness, type CheckoutHarness } from '../../helpers/orders-harness';
import { SALE_INPUT } from '../../helpers/orders-db';

let h: CheckoutHarness;
afterEach(async () => h?.close());

describe('sell', () => {
  it('journals the order before the create call, returns at once, then waits for payment', async () => {
    h = checkoutHarness();
    let stateAtCreate: string | undefined;
    const create = h.pos.createOrder.bind(h.pos);
    h.pos.createOrder = async (input) => {
      stateAtCreate = h.svc.getByOutOrderNo(input.outOrderNo)?.state;
      return create(input);
    };
    const v = await h.sell();
    expect(v).toMatchObject({
      state: 'creating',
      outOrderNo: 'COU3-250131-0001',
      amountKobo: 710_000,
      attempts: 1,
      expiresAt: h.time.now + 300_000,
    });
    expect(stateAtCreate).toBe('creating');
    const waiting = await h.until(v.id, 'waiting');
    expect(waiting.orderNo).toMatch(/^FAKE/);
    expect(waiting.nextActionAt).toBe(h.time.now + 1_000);
    const sent = h.pos.orders.get(v.outOrderNo)!.input;
    expect(sent).toMatchObject({ amountKobo: 710_000, orderExpireSeconds: 300, sn: 'P30-0012345' });
    expect(sent.productInfo).toMatchObject({
      filmTicketNum: '2',
      seatNum: 'F7,F8',
      filmTicketAmount: '7000.00',
      filmFeeAmount: '100.00',
    });
  });

  it('pay -> paid with the final details kept, and checks stop', async () => {
    h = checkoutHarness();
    const v = await h.sell();
    await h.until(v.id, 'waiting');
    await h.time.advance(5_000);
    h.pos.settle(v.outOrderNo, 'SUCCESS');
    const paid = await h.until(v.id, 'paid', 2_000);
    expect(paid).toMatchObject({
      payNo: expect.stringMatching(/^PAY/),
      providerFeeKobo: 150,
      feePattern: 'OUT_DEDUCT',
      senderName: 'ADA OBI',
      senderAccount: '******6789',
      providerStatus: 'SUCCESS',
      transactionTime: 1738314000000,
    });
    expect(paid.reason).toBeUndefined();
    expect(paid.nextActionAt).toBeUndefined();
    expect(h.path(v.id)).toBe('creating>waiting>paid');
    const queries = h.pos.queries();
    await h.time.advance(60_000);
    expect(h.pos.queries()).toBe(queries);
    // One event per change: the states, plus the first PENDING answer being recorded (not one per check).
    expect(h.events.map((e) => e.state)).toEqual(['creating', 'waiting', 'waiting', 'paid']);
    expect(h.events[2]!.providerStatus).toBe('PENDING');
  });

  it.each([
    ['FAIL', 'failed', /failed or was declined/],
    ['CANCEL', 'cancelled', /cancelled on the terminal/],
    ['CLOSE', 'expired', /closed the order/],
  ] as const)('provider %s -> %s with a reason', async (status, state, reason) => {
    h = checkoutHarness();
    const v = await h.sell();
    await h.until(v.id, 'waiting');
    h.pos.settle(v.outOrderNo, status);
    const done = await h.until(v.id, state, 2_000);
    expect(done.reason).toMatch(reason);
  });

  it('nobody pays: checked on the schedule, one final check at expiry + grace decides expired', async () => {
    h = checkoutHarness({ settings: { orderExpireSeconds: 60 } });
    const v = await h.sell();
    await h.until(v.id, 'waiting');
    const onTerminal = h.time.now;
    const done = await h.until(v.id, 'expired');
    expect(done.reason).toBe('Nobody paid before the order expired.');
    const times = h.pos.calls.filter((c) => c.op === 'query').map((c) => c.at - onTerminal);
    // 1 s apart for 45 s, then 2.5 s, never past expiry + grace (60 s + 30 s), the last exactly there.
    expect(times.slice(0, 3)).toEqual([1_000, 2_000, 3_000]);
    expect(times.filter((t) => t <= 45_000)).toHaveLength(45);
    expect(times[46]! - times[45]!).toBe(2_500);
    expect(times.at(-1)).toBe(v.expiresAt + 30_000 - onTerminal);
    expect(Math.max(...times)).toBeLessThanOrEqual(v.expiresAt + 30_000 - onTerminal);
    const n = h.pos.queries();
    await h.time.advance(120_000);
    expect(h.pos.queries()).toBe(n);
  });

  it('a webhook ends the wait at once; a duplicate changes nothing; a contradicting late one is recorded beside the paid order, never changing it', async () => {
    h = checkoutHarness();
    const v = await h.sell();
    await h.until(v.id, 'waiting');
    const queries = h.pos.queries();
    const details = h.pos.settle(v.outOrderNo, 'SUCCESS');
    const after = h.svc.onWebhook(details);
    expect(after?.state).toBe('paid');
    expect(h.pos.queries()).toBe(queries); // no check was needed
    const snapshot = JSON.stringify([h.svc.get(v.id), h.svc.history(v.id)]);
    const events = h.events.length;
    h.svc.onWebhook(details); // duplicate
    h.svc.onWebhook({ ...details, status: 'PENDING' });
    await h.time.advance(10_000);
    expect(JSON.stringify([h.svc.get(v.id), h.svc.history(v.id)])).toBe(snapshot);
    expect(h.events.length).toBe(events);
    h.svc.onWebhook({ ...details, status: 'FAIL', payNo: 'OTHER' }); // late and contradicting
    expect(h.svc.get(v.id)).toMatchObject({
      state: 'paid',
      payNo: details.payNo,
      late: { kind: 'reported-otherwise', providerStatus: 'FAIL' },
    });
    expect(h.svc.history(v.id).map((e) => e.to)).toEqual(['creating', 'waiting', 'paid', 'paid']);
    expect(h.logger.lines.some((l) => l.level === 'warn' && /contradicts a closed order/.test(l.msg))).toBe(true);
  });

  it('a webhook that beats the create answer wins; the late answer changes nothing', async () => {
    h = checkoutHarness();
    h.pos.createPlan.push('hold');
    const v = await h.sell();
    await h.time.advance(10);
    expect(h.pos.heldCount).toBe(1);
    h.pos.seed({ outOrderNo: v.outOrderNo, amountKobo: v.amountKobo, orderExpireSeconds: 300, sn: v.sn });
    h.svc.onWebhook(h.pos.settle(v.outOrderNo, 'SUCCESS'));
    expect(h.state(v.id)).toBe('paid');
    h.pos.release(); // the held create now meets "already exists"
    await h.time.advance(5_000);
    expect(h.state(v.id)).toBe('paid');
    expect(h.path(v.id)).toBe('creating>paid');
  });

  it('a webhook without payNo settles at once; one query then completes the details, nothing else', async () => {
    h = checkoutHarness();
    const v = await h.sell();
    await h.until(v.id, 'waiting');
    const full = h.pos.settle(v.outOrderNo, 'SUCCESS');
    const { payNo: _p, completedTime: _c, senderAccount: _s, ...notification } = full;
    h.pos.defaultQuery = 'timeout'; // the first completion attempt fails; it is tried again
    expect(h.svc.onWebhook(notification)?.state).toBe('paid');
    expect(h.svc.get(v.id)!.payNo).toBeUndefined();
    await h.time.advance(0);
    h.pos.defaultQuery = 'ok';
    await h.time.until(() => h.svc.get(v.id)!.payNo !== undefined, 10_000);
    expect(h.svc.get(v.id)).toMatchObject({
      state: 'paid',
      payNo: full.payNo,
      completedTime: full.completedTime,
      senderAccount: '******6789',
    });
    expect(h.path(v.id)).toBe('creating>waiting>paid');
    const queries = h.pos.queries();
    await h.time.advance(30_000);
    expect(h.pos.queries()).toBe(queries);
  });

  it('a paid order whose details never came is completed after a restart', async () => {
    h = checkoutHarness();
    const v = await h.sell();
    await h.until(v.id, 'waiting');
    const full = h.pos.settle(v.outOrderNo, 'SUCCESS');
    const { payNo: _p, completedTime: _c, senderAccount: _s, ...notification } = full;
    h.pos.defaultQuery = 'timeout'; // every completion query fails until the app stops
    h.svc.onWebhook(notification);
    await h.time.advance(120_000);
    expect(h.svc.get(v.id)).toMatchObject({ state: 'paid' });
    expect(h.svc.get(v.id)!.payNo).toBeUndefined();
    await h.svc.stop();

    // Started again on the same journal: the provider answers now, and the receipt's details arrive.
    h.pos.defaultQuery = 'ok';
    const again = checkoutHarness({ db: h.db, pos: h.pos, time: h.time });
    again.svc.resume();
    await again.time.until(() => again.svc.get(v.id)!.payNo !== undefined, 10_000);
    expect(again.svc.get(v.id)).toMatchObject({ state: 'paid', payNo: full.payNo, completedTime: full.completedTime });
    await again.close();
  });

  it('ignores a webhook for an order it does not have', () => {
    h = checkoutHarness();
    expect(
      h.svc.onWebhook({ outOrderNo: 'OTHER-250131-0001', orderNo: 'X', status: 'SUCCESS', amountKobo: 1 }),
    ).toBeNull();
  });

  it('a webhook whose amount is not the sale amount is not accepted as paid', async () => {
    h = checkoutHarness();
    const v = await h.sell();
    await h.until(v.id, 'waiting');
    const d = h.pos.settle(v.outOrderNo, 'SUCCESS');
    const after = h.svc.onWebhook({ ...d, amountKobo: 100 });
    expect(after?.state).toBe('unknown');
    expect(after?.reason).toMatch(/1.00 Naira, not 7100.00.*Do not hand over/);
  });
});

describe('cashier actions', () => {
  it('refuses a bad sale with per-field messages and records nothing', async () => {
    h = checkoutHarness();
    await expect(h.svc.sell({ ...SALE_INPUT, tickets: 0, showTime: '7pm' })).rejects.toMatchObject({
      code: 'VALIDATION',
      details: { fields: { tickets: expect.stringMatching(/1 to 50/), showTime: expect.stringMatching(/HH:mm/) } },
    });
    expect(h.svc.listToday()).toEqual([]);
    expect(h.pos.calls).toEqual([]);
  });

  it('refuses to sell without merchant ids', async () => {
    h = checkoutHarness({ settings: { merchantId: '' } });
    await expect(h.sell()).rejects.toMatchObject({ code: 'PROVIDER_NOT_CONFIGURED' });
  });

  it("a refused create fails the sale with the provider's reason, never retried", async () => {
    h = checkoutHarness();
    h.pos.createPlan.push('refused');
    const v = await h.sell();
    const failed = await h.until(v.id, 'failed');
    expect(failed.reason).toMatch(/refused the request: invalid parameter: sn/);
    await h.time.advance(60_000);
    expect(h.pos.calls).toHaveLength(1);
  });

  it('retrySale makes a new sale with the same tickets and a new number, only from failed/expired/cancelled', async () => {
    h = checkoutHarness();
    const v = await h.sell();
    await h.until(v.id, 'waiting');
    await expect(h.svc.retrySale(v.id)).rejects.toMatchObject({ code: 'CONFLICT' });
    h.pos.settle(v.outOrderNo, 'FAIL');
    await h.until(v.id, 'failed');
    const again = await h.svc.retrySale(v.id);
    expect(again.outOrderNo).toBe('COU3-250131-0002');
    expect(again.retryOf).toBe(v.id);
    expect(again.sale).toEqual(v.sale);
    expect(again.amountKobo).toBe(v.amountKobo);
    expect(h.state(v.id)).toBe('failed');
    await h.until(again.id, 'waiting');
    await expect(h.svc.retrySale(12345)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('checkNow asks the provider at once, and lists show the day and the queue', async () => {
    h = checkoutHarness({ tuning: { poll: { fastMs: 10_000 } } });
    const v = await h.sell();
    await h.until(v.id, 'waiting');
    h.pos.settle(v.outOrderNo, 'SUCCESS');
    const checked = await h.svc.checkNow(v.id);
    expect(checked.state).toBe('paid');
    expect(h.svc.listToday().map((o) => o.id)).toEqual([v.id]);
    expect(h.svc.listQueued()).toEqual([]);
    expect(h.svc.history(v.id)[0]).toMatchObject({ from: null, to: 'creating' });
    await expect(h.svc.checkNow(999)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('stop() leaves no timers and waits for calls in flight', async () => {
    h = checkoutHarness();
    const v = await h.sell();
    await h.until(v.id, 'waiting');
    h.pos.queryPlan.push('hold');
    await h.time.advance(1_000);
    expect(h.pos.heldCount).toBe(1);
    let stopped = false;
    const p = h.svc.stop().then(() => {
      stopped = true;
    });
    await h.time.advance(0);
    expect(stopped).toBe(false);
    h.pos.release();
    await p;
    expect(h.time.pendingAt()).toEqual([]);
    await expect(h.sell()).rejects.toMatchObject({ code: 'NOT_READY' });
  });
});

describe('journal first', () => {
  it('if the sale cannot be recorded, nothing is sent and the cashier gets a clear error', async () => {
    h = checkoutHarness();
    h.db.exec("CREATE TRIGGER no_orders BEFORE INSERT ON orders BEGIN SELECT RAISE(ABORT, 'disk says no'); END;");
    await expect(h.sell()).rejects.toMatchObject({
      code: 'INTERNAL',
      message: expect.stringMatching(/could not be recorded.*nothing was sent/),
    });
    await h.time.advance(5_000);
    expect(h.pos.calls).toEqual([]);
    h.db.exec('DROP TRIGGER no_orders');
    const v = await h.sell();
    expect(v.outOrderNo).toBe('COU3-250131-0001'); // the failed attempt used up no number
  });
});
