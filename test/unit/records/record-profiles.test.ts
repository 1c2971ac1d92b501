// Records know the profile they were made under: an existing journal is migrated (Demo sales
// recognised, everything else kept counting), and Demo sales stay out of a real shift's totals
// and out of search unless asked for. Real SQLite files throughout.
import { describe, expect, it } from 'vitest';
import { closeAfterEach } from '../../helpers/close-after-each';
import { migrate, type OpenOptions } from '../../../core/db/database';
import { SCHEMA } from '../../../core/schema';
import { OrderJournal } from '../../../core/orders/order-journal';
import { ORDER_MIGRATIONS } from '../../../core/orders/order-migrations';
import { searchOrders } from '../../../core/orders/order-search';
import { OrderTextIndex } from '../../../core/orders/order-text-index';
import { ShiftStore } from '../../../core/records/shifts/shift-store';
import { shiftTotals } from '../../../core/records/shifts/shift-totals';
import { topupTotals } from '../../../core/records/shifts/topup-totals';
import { OrderJournalReads } from '../../../core/orders/order-journal-reads';
import { TopupJournalReads } from '../../../core/topups/topup-journal-reads';
import type { Db } from '../../../core/db/database';
import type { RecordScope } from '../../../shared/record-profile';
import type { RecordProfile } from '../../../shared/record-profile';
import { openTempDb, sale } from '../../helpers/orders-db';

/** A shift's totals through the journals' read methods, as the records module wires them. */
function totalsOf(db: Db, from: number, to: number, scope?: RecordScope) {
  return shiftTotals(new OrderJournalReads(db), topupTotals(new TopupJournalReads(db)), from, to, scope);
}

const cleanup = closeAfterEach((done: () => void) => done());

function temp(opts: Partial<OpenOptions> = {}) {
  const t = openTempDb(opts);
  cleanup(t.cleanup);
  return t.db;
}

const ONE = 350_000 * 2 + 10_000;

describe('an existing journal, migrated', () => {
  it('marks the Demo merchant’s sales on Demo terminals as Demo and keeps every other older row counting', () => {
    // The journal as an installed counter has it: the first migrations only.
    const db = temp({ migrations: [ORDER_MIGRATIONS[0]!] });
    const insert = db.prepare(
      `INSERT INTO orders (out_order_no, counter_code, business_day, seq, head_merchant_id, merchant_id, state, film_name, film_title, show_date, show_time,
         seats, tickets, price_kobo, booking_fee_kobo, amount_kobo, sn, expire_seconds, created_at, expires_at, updated_at)
       VALUES (?, 'C1', '261121', ?, ?, 'M', 'paid', 'F', 'F', '2026-11-21', '19:30', 'A1', 1, 100000, 0, 100000, ?, 300, ?, ?, ?)`,
    );
    insert.run('C1-261121-0001', 1, '256621000000101', 'DEMO-POS-0001', 1000, 301_000, 2000);
    insert.run('C1-261121-0002', 2, '256621000000101', 'DEMO-POS-0002', 1000, 301_000, 2000);
    insert.run('C1-261121-0003', 3, '300100200300', 'P30-0012345', 1000, 301_000, 2000);
    // A real terminal under the Demo merchant id is not proof enough: it keeps counting.
    insert.run('C1-261121-0004', 4, '256621000000101', 'P30-0012345', 1000, 301_000, 2000);
    db.exec(`CREATE TABLE print_jobs (id INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, order_id INTEGER, report_id INTEGER, title TEXT NOT NULL,
      payload_json TEXT NOT NULL, target_json TEXT NOT NULL, target_text TEXT NOT NULL, status TEXT NOT NULL, error TEXT, error_code TEXT,
      attempts INTEGER NOT NULL DEFAULT 0, reprint INTEGER NOT NULL DEFAULT 0, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, printed_at INTEGER)`);
    db.exec(
      `CREATE TABLE shifts (id INTEGER PRIMARY KEY AUTOINCREMENT, cashier TEXT NOT NULL, opened_at INTEGER NOT NULL, opening_float_kobo INTEGER, closed_at INTEGER)`,
    );
    db.exec(
      `CREATE TABLE shift_reports (id INTEGER PRIMARY KEY AUTOINCREMENT, shift_id INTEGER NOT NULL UNIQUE REFERENCES shifts(id), created_at INTEGER NOT NULL, report_json TEXT NOT NULL)`,
    );
    db.prepare("INSERT INTO schema_migrations (name, applied_at) VALUES ('records-001-print-jobs-shifts', 1)").run();
    const job = db.prepare(
      "INSERT INTO print_jobs (kind, order_id, title, payload_json, target_json, target_text, status, created_at, updated_at) VALUES (?, ?, 't', '{}', '{}', 't', 'printed', 1, 1)",
    );
    job.run('receipt', 1);
    job.run('receipt', 3);
    job.run('test-page', null);
    db.prepare("INSERT INTO shifts (cashier, opened_at) VALUES ('Ngozi', 500)").run();

    // What opening the file does: the rest of the one list.
    migrate(db, SCHEMA);
    const journal = new OrderJournal(db, () => 5000);

    expect([1, 2, 3, 4].map((id) => journal.get(id)!.profile)).toEqual(['demo', 'demo', 'unrecorded', 'unrecorded']);
    expect(db.prepare('SELECT kind, profile FROM print_jobs ORDER BY id').all()).toEqual([
      { kind: 'receipt', profile: 'demo' },
      { kind: 'receipt', profile: 'unrecorded' },
      { kind: 'test-page', profile: 'unrecorded' },
    ]);
    const shift = new ShiftStore(db).current()!;
    expect(shift.profile).toBe('unrecorded');
    // The open shift from before the upgrade is a real one: its history counts, the Demo sales do not.
    const t = totalsOf(db, 0, 10_000, { excludeDemo: true });
    expect(t.paid).toEqual({ count: 2, amountKobo: 200_000 });
    // Migrating again changes nothing.
    migrate(db, SCHEMA);
    expect(journal.get(1)!.profile).toBe('demo');
  });
});

