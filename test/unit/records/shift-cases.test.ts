// The complaint cases on the X/Z through the shift service on a real SQLite journal (the cases
// module's table read through its port, core/cases/case-store.ts `caseCounts`): the cases opened in
// the shift and those still open at its end (opened earlier too), Demo ones left out of a real
// shift; the same counts in the printed report, the CSV (section `cases`) and the Z kept.
import { afterEach, describe, expect, it } from 'vitest';
import { caseCounts } from '../../../core/cases';
import { CaseStore } from '../../../core/cases/case-store';
import { OrderJournalReads } from '../../../core/orders';
import { DrawerStore } from '../../../core/records/shifts/drawer-store';
import { createShiftService, type ShiftDeps } from '../../../core/records/shifts/shift-service';
import { ShiftStore } from '../../../core/records/shifts/shift-store';
import { topupTotals } from '../../../core/records/shifts/topup-totals';
import { TopupJournalReads } from '../../../core/topups/topup-journal-reads';
import type { JournalSink } from '../../../core/journal-sink';
import { openTempDb } from '../../helpers/orders-db';

const T0 = Date.UTC(2026, 11, 7, 9, 0, 0);
const M = 60_000;
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
    cases: caseCounts(tmp.db),
  });
  const cases = new CaseStore(tmp.db, { append: () => {} } as JournalSink);
  const open = (at: number, profile: 'production' | 'demo' = 'production') =>
    cases.open({
      search: { last4: '4321', amountKobo: 400_000 },
      customer: '',
      openedBy: 'Ngozi',
      found: null,
      at,
      code: 'COU1',
      profile,
    });
  return { svc, cases, open, at: (t: number) => (now = t) };
}

describe('the complaint cases on the X/Z', () => {
  it('opened in the shift, still open at its end (opened before it too); resolved ones and Demo ones left out', () => {
    const { svc, cases, open, at } = service();
    const before = open(T0 - 60 * M); // opened before the shift, still open at its end
    const resolvedBefore = open(T0 - 50 * M);
    cases.resolve(resolvedBefore.id, { resolution: 'not-debited', by: 'Bola', note: '' }, T0 - 40 * M);
    at(T0);
    svc.open('Ada', '0');
    const a = open(T0 + 5 * M);
    open(T0 + 6 * M);
    open(T0 + 7 * M, 'demo');
    cases.resolve(a.id, { resolution: 'not-debited', by: 'Bola', note: '' }, T0 + 8 * M);
    at(T0 + 10 * M);
    const x = svc.report();
    expect(x.report.totals.cases).toEqual({ opened: 2, stillOpen: 2 });
    expect(x.html).toContain('Cases opened');
    expect(x.html).toContain('Cases still open at the end');
    const z = svc.close(true);
    expect(z.report.totals.cases).toEqual({ opened: 2, stillOpen: 2 });
    cases.resolve(before.id, { resolution: 'not-debited', by: 'Bola', note: '' }, T0 + 20 * M);
    // The Z kept says what was true at its end, read back through the report's schema.
    expect(svc.report(z.report.id!).report.totals.cases).toEqual({ opened: 2, stillOpen: 2 });
    const csv = svc.exportCsv(z.report.id!).csv;
    expect(csv).toContain('cases,opened,2,');
    expect(csv).toContain('cases,still_open,2,');
  });

  it('a shift with no case open and none opened: no cases section', () => {
    const { svc, at } = service();
    at(T0);
    svc.open('Ada', '0');
    const x = svc.report();
    expect(x.report.totals.cases).toEqual({ opened: 0, stillOpen: 0 });
    expect(x.html).not.toContain('Complaint cases');
    expect(svc.exportCsv().csv).not.toContain('cases,');
  });
});
