// The cashier's shift: open (name, optional cash float), running X report, close with its Z report
// kept, reports printed like receipts and exported as CSV.
import { AppError, validationError } from '../../../shared/errors';
import { formatNaira, MoneyFormatError, parseNaira } from '../../../shared/money';
import type { PrintJobView, ShiftReport, ShiftReportView, ShiftView, ZReportSummary } from '../../../shared/records';
import type { CaseCountsPort } from '../../../shared/cases';
import type { SweepResult } from '../../../shared/late-payments';
import type { RecordProfile } from '../../../shared/record-profile';
import type { Clock } from '../../../shared/clock';
import type { OrderJournalReads } from '../../orders';
import { htmlFragmentOf } from '../printing/print-html';
import type { PrintJobStore } from '../printing/print-jobs';
import type { PrintService } from '../printing/print-service';
import type { RecordsSettingsStore } from '../records-settings';
import { shiftReportCsv } from './shift-csv';
import { shiftReportDoc, shiftReportTitle } from './shift-report-doc';
import type { ShiftStore } from './shift-store';
import { shiftTotals } from './shift-totals';
import type { DrawerStore } from './drawer-store';
import { checkCount } from '../../../shared/drawer';
import {
  countOf,
  drawerProblems,
  recordDrop,
  requireCount,
  scopeOf,
  type CloseCount,
  type DropTyped,
} from './shift-drawer';
import type { TopupTotalsSource } from './topup-totals';

/** @internal for tests */
export interface ShiftDeps {
  orders: OrderJournalReads;
  shifts: ShiftStore;
  drawer: DrawerStore;
  topups: TopupTotalsSource;
  settings: RecordsSettingsStore;
  counterName: () => string;
  /** The active profile: a shift records the one it was opened under. */
  profile: () => RecordProfile;
  jobs: PrintJobStore;
  printer: PrintService;
  clock: Clock;
  onShift: (shift: ShiftView | null) => void;
  /** The complaint cases' counts (the cases module's port; left out: no cases' lines). */
  cases?: CaseCountsPort;
}

const MAX_FLOAT_KOBO = 100_000_000; // ₦1,000,000: a typo guard for a cash drawer's float

