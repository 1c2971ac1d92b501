// The journal: orders and their events are durable, patches keep what they do not name, and
// a final order is never touched again.
import { afterEach, describe, expect, it } from 'vitest';
import { openJournalDb } from '../../../core/schema';
import { OrderJournal, toView } from '../../../core/orders/order-journal';
import { OrderViewSchema } from '../../../shared/orders';
import { sale, tempDbFile } from '../../helpers/orders-db';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

function journal(now = { t: Date.UTC(2025, 0, 31, 9, 0) }) {
  const { file, cleanup } = tempDbFile();
  const db = openJournalDb(file);
  cleanups.push(() => {
    db.close();
    cleanup();
  });
  return { j: new OrderJournal(db, () => now.t), db, file, now };
}

function newOrder(j: OrderJournal, at: number, state: 'queued' | 'creating' = 'creating') {
  return j.insert({
    sale: sale(),
    amountKobo: 710_000,
    counterCode: 'COU3',
    businessDay: '250131',
    createdAt: at,
    expireSeconds: 300,
    state,
    attempts: state === 'creating' ? 1 : 0,
    headMerchantId: 'H1',
    merchantId: 'M1',
    note: 'Sale recorded',
  });
}

describe('order journal', () => {
  it('records the sale with its first event before anything is sent', () => {
    const { j, now, file } = journal();
    const rec = newOrder(j, now.t);
    expect(rec).toMatchObject({
      state: 'creating',
      amountKobo: 710_000,
      sn: 'P30-0012345',
      createdAt: now.t,
      expiresAt: now.t + 300_000,
      attempts: 1,
    });
    expect(rec.sale).toEqual({
      filmName: 'Lagos Nights',
      filmTitle: 'Hall 2',
      showDate: '2025-01-31',
      showTime: '19:30',
      seats: 'F7,F8',
      tickets: 2,
      priceKobo: 350_000,
      bookingFeeKobo: 10_000,
      sn: 'P30-0012345',
    });
    expect(j.history(rec.id)).toEqual([{ at: now.t, from: null, to: 'creating', note: 'Sale recorded' }]);
    // A second connection (another process) sees it at once: committed, not buffered.
    const otherDb = openJournalDb(file);
    expect(new OrderJournal(otherDb, () => 0).get(rec.id)?.outOrderNo).toBe(rec.outOrderNo);
    otherDb.close();
  });

  it('keeps the full final details and the history of every step', () => {
    const { j, now } = journal();
    const rec = newOrder(j, now.t);
    now.t += 800;
    j.transition(rec.id, 'waiting', 'on terminal', { patch: { orderNo: 'O1', waitingSince: now.t } });
    now.t += 20_000;
    j.transition(rec.id, 'paid', 'SUCCESS', {
      patch: {
        payNo: 'P1',
        providerFeeKobo: 150,
        feePattern: 'OUT_DEDUCT',
        senderName: 'ADA OBI',
        senderAccount: '******6789',
        transactionTime: 11,
        completedTime: 12,
        providerStatus: 'SUCCESS',
        detailsJson: '{"a":1}',
        reason: null,
      },
    });
    const paid = j.get(rec.id)!;
    expect(paid).toMatchObject({
      state: 'paid',
      orderNo: 'O1',
      payNo: 'P1',
      providerFeeKobo: 150,
      feePattern: 'OUT_DEDUCT',
      senderName: 'ADA OBI',
      senderAccount: '******6789',
      transactionTime: 11,
      completedTime: 12,
      providerStatus: 'SUCCESS',
      detailsJson: '{"a":1}',
      waitingSince: now.t - 20_000,
    });
    expect(j.history(rec.id).map((e) => `${e.from}->${e.to}`)).toEqual([
      'null->creating',
      'creating->waiting',
      'waiting->paid',
    ]);
    const view = toView(paid, 123);
    expect(OrderViewSchema.parse(view)).toEqual(view);
    expect(view).not.toHaveProperty('nextActionAt'); // final: nothing planned
    expect(view).not.toHaveProperty('detailsJson');
    expect(view).not.toHaveProperty('headMerchantId');
  });

  it('a patch keeps what it does not name, and the first waitingSince', () => {
    const { j, now } = journal();
    const rec = newOrder(j, now.t);
    j.transition(rec.id, 'waiting', 'on terminal', { patch: { orderNo: 'O1', waitingSince: 5 } });
    expect(j.update(rec.id, { providerStatus: 'PENDING', waitingSince: 99 }).changed).toBe(true);
    expect(j.update(rec.id, { providerStatus: 'PENDING' }).changed).toBe(false); // nothing new: no write
    const r = j.get(rec.id)!;
    expect(r).toMatchObject({ orderNo: 'O1', providerStatus: 'PENDING', waitingSince: 5 });
    j.update(rec.id, { countAttempt: true });
    expect(j.get(rec.id)!.attempts).toBe(2);
  });

  it('final orders do not change: no state, no details, no event', () => {
    const { j, now } = journal();
    const rec = newOrder(j, now.t);
    j.transition(rec.id, 'failed', 'refused', { patch: { reason: 'No' } });
    const before = JSON.stringify([j.get(rec.id), j.history(rec.id)]);
    expect(j.transition(rec.id, 'paid', 'late SUCCESS', { patch: { payNo: 'P' } }).changed).toBe(false);
    expect(j.update(rec.id, { payNo: 'P', reason: 'other' }).changed).toBe(false);
    expect(JSON.stringify([j.get(rec.id), j.history(rec.id)])).toBe(before);
  });

  it('lists queued oldest first, open orders, one day, and finds by number', () => {
    const { j, now } = journal();
    const a = newOrder(j, now.t + 2, 'queued');
    const b = newOrder(j, now.t + 1, 'queued');
    const c = newOrder(j, now.t + 3, 'creating');
    j.transition(c.id, 'waiting', 'x', { patch: { orderNo: 'ORD-C' } });
    const d = newOrder(j, now.t + 4, 'creating');
    j.transition(d.id, 'failed', 'x');
    expect(j.listQueued().map((r) => r.id)).toEqual([b.id, a.id]);
    expect(j.countQueued()).toBe(2);
    expect(j.listOpen().map((r) => r.id)).toEqual([b.id, a.id, c.id]);
    expect(j.listDay('250131').map((r) => r.id)).toEqual([d.id, c.id, a.id, b.id]);
    expect(j.listDay('250201')).toEqual([]);
    expect(j.findByOrderNo('ORD-C')?.id).toBe(c.id);
    expect(j.findByOutOrderNo(a.outOrderNo)?.id).toBe(a.id);
    expect(j.get(9999)).toBeNull();
  });

  it("finds a new sale's open orders by terminal: its own, and each queued order's with its terminal's", () => {
    const { j, db, now } = journal();
    const on = (sn: string, at: number, state: 'queued' | 'creating' = 'creating') =>
      j.insert({
        sale: sale({ sn }),
        amountKobo: 710_000,
        counterCode: 'COU3',
        businessDay: '250131',
        createdAt: at,
        expireSeconds: 300,
        state,
        attempts: state === 'creating' ? 1 : 0,
        headMerchantId: 'H1',
        merchantId: 'M1',
        note: 'Sale recorded',
      });
    const mine = on('P30-0012345', now.t + 1);
    j.transition(mine.id, 'waiting', 'x', { patch: { orderNo: 'ORD-1' } });
    const otherBusy = on('P30-0099999', now.t + 2);
    const queuedElsewhere = on('P30-0077777', now.t + 3, 'queued');
    const onQueuedTerminal = on('p30-0077777', now.t + 4);
    const done = on('P30-0012345', now.t + 5);
    j.transition(done.id, 'failed', 'x');
    // The sale's terminal named in other letters is the same terminal (charge-guard's sameTerminal).
    expect(j.listOpenForSale('p30-0012345').map((r) => r.id)).toEqual([
      mine.id,
      queuedElsewhere.id,
      onQueuedTerminal.id,
    ]);
    expect(j.listOpenForSale('P30-0099999').map((r) => r.id)).toEqual([
      otherBusy.id,
      queuedElsewhere.id,
      onQueuedTerminal.id,
    ]);
    j.transition(queuedElsewhere.id, 'cancelled', 'x');
    expect(j.listOpenForSale('P30-0012345').map((r) => r.id)).toEqual([mine.id]);
    expect(otherBusy.state).toBe('creating');
    // Read by terminal through its index, not by reading every open order.
    const plan = db
      .prepare(`EXPLAIN QUERY PLAN SELECT * FROM orders WHERE upper(trim(sn)) = ? AND state = ?`)
      .all('X', 'waiting') as { detail: string }[];
    expect(plan.map((p) => p.detail).join(' ')).toContain('orders_terminal_state');
  });

  it('has the indexes later searches need', () => {
    const { db } = journal();
    const names = (
      db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name IN ('orders','order_events')")
        .all() as { name: string }[]
    ).map((r) => r.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'orders_order_no',
        'orders_pay_no',
        'orders_created_at',
        'orders_state',
        'order_events_order',
      ]),
    );
    const outIdx = db.prepare('SELECT COUNT(*) AS n FROM pragma_index_list(\'orders\') WHERE "unique" = 1').get() as {
      n: number;
    };
    expect(outIdx.n).toBeGreaterThanOrEqual(1); // out_order_no UNIQUE
  });
});
