// outOrderNo: short, readable, sortable, unique per counter and Lagos day, kept across restarts.
import { afterEach, describe, expect, it } from 'vitest';
import { openJournalDb } from '../../../core/schema';
import { OrderJournal } from '../../../core/orders/order-journal';
import { counterCode, formatOutOrderNo, lagosDayCode, OUT_ORDER_NO_RE } from '../../../core/orders/out-order-no';
import { sale, tempDbFile } from '../../helpers/orders-db';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

function insert(j: OrderJournal, at: number, code = 'COU3') {
  return j.insert({
    sale: sale(),
    amountKobo: 710_000,
    counterCode: code,
    businessDay: lagosDayCode(at),
    createdAt: at,
    expireSeconds: 300,
    state: 'creating',
    attempts: 1,
    headMerchantId: 'H1',
    merchantId: 'M1',
    note: 'test',
  });
}

/** A journal on a fresh SQLite file (removed after the test), its clock at 09:00 on a day, with one order. */
function journalWithOneOrder() {
  const { file, cleanup } = tempDbFile();
  cleanups.push(cleanup);
  const at = Date.UTC(2025, 0, 31, 9, 0);
  const db = openJournalDb(file);
  const j = new OrderJournal(db, () => at);
  insert(j, at);
  return { db, j, at };
}

describe('counter code', () => {
  it.each([
    ['Counter 3', 'COU3'],
    ['Counter 12', 'COU12'],
    ['Counter12', 'COU12'],
    ['Main Hall 2', 'MH2'],
    ['Box Office', 'BO'],
    ['Lekki VIP 12', 'LV12'],
    ['Ikeja', 'IKE'],
    ['Caisse élégante 1', 'CE1'],
    ['***', 'CTR'],
    ['7', 'C7'],
    ['A B C D E F G 9', 'ABCDE9'],
    ['Counter 123456', 'CO3456'],
  ])('%j -> %s', (name, code) => {
    expect(counterCode(name)).toBe(code);
    expect(code).toMatch(/^[A-Z0-9]{1,6}$/);
  });

  it('keeps different counters apart by their digits', () => {
    expect(counterCode('Counter 1')).not.toBe(counterCode('Counter 2'));
  });
});

describe('outOrderNo', () => {
  it('has the form CODE-yyMMdd-seq4', () => {
    expect(formatOutOrderNo('COU3', '250131', 7)).toBe('COU3-250131-0007');
    expect(OUT_ORDER_NO_RE.test('COU3-250131-0007')).toBe(true);
    expect(() => formatOutOrderNo('cou-3', '250131', 1)).toThrow();
    expect(() => formatOutOrderNo('COU3', '250131', 0)).toThrow();
  });

  it('uses the Lagos day, not UTC (Lagos is UTC+1)', () => {
    expect(lagosDayCode(Date.UTC(2025, 0, 31, 22, 59))).toBe('250131');
    expect(lagosDayCode(Date.UTC(2025, 0, 31, 23, 0))).toBe('250201');
  });

  it('is unique and sortable within a day, restarts at 0001 the next Lagos day, and survives reopening', () => {
    const { file, cleanup } = tempDbFile();
    cleanups.push(cleanup);
    const day1 = Date.UTC(2025, 0, 31, 9, 0);
    let db = openJournalDb(file);
    let j = new OrderJournal(db, () => day1);
    const first = [1, 2, 3].map((i) => insert(j, day1 + i).outOrderNo);
    expect(first).toEqual(['COU3-250131-0001', 'COU3-250131-0002', 'COU3-250131-0003']);
    expect(insert(j, day1, 'MH2').outOrderNo).toBe('MH2-250131-0001'); // each counter its own sequence
    db.close();

    db = openJournalDb(file);
    j = new OrderJournal(db, () => day1);
    const again = insert(j, day1 + 10).outOrderNo;
    expect(again).toBe('COU3-250131-0004');
    const nextDay = insert(j, Date.UTC(2025, 0, 31, 23, 30)).outOrderNo;
    expect(nextDay).toBe('COU3-250201-0001');
    const all = [...first, again, nextDay];
    expect(new Set(all).size).toBe(all.length);
    expect([...all].sort()).toEqual(all);
    db.close();
  });

  it('never reuses a number even if the counter table is lost', () => {
    const { db, j, at } = journalWithOneOrder();
    insert(j, at);
    db.exec('DELETE FROM order_counters');
    expect(insert(j, at).outOrderNo).toBe('COU3-250131-0003');
    db.close();
  });

  it('allocates the number in the same transaction as the order: a failed insert uses up nothing', () => {
    const { db, j, at } = journalWithOneOrder();
    // A sale that violates the table's constraints (state outside the enum) rolls everything back.
    expect(() =>
      j.insert({
        sale: sale(),
        amountKobo: 1,
        counterCode: 'COU3',
        businessDay: '250131',
        createdAt: at,
        expireSeconds: 300,
        state: 'bogus' as never,
        attempts: 0,
        headMerchantId: 'H',
        merchantId: 'M',
        note: 'x',
      }),
    ).toThrow();
    expect(insert(j, at).outOrderNo).toBe('COU3-250131-0002');
    db.close();
  });
});
