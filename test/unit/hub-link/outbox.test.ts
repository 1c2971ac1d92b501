// The Hub outbox on the counter: written in the transaction of each journal event (or not at all),
// validated against the sync schema, numbered without gaps, read back exactly; and what each
// journal owner (orders, top-ups, shifts) writes into it.
import { afterEach, describe, expect, it } from 'vitest';
import { createOutboxSink, HubOutbox } from '../../../core/hub-link';
import type { Db } from '../../../core/db';
import { OrderJournal, OrderJournalReads } from '../../../core/orders';
import { ShiftStore } from '../../../core/records/shifts/shift-store';
import { shiftTotals } from '../../../core/records/shifts/shift-totals';
import { topupTotals } from '../../../core/records/shifts/topup-totals';
import { TopupJournalReads } from '../../../core/topups';
import { TopupJournal } from '../../../core/topups/topup-journal';
import { SyncEventSchema } from '../../../shared/hub-contract';
import { openTempDb, sale } from '../../helpers/orders-db';

let temp: ReturnType<typeof openTempDb> | null = null;
afterEach(() => {
  temp?.cleanup();
  temp = null;
});

function setup(now = { t: 1_000_000 }) {
  temp = openTempDb();
  const db = temp.db;
  const outbox = new HubOutbox(db);
  const shifts = new ShiftStore(db, createOutboxSink(outbox));
  const sink = createOutboxSink(outbox, { cashierAt: (at) => shifts.cashierAt(at) });
  return {
    db,
    outbox,
    sink,
    shifts,
    now,
    orders: new OrderJournal(db, () => now.t, sink),
    topups: new TopupJournal(db, () => now.t, sink),
  };
}

const newOrder = (at: number) => ({
  sale: sale(),
  amountKobo: 710_000,
  counterCode: 'C3',
  businessDay: '250131',
  createdAt: at,
  expireSeconds: 300,
  state: 'creating' as const,
  attempts: 1,
  headMerchantId: 'H1',
  merchantId: 'M1',
  profile: 'production' as const,
  note: 'Sale recorded',
});