export function createShiftService(d: ShiftDeps) {
  const now = () => d.clock.now();

  function requireOpen(): ShiftView {
    const s = d.shifts.current();
    if (!s) throw new AppError('NOT_READY', 'No shift is open. Open a shift first.');
    return s;
  }

  function build(kind: 'X' | 'Z', shift: ShiftView, at: number): Omit<ShiftReport, 'id'> {
    const { cinema } = d.settings.get();
    return {
      kind,
      shift,
      generatedAt: at,
      cinemaName: cinema.name,
      branch: cinema.branch,
      counterName: d.counterName(),
      totals: {
        ...shiftTotals(
          d.orders,
          d.topups,
          shift.openedAt,
          at,
          scopeOf(shift),
          d.shifts.closedBefore(shift.openedAt),
          d.drawer.facts(shift, at),
        ),
        ...(d.cases ? { cases: d.cases.counts(shift.openedAt, at, scopeOf(shift).excludeDemo) } : {}),
      },
    };
  }

  /** A kept Z report by its number, or the open shift's X report now. */
  function reportOf(id: number | undefined): ShiftReport {
    if (id === undefined) return { ...build('X', requireOpen(), now()), id: null };
    const r = d.shifts.report(id);
    if (!r) throw new AppError('NOT_FOUND', `There is no Z report #${id}.`, { id });
    return r;
  }

  function viewOf(r: ShiftReport): ShiftReportView {
    const paper = d.settings.get().printing.paper;
    const reprint = r.id !== null && d.jobs.wasPrinted('shift-report', r.id);
    return { report: r, paper, html: htmlFragmentOf(shiftReportDoc(r, reprint), paper) };
  }

  const jobOf = (r: ShiftReport) => {
    const reprint = r.id !== null && d.jobs.wasPrinted('shift-report', r.id);
    return {
      kind: 'shift-report' as const,
      ...(r.id !== null ? { reportId: r.id } : {}),
      title: `${reprint ? 'Reprint of ' : ''}${shiftReportTitle(r)}`,
      payload: { report: r },
      reprint,
      profile: r.shift.profile ?? 'unrecorded',
    };
  };

  return {
    current(): ShiftView | null {
      return d.shifts.current();
    },

    open(cashier: string, openingFloat: string): ShiftView {
      let floatKobo: number | null = null;
      if (openingFloat.trim() !== '') {
        try {
          floatKobo = parseNaira(openingFloat);
        } catch (e) {
          if (e instanceof MoneyFormatError)
            throw validationError({
              openingFloat: 'Enter the float in naira, for example 5000 or 5,000.00 (or leave it empty)',
            });
          throw e;
        }
        if (floatKobo > MAX_FLOAT_KOBO)
          throw validationError({
            openingFloat: `That float looks wrong (over ${formatNaira(MAX_FLOAT_KOBO)}): check it`,
          });
      }
      const s = d.shifts.open(cashier, floatKobo, now(), d.profile());
      d.onShift(s);
      return s;
    },

    report(id?: number): ShiftReportView {
      return viewOf(reportOf(id));
    },

    requireOpen,

    /** Refuses a close whose count is wrong or missing before the provider is asked anything (the close checks again). */
    checkClose(count: CloseCount): void {
      const shift = requireOpen();
      const { countedKobo, by } = countOf(shift, count);
      if (countedKobo === null) return requireCount(build('X', shift, now()).totals);
      const c = checkCount({ countedKobo, by, at: now() });
      if (!c.ok) throw drawerProblems(c.problems, 'counted');
    },

    /** A cash drop to the safe from the open shift's drawer: refused above what the drawer should hold then. */
    drop(a: DropTyped): ShiftReportView {
      const shift = requireOpen();
      const drop = recordDrop(d, shift, a, now);
      // The X just after it holds it, even in the same millisecond (a window ends before its `to`).
      return viewOf({ ...build('X', shift, Math.max(now(), drop.at + 1)), id: null });
    },

    /**
     * `sweep`: the reconciliation sweep run just before (its line goes on the Z report). `count`:
     * the cash counted in the drawer, kept with the close; needed when the shift had a float or took cash.
     */
    close(acceptOpen: boolean, sweep: SweepResult | null = null, count: CloseCount = {}): ShiftReportView {
      const shift = requireOpen();
      const { countedKobo, by } = countOf(shift, count);
      const report = d.shifts.close(shift.id, now(), (closed) => {
        const at = closed.closedAt ?? now();
        if (countedKobo !== null) {
          const c = checkCount({ countedKobo, by, at });
          if (!c.ok) throw drawerProblems(c.problems, 'counted');
          d.drawer.addCount(shift.id, c.value);
        }
        const built = build('Z', closed, at);
        if (countedKobo === null) requireCount(built.totals); // thrown inside the transaction: the shift stays open
        const draft = { ...built, totals: { ...built.totals, sweep } };
        const open = draft.totals.openItems;
        if (open.length > 0 && !acceptOpen) {
          throw new AppError(
            'CONFLICT',
            `${open.length} payment${open.length === 1 ? ' has' : 's have'} no outcome yet. Check ${open.length === 1 ? 'it' : 'them'} first, or close anyway.`,
            {
              openItems: open.map((i) => ({ ref: i.ref, label: i.label, amountKobo: i.amountKobo })),
            },
          ); // thrown inside the transaction: the shift stays open
        }
        return draft;
      });
      d.onShift(null);
      return viewOf(report);
    },

    reports(limit: number, beforeId?: number): ZReportSummary[] {
      return d.shifts.reports(limit, beforeId);
    },

    print(id?: number): Promise<PrintJobView> {
      return d.printer.submit(jobOf(reportOf(id)));
    },

    browserPrinted(id: number): PrintJobView {
      return d.printer.recordBrowserPrint(jobOf(reportOf(id)));
    },

    jobs(id: number): PrintJobView[] {
      return d.jobs.forReport(id);
    },

    exportCsv(id?: number): { fileName: string; csv: string } {
      return shiftReportCsv(reportOf(id));
    },
  };
}
