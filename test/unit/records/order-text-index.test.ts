// The search index follows the journal: new orders at catch-up, numbers filled in later through an
// order event (refresh) or, if that was missed, at the next start (recheckRecent); a time window
// inside the days searched.
import { describe, expect, it } from 'vitest';
import { closeAfterEach } from '../../helpers/close-after-each';
import { OrderJournal } from '../../../core/orders/order-journal';
import { searchOrders } from '../../../core/orders/order-search';
import { OrderTextIndex, seatTokens } from '../../../core/orders/order-text-index';
import { openTempDb, sale } from '../../helpers/orders-db';
import { OrderSearchSchema } from '../../../shared/records';
import { lagosInstant } from '../../../shared/time';

const cleanup = closeAfterEach((done: () => void) => done());

function setup() {
  const t = openTempDb();
  cleanup(t.cleanup);
  const journal = new OrderJournal(t.db, () => 5_000);
  const s = sale({ seats: 'F1,F12', tickets: 2 });
  const rec = journal.insert({
    sale: s,
    amountKobo: 710_000,
    counterCode: 'C1',
    businessDay: '261121',
    createdAt: 5_000,
    expireSeconds: 300,
    state: 'creating',
    attempts: 1,
    headMerchantId: 'H',
    merchantId: 'M',
    note: 'sold',
  });
  const find = (text: string) => searchOrders(t.db, { text, states: [], limit: 10 }).ids;
  return { db: t.db, journal, rec, find, index: new OrderTextIndex(t.db) };
}

describe('order search index', () => {
  it('stores seats as whole tokens', () => {
    expect(seatTokens('F1,F12')).toBe('#F1# #F12#');
  });

  it('finds new orders after a catch-up, by film, number part and whole seat', () => {
    const { index, rec, find } = setup();
    expect(find('lagos')).toEqual([]);
    expect(index.catchUp()).toBe(1);
    expect(index.catchUp()).toBe(0);
    expect(find('lagos')).toEqual([rec.id]);
    expect(find('LAGOS nights')).toEqual([rec.id]);
    expect(find(rec.outOrderNo.slice(-5))).toEqual([rec.id]);
    expect(find('f12')).toEqual([rec.id]);
    expect(find('F2')).toEqual([]);
    expect(find('7,100')).toEqual([rec.id]);
    expect(find('"')).toEqual([]);
    expect(find('-')).toEqual([]);
  });

  it('finds a sale by the last one or two digits of its number ("1", "01" find …-0001), not by other digits', () => {
    const { index, rec, find } = setup();
    index.catchUp();
    expect(rec.outOrderNo).toMatch(/-0001$/);
    expect(find('1')).toEqual([rec.id]);
    expect(find('01')).toEqual([rec.id]);
    expect(find('001')).toEqual([rec.id]);
    expect(find('0001')).toEqual([rec.id]);
    expect(find('2')).toEqual([]);
    expect(find('10')).toEqual([]);
  });

  it('picks up a payNo filled in later: at once on refresh, or at the next start', () => {
    const { index, journal, rec, find } = setup();
    index.catchUp();
    journal.transition(rec.id, 'waiting', 'on terminal', { patch: { orderNo: '2501000000000099' } });
    journal.transition(rec.id, 'paid', 'paid');
    journal.fillMissing(rec.id, 'paid', { payNo: '7700000000004242' });
    expect(find('4242')).toEqual([]);
    expect(index.recheckRecent(10_000)).toBe(1);
    expect(find('4242')).toEqual([rec.id]);
    expect(find('000099')).toEqual([rec.id]);
    expect(index.recheckRecent(10_000)).toBe(0);
    journal.fillMissing(rec.id, 'paid', { payNo: 'ignored, already set' });
    index.refresh(rec.id);
    expect(find('4242')).toEqual([rec.id]);
  });
});

