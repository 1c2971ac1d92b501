// Shift totals straight from a journal on a real SQLite file: each outcome in its bucket, orders of
// earlier shifts paid during this one, top-ups by status, all through the journals' read methods.
import { describe, expect, it } from 'vitest';
import { closeAfterEach } from '../../helpers/close-after-each';
import { OrderJournal } from '../../../core/orders/order-journal';
import { shiftTotals } from '../../../core/records/shifts/shift-totals';
import { topupTotals } from '../../../core/records/shifts/topup-totals';
import { OrderJournalReads } from '../../../core/orders/order-journal-reads';
import { TopupJournalReads } from '../../../core/topups/topup-journal-reads';
import type { Db } from '../../../core/db/database';
import type { RecordScope } from '../../../shared/record-profile';
import { ShiftStore } from '../../../core/records/shifts/shift-store';
import type { OrderState } from '../../../shared/orders';
import { openTempDb, sale } from '../../helpers/orders-db';

/** A shift's totals through the journals' read methods, as the records module wires them. */
function totalsOf(db: Db, from: number, to: number, scope?: RecordScope) {
  return shiftTotals(new OrderJournalReads(db), topupTotals(new TopupJournalReads(db)), from, to, scope);
}

const cleanup = closeAfterEach((done: () => void) => done());

function setup() {
  const t = openTempDb();
  cleanup(t.cleanup);
  let now = 1_000_000;
  const journal = new OrderJournal(t.db, () => now);
  const add = (
    at: number,
    path: OrderState[],
    over: Parameters<typeof sale>[0] = {},
    patch: { providerFeeKobo?: number } = {},
  ) => {
    now = at;
    const s = sale(over);
    const rec = journal.insert({
      sale: s,
      amountKobo: s.tickets * s.priceKobo + s.bookingFeeKobo,
      counterCode: 'C1',
      businessDay: '261121',
      createdAt: at,
      expireSeconds: 300,
      state: 'creating',
      attempts: 1,
      headMerchantId: 'H',
      merchantId: 'M',
      note: 'sold',
    });
    for (const [i, to] of path.entries()) {
      now = at + (i + 1) * 1000;
      journal.transition(
        rec.id,
        to,
        'test',
        to === 'paid' ? { patch: { providerFeeKobo: patch.providerFeeKobo ?? 0 } } : {},
      );
    }
    return rec;
  };
  return { db: t.db, add, setNow: (n: number) => (now = n) };
}

const ONE = 350_000 * 2 + 10_000;

