// The search index follows the journal: new orders at catch-up, numbers filled in later through an
// order event (refresh) or, if that was missed, at the next start (recheckRecent).
import { describe, expect, it } from 'vitest';
import { closeAfterEach } from '../../helpers/close-after-each';
import { OrderJournal } from '../../../core/orders/order-journal';
import { searchOrders } from '../../../core/orders/order-search';
import { OrderTextIndex, seatTokens } from '../../../core/orders/order-text-index';
import { openTempDb, sale } from '../../helpers/orders-db';

const cleanup = closeAfterEach((done: () => void) => done());

function setup() {
  const t = openTempDb();
  cleanup(t.cleanup);
  const journal = new OrderJournal(t.db, () => 5_000);
  const s = sale({ seats: 'F1,F12', tickets: 2 });
  const rec = journal.insert({ sale: s, amountKobo: 710_000, counterCode: 'C1', businessDay: '261121', createdAt: 5_000, expireSeconds: 300, state: 'creating', attempts: 1, headMerchantId: 'H', merchantId: 'M', note: 'sold' });
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
