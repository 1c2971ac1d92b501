// The one door to the provider (checkout-service.ts newSale and the queue sender): whoever asks,
// a shift is open, a terminal holds at most one unpaid order (a cashier's sale is refused; a box
// office's charge waits its turn, queued, and goes once the terminal is free, or expires), and a
// retry is a query first. "Check with the provider" on a closed order records its answer.
import { afterEach, describe, expect, it } from 'vitest';
import { checkoutHarness, type CheckoutHarness } from '../../helpers/orders-harness';
import { openJournalDb } from '../../../core/schema';
import { SALE_INPUT, tempDbFile } from '../../helpers/orders-db';
import { FakePos } from '../../helpers/orders-fake-pos';
import { fakeTime } from '../../helpers/orders-fake-time';

let hs: CheckoutHarness[] = [];
const cleanups: (() => void)[] = [];
afterEach(async () => {
  for (const h of hs) await h.close();
  hs = [];
  while (cleanups.length) cleanups.pop()!();
});
const harness = (...a: Parameters<typeof checkoutHarness>) => {
  const h = checkoutHarness(...a);
  hs.push(h);
  return h;
};

describe('one unpaid order per terminal, below every door', () => {
  it('a second sale for a busy terminal is refused, naming the order on it; no second create goes out', async () => {
    const h = harness();
    const first = await h.sell();
    await h.until(first.id, 'waiting');
    await expect(h.sell({ seats: 'G1,G2' })).rejects.toMatchObject({
      code: 'TERMINAL_BUSY',
      message: expect.stringContaining(first.outOrderNo),
    });
    expect(h.pos.creates()).toBe(1);
    // Another terminal is free; the cashier may name the waiting order and leave it there.
    await expect(h.sell({ sn: 'TERM-0002' })).resolves.toMatchObject({ state: 'creating' });
    const beside = await h.svc.sell({ ...SALE_INPUT, seats: 'H1,H2' }, { besideWaiting: first.outOrderNo });
    expect(beside.state).toBe('creating');
  });

  it('a box office charge for a busy terminal waits (queued, saying why) and goes once the terminal is free: one create each', async () => {
    const h = harness();
    const first = await h.sell();
    await h.until(first.id, 'waiting');
    const second = await h.svc.sell({ ...SALE_INPUT, seats: 'G1,G2' }, { whenBusy: 'queue' });
    expect(second).toMatchObject({
      state: 'queued',
      reason: expect.stringMatching(new RegExp(`Waiting for the terminal: ${first.outOrderNo} is still on it`)),
    });
    await h.time.advance(60_000);
    expect(h.state(second.id)).toBe('queued');
    expect(h.pos.creates(second.outOrderNo)).toBe(0);
    h.svc.onWebhook(h.pos.settle(first.outOrderNo, 'SUCCESS'));
    expect(h.state(first.id)).toBe('paid');
    await h.until(second.id, 'waiting');
    expect(h.pos.creates(first.outOrderNo)).toBe(1);
    expect(h.pos.creates(second.outOrderNo)).toBe(1);
    expect(h.path(second.id)).toBe('queued>creating>waiting');
  });

  it('two sales queued for one terminal while offline never both reach it: the second waits for the first to close', async () => {
    const h = harness();
    h.pos.defaultCreate = 'unreachable';
    const a = await h.sell();
    await h.time.advance(0);
    expect(h.state(a.id)).toBe('queued');
    const b = await h.svc.sell({ ...SALE_INPUT, seats: 'G1,G2' }, { whenBusy: 'queue' });
    expect(b.state).toBe('queued');
    h.pos.defaultCreate = 'ok';
    await h.until(a.id, 'waiting', 60_000);
    await h.time.advance(30_000);
    expect(h.state(b.id)).toBe('queued');
    expect(h.pos.creates(b.outOrderNo)).toBe(0);
    h.svc.onWebhook(h.pos.settle(a.outOrderNo, 'CANCEL'));
    await h.until(b.id, 'waiting');
    expect(h.pos.creates(b.outOrderNo)).toBe(1);
  });

  it('a queued charge whose terminal stays busy past its useful life expires unsent', async () => {
    const h = harness({ settings: { orderExpireSeconds: 60 } });
    const first = await h.sell();
    await h.until(first.id, 'waiting');
    const second = await h.svc.sell({ ...SALE_INPUT, seats: 'G1,G2' }, { whenBusy: 'queue' });
    await h.until(second.id, 'expired', 120_000);
    expect(h.pos.creates(second.outOrderNo)).toBe(0);
    expect(h.svc.get(second.id)!.reason).toMatch(/Too late to send|expire/i);
  });

  it("a box office's queued charges give way to the cashier: the cashier's sale is not refused for them, and goes first when the network is back", async () => {
    const charges = new Set<number>();
    const h = harness({ yieldRule: (id) => charges.has(id) });
    h.pos.defaultCreate = 'unreachable';
    const c1 = await h.svc.sell({ ...SALE_INPUT, seats: 'G1,G2' }, { whenBusy: 'queue' });
    charges.add(c1.id);
    await h.time.advance(0);
    const c2 = await h.svc.sell({ ...SALE_INPUT, seats: 'H1,H2' }, { whenBusy: 'queue' });
    charges.add(c2.id);
    expect([h.state(c1.id), h.state(c2.id)]).toEqual(['queued', 'queued']);
    // The cashier's own sale: not TERMINAL_BUSY for the waiting charges; tried at once (and queued, offline).
    const own = await h.sell({ seats: 'J1,J2' });
    expect(own.state).toBe('creating');
    await h.time.advance(0);
    expect(h.state(own.id)).toBe('queued');
    // Back online: the cashier's sale reaches the terminal first; the charges wait for it.
    h.pos.defaultCreate = 'ok';
    await h.until(own.id, 'waiting');
    expect([h.state(c1.id), h.state(c2.id)]).toEqual(['queued', 'queued']);
    expect([...h.pos.orders.keys()]).toEqual([own.outOrderNo]);
    // Then the charges, oldest first, one at a time.
    h.svc.onWebhook(h.pos.settle(own.outOrderNo, 'SUCCESS'));
    await h.until(c1.id, 'waiting');
    expect(h.state(c2.id)).toBe('queued');
  });
});