describe('shift totals', () => {
  it('puts each order sold in the window in its bucket, with fees and tickets of the paid ones', () => {
    const { db, add } = setup();
    add(100_000, ['waiting', 'paid'], {}, { providerFeeKobo: 1_050 });
    add(110_000, ['waiting', 'paid'], { seats: 'A1', tickets: 1 }, { providerFeeKobo: 530 });
    add(120_000, ['waiting', 'failed']);
    add(130_000, ['waiting', 'cancelled']);
    add(140_000, ['waiting', 'expired']);
    const unknown = add(150_000, ['unknown']);
    add(10_000, ['waiting', 'paid']); // before the shift
    add(900_000, ['waiting', 'paid']); // after `to`
    const t = totalsOf(db, 50_000, 800_000);
    expect(t.paid).toEqual({ count: 2, amountKobo: ONE + (350_000 + 10_000) });
    expect(t.failed).toEqual({ count: 1, amountKobo: ONE });
    expect(t.cancelled).toEqual({ count: 1, amountKobo: ONE });
    expect(t.expired).toEqual({ count: 1, amountKobo: ONE });
    expect(t.open).toEqual({ count: 1, amountKobo: ONE });
    expect(t.ticketsSold).toBe(3);
    expect(t.bookingFeesKobo).toBe(20_000);
    expect(t.providerFeesKobo).toBe(1_580);
    expect(t.paidLate).toEqual({ count: 0, amountKobo: 0 });
    expect(t.openItems).toMatchObject([
      { kind: 'order', id: unknown.id, state: 'unknown', label: 'Checking the payment' },
    ]);
  });

  it('counts an earlier order paid during the shift once, as paid late; and lists an earlier open one', () => {
    const { db, add } = setup();
    const earlier = add(10_000, ['waiting']);
    const stillOpen = add(20_000, ['queued']);
    // The earlier sale settles during the shift.
    const journalAt = 200_000;
    const j = new OrderJournal(db, () => journalAt);
    j.transition(earlier.id, 'paid', 'webhook');
    const t = totalsOf(db, 100_000, 300_000);
    expect(t.paid.count).toBe(0);
    expect(t.paidLate).toEqual({ count: 1, amountKobo: ONE });
    expect(t.openItems.map((i) => i.id)).toEqual([stillOpen.id]);
  });

  it('with no top-ups in the shift, the top-ups part is there and empty', () => {
    const { db } = setup();
    expect(totalsOf(db, 0, 1).topups).toEqual({ available: true, lines: [], successKobo: 0 });
  });

  it('with a top-ups journal, counts them by status (drafts left out) and lists open ones', () => {
    const { db } = setup();
    const ins = db.prepare(
      `INSERT INTO topups (reference, profile, bills_merchant_id, service_type, provider, customer_id, amount_kobo, state, business_day, created_at, updated_at)
       VALUES (?, 'production', 'B', 'airtime', 'MTN', '08031234567', ?, ?, '261121', ?, ?)`,
    );
    const add = (ref: string, state: string, kobo: number, at: number) => ins.run(ref, kobo, state, at, at);
    add('T1', 'success', 100_000, 10);
    add('T2', 'success', 50_000, 20);
    add('T3', 'fail', 20_000, 30);
    add('T4', 'pending', 70_000, 40);
    add('T5', 'draft', 90_000, 50);
    add('T6', 'success', 10_000, 5_000); // after the window
    const t = totalsOf(db, 0, 1_000);
    expect(t.topups).toEqual({
      available: true,
      successKobo: 150_000,
      lines: [
        { state: 'success', label: 'Successful', count: 2, amountKobo: 150_000 },
        { state: 'fail', label: 'Failed', count: 1, amountKobo: 20_000 },
        { state: 'pending', label: 'In progress', count: 1, amountKobo: 70_000 },
      ],
    });
    expect(t.openItems).toMatchObject([{ kind: 'topup', ref: 'T4', state: 'pending', amountKobo: 70_000 }]);
  });
});

describe('shift store', () => {
  it('keeps one open shift, and knows whose shift an instant was in', () => {
    const { db } = setup();
    const s = new ShiftStore(db);
    const a = s.open('Ngozi', null, 100);
    expect(() => s.open('Tunde', null, 150)).toThrow(/still open/);
    s.close(a.id, 200, (shift) => ({
      kind: 'Z',
      shift,
      generatedAt: 200,
      cinemaName: 'C',
      branch: '',
      counterName: 'K',
      totals: totalsOf(db, 100, 200),
    }));
    s.open('Tunde', 5_000, 300);
    expect(s.cashierAt(150)).toBe('Ngozi');
    expect(s.cashierAt(250)).toBe('');
    expect(s.cashierAt(400)).toBe('Tunde');
    expect(() =>
      s.close(a.id, 500, () => {
        throw new Error('not reached');
      }),
    ).toThrow(/closed already/);
  });

  it('a close that throws while building its report leaves the shift open', () => {
    const { db } = setup();
    const s = new ShiftStore(db);
    const a = s.open('Ngozi', null, 100);
    expect(() =>
      s.close(a.id, 200, () => {
        throw new Error('refused');
      }),
    ).toThrow('refused');
    expect(s.current()?.id).toBe(a.id);
    expect(s.reports(10)).toEqual([]);
  });
});
