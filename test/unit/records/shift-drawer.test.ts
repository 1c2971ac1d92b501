// The drawer through the shift service on a real SQLite journal with a clock that stands still while
// a call runs: a drop is in the X report returned with it even in the same millisecond, the next
// drop is judged against what is left, and a count at close is kept with the Z (at the close's time).
import { afterEach, describe, expect, it } from 'vitest';
import { OrderJournalReads } from '../../../core/orders';
import { DrawerStore } from '../../../core/records/shifts/drawer-store';
import { createShiftService, type ShiftDeps } from '../../../core/records/shifts/shift-service';
import { ShiftStore } from '../../../core/records/shifts/shift-store';
import { topupTotals } from '../../../core/records/shifts/topup-totals';
import { TopupJournalReads } from '../../../core/topups/topup-journal-reads';
import { isAppError } from '../../../shared/errors';
import { openTempDb } from '../../helpers/orders-db';

const T0 = Date.UTC(2026, 11, 7, 9, 0, 0);
let cleanup: (() => void) | null = null;
afterEach(() => cleanup?.());

function service() {
  const tmp = openTempDb();
  cleanup = tmp.cleanup;
  let now = T0;
  const svc = createShiftService({
    orders: new OrderJournalReads(tmp.db),
    shifts: new ShiftStore(tmp.db),
    drawer: new DrawerStore(tmp.db),
    topups: topupTotals(new TopupJournalReads(tmp.db)),
    settings: {
      get: () => ({ cinema: { name: 'Film House', branch: 'Lekki', footer: '' }, printing: { paper: '80' } }),
    } as unknown as ShiftDeps['settings'],
    counterName: () => 'Lane 1',
    profile: () => 'production',
    jobs: { wasPrinted: () => false } as unknown as ShiftDeps['jobs'],
    printer: {} as ShiftDeps['printer'],
    clock: { now: () => now } as ShiftDeps['clock'],
    onShift: () => {},
  });
  /** A minute passes between the cashier's actions (none within a call). */
  return { svc, later: () => (now += 60_000) };
}

const fieldsOf = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    if (isAppError(e)) return e.details?.fields;
    throw e;
  }
  throw new Error('not refused');
};

describe('the drawer through the shift service', () => {
  it('a drop is in the X returned with it, in the same millisecond; the next is judged against what is left; the count is kept with the Z', () => {
    const { svc, later } = service();
    svc.open('Ada', '10,000');
    later();
    const x = svc.drop({ amount: '4,000', note: 'bag 1' });
    expect(x.report.totals.drawer).toMatchObject({
      drops: { count: 1, amountKobo: 400_000 },
      expectedKobo: 600_000,
      dropItems: [{ amountKobo: 400_000, by: 'Ada', at: T0 + 60_000, note: 'bag 1' }],
    });
    expect(fieldsOf(() => svc.drop({ amount: '6,000.01' }))).toEqual({
      amount: 'The drawer should hold ₦6,000.00: take at most that to the safe',
    });
    later();
    expect(fieldsOf(() => svc.checkClose({}))).toEqual({
      counted: 'Count the cash in the drawer and enter it (₦6,000.00 expected)',
    });
    const z = svc.close(false, null, { counted: '6,250', countedBy: 'Bola' });
    expect(z.report.totals.drawer).toMatchObject({
      expectedKobo: 600_000,
      countedKobo: 625_000,
      overShortKobo: 25_000,
      count: { by: 'Bola', at: T0 + 120_000 },
    });
    expect(z.html).toContain('over by ₦250.00');
  });
});