describe('a shift is open', () => {
  it('no shift: every sale and every retry is refused with NO_SHIFT; a queued sale waits for a shift', async () => {
    let open = true;
    const h = harness({ shiftOpen: () => open });
    h.pos.defaultCreate = 'unreachable';
    const q = await h.sell();
    await h.time.advance(0);
    expect(h.state(q.id)).toBe('queued');
    open = false;
    await expect(h.sell({ sn: 'TERM-0002' })).rejects.toMatchObject({ code: 'NO_SHIFT' });
    h.pos.defaultCreate = 'ok';
    await h.time.advance(60_000);
    // Provider back, but no shift: the queued sale is not sent.
    expect(h.state(q.id)).toBe('queued');
    const createsBefore = h.pos.creates(q.outOrderNo);
    open = true;
    await h.svc.recheckOpen();
    await h.until(q.id, 'waiting');
    expect(h.pos.creates(q.outOrderNo)).toBe(createsBefore + 1);
    h.svc.onWebhook(h.pos.settle(q.outOrderNo, 'FAIL'));
    open = false;
    await expect(h.svc.retrySale(q.id)).rejects.toMatchObject({ code: 'NO_SHIFT' });
  });
});

describe('a retry is a query first; Check with the provider', () => {
  it('Try again asks the provider first: not paid, a new sale goes out; lastCheck says what it said', async () => {
    const h = harness();
    const v = await h.sell();
    await h.until(v.id, 'waiting');
    h.svc.onWebhook(h.pos.settle(v.outOrderNo, 'CLOSE'));
    expect(h.state(v.id)).toBe('expired');
    const queriesBefore = h.pos.queries();
    const again = await h.svc.retrySale(v.id);
    expect(h.pos.queries()).toBe(queriesBefore + 1);
    expect(again).toMatchObject({ retryOf: v.id, state: 'creating' });
    expect(h.svc.get(v.id)!.lastCheck).toEqual({ at: h.time.now, providerStatus: 'CLOSE', paid: false });
  });

  it('paid after closing: the check records the late payment and Try again is refused; never a second charge', async () => {
    const h = harness();
    const v = await h.sell();
    await h.until(v.id, 'waiting');
    h.svc.onWebhook(h.pos.settle(v.outOrderNo, 'CLOSE'));
    h.pos.settle(v.outOrderNo, 'SUCCESS'); // the customer's payment went through after all; no webhook came
    const checked = await h.svc.checkNow(v.id);
    expect(checked.lastCheck).toMatchObject({ providerStatus: 'SUCCESS', paid: true });
    expect(checked.late).toMatchObject({
      kind: 'paid-after-closing',
      source: 'query',
      payNo: expect.stringMatching(/^PAY/),
    });
    expect(checked.state).toBe('expired');
    await expect(h.svc.retrySale(v.id)).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringMatching(/debited/),
    });
    expect(h.pos.creates()).toBe(1);
  });

  it('a retry whose provider query says SUCCESS is refused even without a check before (it queries itself)', async () => {
    const h = harness();
    const v = await h.sell();
    await h.until(v.id, 'waiting');
    h.svc.onWebhook(h.pos.settle(v.outOrderNo, 'FAIL'));
    h.pos.settle(v.outOrderNo, 'SUCCESS');
    await expect(h.svc.retrySale(v.id)).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(h.svc.get(v.id)!.late?.kind).toBe('paid-after-closing');
    expect(h.pos.creates()).toBe(1);
  });

  it('the provider cannot be asked: Try again is refused, nothing recorded', async () => {
    const h = harness();
    const v = await h.sell();
    await h.until(v.id, 'waiting');
    h.svc.onWebhook(h.pos.settle(v.outOrderNo, 'CANCEL'));
    h.pos.queryPlan.push('unreachable');
    await expect(h.svc.retrySale(v.id)).rejects.toMatchObject({
      code: 'PROVIDER_UNREACHABLE',
      message: expect.stringMatching(/Nothing was recorded/),
    });
    expect(h.svc.get(v.id)!.lastCheck).toBeUndefined();
    expect(h.pos.creates()).toBe(1);
  });

  it('a sale that never left the counter (cancelled while it waited for the terminal) is retried without a query', async () => {
    const h = harness();
    const first = await h.sell();
    await h.until(first.id, 'waiting');
    const v = await h.svc.sell({ ...SALE_INPUT, seats: 'G1,G2' }, { whenBusy: 'queue' });
    h.svc.cancelQueued(v.id, 'customer left');
    h.svc.onWebhook(h.pos.settle(first.outOrderNo, 'SUCCESS'));
    const q = h.pos.queries();
    await expect(h.svc.retrySale(v.id)).resolves.toMatchObject({ retryOf: v.id, state: 'creating' });
    expect(h.svc.get(v.id)!.attempts).toBe(0);
    expect(h.pos.queries()).toBe(q);
  });

  it('a retry rule (a box office asked for the sale) keeps it from Try again, before any query', async () => {
    const asked = new Set<number>();
    const h = harness({ retryRule: (id) => (asked.has(id) ? 'Asked for by Box office: it asks again.' : null) });
    const v = await h.sell();
    await h.until(v.id, 'waiting');
    h.svc.onWebhook(h.pos.settle(v.outOrderNo, 'CLOSE'));
    asked.add(v.id);
    const q = h.pos.queries();
    await expect(h.svc.retrySale(v.id)).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'Asked for by Box office: it asks again.',
    });
    expect(h.pos.queries()).toBe(q);
  });

  it('Try again for a busy terminal is refused by the door before any provider query', async () => {
    const h = harness();
    const v = await h.sell();
    await h.until(v.id, 'waiting');
    h.svc.onWebhook(h.pos.settle(v.outOrderNo, 'FAIL'));
    const other = await h.sell({ seats: 'K1,K2' });
    await h.until(other.id, 'waiting');
    const q = h.pos.queries();
    await expect(h.svc.retrySale(v.id)).rejects.toMatchObject({
      code: 'TERMINAL_BUSY',
      message: expect.stringContaining(other.outOrderNo),
    });
    expect(h.pos.queries()).toBe(q);
    expect(h.pos.creates()).toBe(2);
  });

  it('lastCheck survives a restart (it is read from the journal file)', async () => {
    const { file, cleanup } = tempDbFile();
    const db = openJournalDb(file);
    cleanups.push(() => {
      db.close();
      cleanup();
    });
    const pos = new FakePos();
    const time = fakeTime();
    const a = checkoutHarness({ db, pos, time });
    const v = await a.sell();
    await a.until(v.id, 'waiting');
    a.svc.onWebhook(pos.settle(v.outOrderNo, 'CLOSE'));
    await a.svc.checkNow(v.id);
    await a.svc.stop();
    const db2 = openJournalDb(file);
    cleanups.push(() => db2.close());
    const b = harness({ db: db2, pos, time });
    expect(b.svc.get(v.id)!.lastCheck).toEqual({ at: time.now, providerStatus: 'CLOSE', paid: false });
  });
});