describe('order search: a time window inside the days', () => {
  it('finds the sales of "about 19:40 on Tuesday" between two Lagos times, the last minute included, by amount too', () => {
    const t = openTempDb();
    cleanup(t.cleanup);
    const journal = new OrderJournal(t.db, () => 5_000);
    const at = (hm: string, kobo: number) =>
      journal.insert({
        sale: sale(),
        amountKobo: kobo,
        counterCode: 'C1',
        businessDay: '261124',
        createdAt: lagosInstant('2026-11-24', hm),
        expireSeconds: 300,
        state: 'creating',
        attempts: 1,
        headMerchantId: 'H',
        merchantId: 'M',
        note: 'sold',
      }).id;
    const early = at('19:29', 400_000);
    const inside = at('19:30', 400_000);
    const lastMinute = at('19:45', 400_000);
    const other = at('19:40', 250_000);
    const after = at('19:46', 400_000);
    new OrderTextIndex(t.db).catchUp();
    const find = (q: { text?: string; fromTime?: string; toTime?: string }) =>
      searchOrders(t.db, {
        text: q.text ?? '',
        states: [],
        limit: 10,
        from: '2026-11-24',
        to: '2026-11-24',
        fromTime: q.fromTime,
        toTime: q.toTime,
      }).ids;
    expect(find({ fromTime: '19:30', toTime: '19:45' })).toEqual([lastMinute, other, inside]);
    expect(find({ text: '4,000', fromTime: '19:30', toTime: '19:45' })).toEqual([lastMinute, inside]);
    expect(find({ fromTime: '19:46' })).toEqual([after]);
    expect(find({ toTime: '19:29' })).toEqual([early]);
    expect(find({})).toHaveLength(5);
    // What the screen sends is checked: a time needs its day, and the window must not end before it starts.
    expect(
      OrderSearchSchema.safeParse({ from: '2026-11-24', to: '2026-11-24', fromTime: '19:30', toTime: '19:45' }).success,
    ).toBe(true);
    const issues = (a: object) =>
      (OrderSearchSchema.safeParse(a).error?.issues ?? []).map((i) => `${i.path.join('.')}: ${i.message}`);
    expect(issues({ fromTime: '19:30' })).toEqual(['fromTime: Pick the day (From) this time is on']);
    expect(issues({ from: '2026-11-24', to: '2026-11-24', fromTime: '19:45', toTime: '19:30' })).toEqual([
      'toTime: The end time is before the start time',
    ]);
    expect(issues({ from: '2026-11-24', fromTime: '7.30pm' })).toEqual([
      'fromTime: Write the time as HH:mm (24-hour), for example 19:30',
    ]);
  });
});

describe("order search index on the sale's path (issue 28)", () => {
  // The index is derived from the journal (catchUp and recheckRecent rebuild what a crash lost), so
  // its commits need not wait for the disk: counted here, the transactions it commits at
  // synchronous FULL (each a flush a create waited for: two per create, one per order event).
  function countDurable(db: ReturnType<typeof setup>['db']) {
    const seen: number[] = [];
    const real = db.transaction.bind(db);
    db.transaction = ((fn: (...a: never[]) => unknown) => {
      const tx = real(fn);
      const wrapped = ((...a: never[]) => {
        seen.push(Number(db.pragma('synchronous', { simple: true })));
        return tx(...a);
      }) as typeof tx;
      return Object.assign(wrapped, { deferred: tx.deferred, immediate: tx.immediate, exclusive: tx.exclusive });
    }) as typeof db.transaction;
    return { durable: () => seen.filter((s) => s >= 2).length, all: () => seen.length };
  }

  it('a refresh and a catch-up commit without a disk flush, and leave the connection at synchronous FULL', () => {
    const { db, index, rec, journal, find } = setup();
    journal.transition(rec.id, 'waiting', 'on the terminal', { patch: { orderNo: 'ORD-777123' } });
    const count = countDurable(db);
    expect(index.catchUp()).toBe(1);
    // A number the index has not seen (written past the journal, as a late payment's is).
    db.prepare('UPDATE orders SET pay_no = ? WHERE id = ?').run('PAY-5550001', rec.id);
    index.refresh(rec.id);
    expect(count.all()).toBe(2);
    expect(count.durable()).toBe(0);
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    expect(find('777123')).toEqual([rec.id]);
    expect(find('5550001')).toEqual([rec.id]);
    // Words unchanged: nothing to commit.
    index.refresh(rec.id);
    expect(count.all()).toBe(2);
  });
});

describe('order search index: words written when a search asks (issue 37)', () => {
  it('refreshes many orders in one commit, only those whose words changed', () => {
    const { db, index, rec, journal, find } = setup();
    const second = journal.insert({
      sale: sale({ seats: 'G1', tickets: 1 }),
      amountKobo: 360_000,
      counterCode: 'C1',
      businessDay: '261121',
      createdAt: 6_000,
      expireSeconds: 300,
      state: 'creating',
      attempts: 1,
      headMerchantId: 'H',
      merchantId: 'M',
      note: 'sold',
    });
    expect(index.catchUp()).toBe(2);
    journal.transition(rec.id, 'waiting', 'on the terminal', { patch: { orderNo: 'ORD-777123' } });
    journal.transition(second.id, 'waiting', 'on the terminal', { patch: { orderNo: 'ORD-888456' } });
    let commits = 0;
    const real = db.transaction.bind(db);
    db.transaction = ((fn: (...a: never[]) => unknown) => {
      commits++;
      return real(fn);
    }) as typeof db.transaction;
    expect(index.refreshMany([rec.id, second.id, 9_999])).toBe(2);
    expect(commits).toBe(1);
    expect(find('777123')).toEqual([rec.id]);
    expect(find('888456')).toEqual([second.id]);
    expect(index.refreshMany([rec.id, second.id])).toBe(0);
    expect(commits).toBe(1);
  });
});