const all = (outbox: HubOutbox) => outbox.readAfter(0, 1_000_000);
const count = (db: Db, table: string) => (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;

describe('the outbox', () => {
  it('appends inside a transaction only, numbers 1, 2, 3 with no gap after a rollback, and reads back exactly', () => {
    const { db, outbox } = setup();
    expect(() => outbox.append('topup.status', { reference: 'R1', status: 'success' }, 1)).toThrow(
      /outside a transaction/,
    );
    db.transaction(() => outbox.append('topup.status', { reference: 'R1', status: 'success' }, 10)).immediate();
    expect(() =>
      db
        .transaction(() => {
          outbox.append('topup.status', { reference: 'R2', status: 'fail' }, 11);
          throw new Error('the owner failed after its append');
        })
        .immediate(),
    ).toThrow(/owner failed/);
    db.transaction(() =>
      outbox.append('topup.status', { reference: 'R3', orderNo: 'O3', status: 'pending' }, 12),
    ).immediate();
    expect(all(outbox)).toEqual([
      { seq: 1, kind: 'topup.status', at: 10, payload: { reference: 'R1', status: 'success' } },
      { seq: 2, kind: 'topup.status', at: 12, payload: { reference: 'R3', orderNo: 'O3', status: 'pending' } },
    ]);
    expect(outbox.readAfter(1, 10).map((e) => e.seq)).toEqual([2]);
    expect(outbox.readAfter(0, 1).map((e) => e.seq)).toEqual([1]);
    expect([outbox.countAfter(0), outbox.countAfter(1), outbox.countAfter(2), outbox.headSeq()]).toEqual([2, 1, 0, 2]);
  });

  it("refuses a payload its schema refuses, rolling back the owner's own write with it", () => {
    const { db, outbox } = setup();
    db.exec('CREATE TABLE owner_rows (v TEXT)');
    const write = (payload: unknown) =>
      db
        .transaction(() => {
          db.prepare('INSERT INTO owner_rows (v) VALUES (?)').run('event');
          outbox.append('order.status', payload as never, 5);
        })
        .immediate();
    expect(() => write({ reference: 'R1' })).toThrow(/order.status event does not match its schema \(status:/);
    expect(() => write({ reference: 'R1', status: 'paid', extra: 1 })).toThrow(/does not match its schema/);
    expect(() =>
      db.transaction(() => outbox.append('order.status', { reference: 'R1', status: 'paid' }, -1)).immediate(),
    ).toThrow(/bad time/);
    expect(count(db, 'owner_rows')).toBe(0);
    expect(count(db, 'hub_outbox')).toBe(0);
    write({ reference: 'R1', status: 'paid' });
    expect([count(db, 'owner_rows'), count(db, 'hub_outbox')]).toEqual([1, 1]);
  });

  it("keeps the Hub's position per counter id: another enrollment starts from 0", () => {
    const { outbox } = setup();
    expect(outbox.lastSeq()).toBe(0);
    outbox.setLastSeq(7, 'ctr-a');
    expect([outbox.lastSeq(), outbox.lastSeq('ctr-a'), outbox.lastSeq('ctr-b')]).toEqual([7, 7, 0]);
    outbox.setLastSeq(0);
    expect(outbox.lastSeq('ctr-a')).toBe(0);
    expect(() => outbox.setLastSeq(-1)).toThrow(RangeError);
  });

  it('tells its listeners after each append, and a throwing listener never reaches the owner', () => {
    const { db, outbox } = setup();
    const sink = createOutboxSink(outbox);
    let heard = 0;
    sink.onAppend(() => (heard += 1));
    sink.onAppend(() => {
      throw new Error('listener bug');
    });
    db.transaction(() => sink.append('topup.status', { reference: 'R1', status: 'success' }, 1)).immediate();
    expect(heard).toBe(1);
    expect(count(db, 'hub_outbox')).toBe(1);
  });
});

describe('what the journal owners write', () => {
  it("orders: a sale with its cashier on shift, every state change, the provider's number learnt early", () => {
    const { outbox, orders, shifts, now } = setup();
    shifts.open('Ada', 500_000, 900_000, 'production');
    const rec = orders.insert(newOrder(now.t));
    now.t += 1000;
    orders.update(rec.id, { orderNo: 'PO-1' });
    orders.update(rec.id, { orderNo: 'PO-1' }); // nothing new: no event
    now.t += 1000;
    orders.transition(rec.id, 'waiting', 'Order on the terminal', { patch: { waitingSince: now.t } });
    now.t += 1000;
    orders.transition(rec.id, 'paid', 'Paid: the provider says SUCCESS');
    orders.transition(rec.id, 'failed', 'refused: final'); // refused: no event
    now.t += 1000;
    orders.fillMissing(rec.id, 'paid', { payNo: 'PAY-9' });
    orders.fillMissing(rec.id, 'paid', { payNo: 'PAY-9' }); // known already: no event
    const events = all(outbox);
    expect(events.map((e) => SyncEventSchema.safeParse(e).success)).toEqual(events.map(() => true));
    expect(events.map((e) => [e.seq, e.kind, e.at])).toEqual([
      [1, 'shift.opened', 900_000],
      [2, 'order.created', 1_000_000],
      [3, 'order.status', 1_001_000],
      [4, 'order.status', 1_002_000],
      [5, 'order.status', 1_003_000],
      [6, 'order.status', 1_004_000],
    ]);
    const [, created, learnt, waiting, paid, filled] = events;
    expect(created!.payload).toEqual({
      reference: rec.outOrderNo,
      amountKobo: 710_000,
      sn: 'P30-0012345',
      cashier: 'Ada',
      profile: 'production',
      merchantId: 'M1',
      expiresAt: 1_300_000,
      sale: {
        filmName: 'Lagos Nights',
        filmTitle: 'Hall 2',
        showDate: '2025-01-31',
        showTime: '19:30',
        seats: 'F7,F8',
        tickets: 2,
        priceKobo: 350_000,
        bookingFeeKobo: 10_000,
      },
    });
    expect(learnt!.payload).toEqual({ reference: rec.outOrderNo, status: 'creating', orderNo: 'PO-1' });
    expect(waiting!.payload).toEqual({
      reference: rec.outOrderNo,
      status: 'waiting',
      orderNo: 'PO-1',
      note: 'Order on the terminal',
    });
    expect(paid!.payload).toMatchObject({ status: 'paid', orderNo: 'PO-1' });
    expect(filled!.payload).toEqual({ reference: rec.outOrderNo, status: 'paid', orderNo: 'PO-1', payNo: 'PAY-9' });
  });

  it('orders: a sale outside any shift names no cashier; over-long provider text is cut, never refused', () => {
    const { outbox, orders } = setup();
    const rec = orders.insert(newOrder(2_000_000));
    orders.transition(rec.id, 'failed', `Refused: ${'x'.repeat(500)}`, { patch: { orderNo: 'N'.repeat(90) } });
    const [created, failed] = all(outbox);
    expect(created!.payload).not.toHaveProperty('cashier');
    expect(failed!.payload).toMatchObject({ status: 'failed', orderNo: 'N'.repeat(64) });
    expect((failed!.payload as { note: string }).note).toHaveLength(200);
  });

  it('orders: a journal write whose event the outbox refuses changes nothing at all', () => {
    const { db, orders, now } = setup();
    const rec = orders.insert(newOrder(now.t));
    const before = { events: count(db, 'order_events'), outbox: count(db, 'hub_outbox') };
    // A sink with a bug: its event is not what the schema allows.
    const broken = new OrderJournal(db, () => now.t, {
      append: (kind, _p, at) => new HubOutbox(db).append(kind, { wrong: true } as never, at),
    });
    expect(() => broken.transition(rec.id, 'waiting', 'Order on the terminal')).toThrow(/does not match its schema/);
    expect(orders.get(rec.id)!.state).toBe('creating');
    expect({ events: count(db, 'order_events'), outbox: count(db, 'hub_outbox') }).toEqual(before);
  });

  it('a transaction that throws after the journal write keeps neither the event nor its outbox row', () => {
    const { db, orders, now } = setup();
    expect(() =>
      db
        .transaction(() => {
          orders.insert(newOrder(now.t));
          throw new Error('the caller failed after the journal write');
        })
        .immediate(),
    ).toThrow(/caller failed/);
    expect([count(db, 'orders'), count(db, 'order_events'), count(db, 'hub_outbox')]).toEqual([0, 0, 0]);
    orders.insert(newOrder(now.t));
    expect(new HubOutbox(db).readAfter(0, 10).map((e) => [e.seq, e.kind])).toEqual([[1, 'order.created']]);
  });

  it('top-ups: a single submitted then settled; a batch item only once it leaves its draft; a discarded draft never', () => {
    const { outbox, topups } = setup();
    const owner = { profile: 'production', billsMerchantId: 'B1' };
    const single = topups.insertSingle(
      owner,
      'C3',
      '250131',
      { serviceType: 'airtime', provider: 'MTN', customerId: '08031234567', amountKobo: 50_000 },
      'Sending',
    );
    topups.move([{ id: single.id, to: 'sending', note: 'same state', patch: { orderNo: 'BO-1' } }]);
    topups.move([{ id: single.id, to: 'success', note: 'Provider says SUCCESS' }]);
    const batchId = topups.createBatch(owner, 'C3', '250131', {
      fileName: 'b.csv',
      totalRows: 2,
      badRows: 0,
      chunkSize: 50,
      items: [
        { serviceType: 'betting', provider: 'BET9JA', customerId: 'U-77', amountKobo: 100_000, line: 2 },
        { serviceType: 'airtime', provider: 'GLO', customerId: '08051234567', amountKobo: 20_000, line: 3 },
      ],
      errors: [],
    });
    const [a, b] = topups.allOfBatch(batchId);
    topups.move([
      { id: a!.id, to: 'queued', note: 'Batch started' },
      { id: b!.id, to: 'cancelled', note: 'Removed' },
    ]);
    topups.move([{ id: a!.id, to: 'sending', note: 'Sending', patch: { sending: true } }]);
    expect(all(outbox).map((e) => [e.kind, e.payload])).toEqual([
      [
        'topup.submitted',
        {
          reference: single.reference,
          kind: 'airtime',
          amountKobo: 50_000,
          provider: 'MTN',
          customerId: '08031234567',
          profile: 'production',
        },
      ],
      ['topup.status', { reference: single.reference, orderNo: 'BO-1', status: 'sending' }],
      ['topup.status', { reference: single.reference, orderNo: 'BO-1', status: 'success' }],
      [
        'topup.submitted',
        {
          reference: a!.reference,
          kind: 'betting',
          amountKobo: 100_000,
          provider: 'BET9JA',
          customerId: 'U-77',
          profile: 'production',
        },
      ],
      ['topup.status', { reference: a!.reference, status: 'sending' }],
    ]);
  });

  it('shifts: opened, then closed with its Z report in the same transaction', () => {
    // The journal's clock inside the shift (1,000 to 5,000): the sale is paid at 3,000, in its card total.
    const { db, outbox, shifts, orders } = setup({ t: 3_000 });
    const shift = shifts.open('Bola', null, 1_000, 'production');
    const rec = orders.insert(newOrder(2_000));
    orders.transition(rec.id, 'waiting', 'on the terminal');
    orders.transition(rec.id, 'paid', 'paid');
    const reads = new OrderJournalReads(db);
    const draft = (s: typeof shift, to: number) => ({
      kind: 'Z' as const,
      shift: s,
      generatedAt: to,
      cinemaName: 'Film House',
      branch: 'Lekki',
      counterName: 'Counter 3',
      totals: shiftTotals(reads, topupTotals(new TopupJournalReads(db)), s.openedAt, to),
    });
    // A close refused inside its transaction (open payments, say) leaves no event behind.
    expect(() =>
      shifts.close(shift.id, 5_000, () => {
        throw new Error('refused');
      }),
    ).toThrow('refused');
    expect(all(outbox).map((e) => e.kind)).toEqual(['shift.opened', 'order.created', 'order.status', 'order.status']);
    const report = shifts.close(shift.id, 5_000, (s) => draft(s, 5_000));
    const events = all(outbox);
    expect(events.map((e) => e.kind)).toEqual([
      'shift.opened',
      'order.created',
      'order.status',
      'order.status',
      'shift.closed',
      'zreport',
    ]);
    expect(events[0]!.payload).toEqual({ shiftId: String(shift.id), cashier: 'Bola', profile: 'production' });
    expect(events[4]!.payload).toEqual({ shiftId: String(shift.id), cashier: 'Bola', cardTotalKobo: 710_000 });
    expect(events[5]).toMatchObject({
      at: 5_000,
      payload: { shiftId: String(shift.id), reportNo: report.id, from: 1_000, to: 5_000, totalKobo: 710_000, count: 1 },
    });
    expect((events[5]!.payload as { lines: { label: string; kobo: number; count: number }[] }).lines[0]).toEqual({
      label: 'Paid by card (card part)',
      kobo: 710_000,
      count: 1,
    });
  });
});