function journalWithTopups() {
  const db = temp();
  let now = 1_000_000;
  const journal = new OrderJournal(db, () => now);
  const add = (at: number, profile: RecordProfile, final: 'paid' | 'failed' | null, seats = 'F7,F8') => {
    now = at;
    const s = sale({ seats, tickets: seats.split(',').length });
    const rec = journal.insert({
      sale: s,
      amountKobo: ONE,
      counterCode: 'C1',
      businessDay: '261121',
      createdAt: at,
      expireSeconds: 300,
      state: 'creating',
      attempts: 1,
      headMerchantId: 'H',
      merchantId: 'M',
      note: 'sold',
      profile,
    });
    now = at + 1000;
    journal.transition(rec.id, 'waiting', 'test');
    if (final) {
      now = at + 2000;
      journal.transition(rec.id, final, 'test');
    }
    return rec;
  };
  const topup = db.prepare(
    `INSERT INTO topups (reference, profile, bills_merchant_id, service_type, provider, customer_id, amount_kobo, state, business_day, created_at, updated_at)
     VALUES (?, ?, 'B', 'airtime', 'MTN', '08031234567', ?, ?, '261121', ?, ?)`,
  );
  const addTopup = (ref: string, profile: RecordProfile, state: string, kobo: number, at: number) =>
    topup.run(ref, profile, kobo, state, at, at);
  return { db, journal, add, addTopup };
}

describe('Demo records and real shifts', () => {
  it('a real shift leaves Demo sales and Demo top-ups out of every figure, open items included', () => {
    const { db, add, addTopup } = journalWithTopups();
    add(100_000, 'production', 'paid');
    add(110_000, 'demo', 'paid');
    add(120_000, 'demo', 'failed');
    add(130_000, 'unrecorded', 'paid');
    const demoOpen = add(140_000, 'demo', null);
    const realOpen = add(150_000, 'sandbox', null);
    addTopup('T1', 'production', 'success', 50_000, 100_000);
    addTopup('T2', 'demo', 'success', 70_000, 100_000);
    addTopup('T3', 'demo', 'pending', 20_000, 100_000);

    const real = totalsOf(db, 50_000, 800_000, { excludeDemo: true });
    expect(real.paid).toEqual({ count: 2, amountKobo: 2 * ONE });
    expect(real.failed).toEqual({ count: 0, amountKobo: 0 });
    expect(real.open).toEqual({ count: 1, amountKobo: ONE });
    expect(real.topups.successKobo).toBe(50_000);
    expect(real.openItems.map((i) => i.ref)).toEqual([realOpen.outOrderNo]);

    // A Demo shift (training) counts everything sold while it was open: nothing real goes missing either.
    const demo = totalsOf(db, 50_000, 800_000, { excludeDemo: false });
    expect(demo.paid).toEqual({ count: 3, amountKobo: 3 * ONE });
    expect(demo.failed.count).toBe(1);
    expect(demo.topups.successKobo).toBe(120_000);
    expect(demo.openItems.map((i) => i.ref)).toEqual([demoOpen.outOrderNo, realOpen.outOrderNo, 'T3']);
  });

  it('a Demo order paid late is not a real shift’s late payment', () => {
    const { db, journal, add } = journalWithTopups();
    const d = add(10_000, 'demo', null);
    const r = add(20_000, 'production', null);
    journal.transition(d.id, 'paid', 'late');
    journal.transition(r.id, 'paid', 'late');
    // journal's clock stood at 22_000 for both moves; the shift opened at 21_000.
    const t = totalsOf(db, 21_000, 800_000, { excludeDemo: true });
    expect(t.paidLate).toEqual({ count: 1, amountKobo: ONE });
  });

  it('a shift records the profile it was opened under', () => {
    const { db } = journalWithTopups();
    const shifts = new ShiftStore(db);
    expect(shifts.open('Ngozi', null, 1000, 'demo').profile).toBe('demo');
  });
});

describe('search and Demo sales', () => {
  it('leaves Demo sales out unless asked for, in totals, pages and typed words alike', () => {
    const { db, add } = journalWithTopups();
    const real = add(100_000, 'production', 'paid', 'A1,B1');
    const demo = add(110_000, 'demo', 'paid', 'A2,B2');
    const old = add(120_000, 'unrecorded', 'failed', 'A3,B3');
    new OrderTextIndex(db).catchUp();
    const q = { text: '', states: [], limit: 50 };
    expect(searchOrders(db, q)).toMatchObject({
      ids: [old.id, real.id],
      total: 2,
      paid: { count: 1, amountKobo: ONE },
    });
    expect(searchOrders(db, { ...q, includeDemo: true })).toMatchObject({
      ids: [old.id, demo.id, real.id],
      total: 3,
      paid: { count: 2 },
    });
    expect(searchOrders(db, { ...q, text: 'A2' }).ids).toEqual([]);
    expect(searchOrders(db, { ...q, text: 'A2', includeDemo: true }).ids).toEqual([demo.id]);
    expect(searchOrders(db, { ...q, text: demo.outOrderNo }).ids).toEqual([]);
  });
});
