// Shifts and their kept Z reports in SQLite: one open shift at a time (the database refuses a
// second), closed together with its report in one transaction. The Hub's outbox gets the opening
// (`shift.opened`), the closing (`shift.closed`) and the Z report (`zreport`) in those same transactions.
import { AppError } from '../../../shared/errors';
import { ShiftReportSchema, type ShiftReport, type ShiftView, type ZReportSummary } from '../../../shared/records';
import type { RecordProfile } from '../../../shared/record-profile';
import type { Statement } from 'better-sqlite3';
import type { Db } from '../../db';
import { clipText, NO_JOURNAL_SINK, type JournalSink } from '../../journal-sink';
import { takenKobo } from './shift-report-doc';
import { basketHubLines } from './shift-report-basket';
import { ledgerLines } from '../../../shared/ledger';

type Row = Record<string, unknown>;

function toView(r: Row): ShiftView {
  return {
    id: r.id as number,
    cashier: r.cashier as string,
    openedAt: r.opened_at as number,
    openingFloatKobo: (r.opening_float_kobo as number | null) ?? null,
    closedAt: (r.closed_at as number | null) ?? null,
    profile: (r.profile as RecordProfile | undefined) ?? 'unrecorded',
  };
}

const whole = (n: number) => Math.max(0, Math.round(n));

/**
 * A Z report as the Hub keeps it: the ledger's lines in its words (shared/ledger.ts), each count of
 * payments; `totalKobo`/`count` are the card total (top-ups apart, on their own lines).
 * @internal for tests
 */
export function zReportEvent(r: ShiftReport & { id: number }) {
  const t = r.totals;
  const lines = [
    ...ledgerLines(t).map((l) => ({ label: clipText(l.label, 80), kobo: whole(l.amountKobo), count: l.count })),
    // The sales total, the tenders and the drawer (over/short as "Over" or "Short" and its amount).
    ...basketHubLines(t).map((l) => ({ label: clipText(l.label, 80), kobo: whole(l.kobo), count: whole(l.count) })),
    ...t.topups.lines.map((l) => ({
      label: clipText(`Top-ups: ${l.label} (not in card total)`, 80),
      kobo: whole(l.amountKobo),
      count: Math.max(0, l.count),
    })),
  ].slice(0, 200);
  return {
    shiftId: String(r.shift.id),
    reportNo: r.id,
    from: whole(r.shift.openedAt),
    to: whole(r.shift.closedAt ?? r.generatedAt),
    totalKobo: takingsOf(r),
    count: Math.max(0, t.card.count),
    lines,
  };
}

/** What the shift took, as the Hub is told: the ledger's card total (top-ups apart). */
const takingsOf = (r: ShiftReport) => whole(takenKobo(r));

export class ShiftStore {
  private cashierAtStmt: Statement | undefined;
  /** `sink`: where the shift's events also go, in their transactions (the Hub's outbox; none in some tests). */
  constructor(
    private readonly db: Db,
    private readonly sink: JournalSink = NO_JOURNAL_SINK,
  ) {}

  current(): ShiftView | null {
    const r = this.db.prepare('SELECT * FROM shifts WHERE closed_at IS NULL ORDER BY id DESC LIMIT 1').get() as
      Row | undefined;
    return r ? toView(r) : null;
  }

  /** When the last shift closed before `at` (0 when none had): sales since then, before a new shift, had none. */
  closedBefore(at: number): number {
    const r = this.db
      .prepare('SELECT MAX(closed_at) AS t FROM shifts WHERE closed_at IS NOT NULL AND closed_at <= ?')
      .get(at) as { t: number | null };
    return r.t ?? 0;
  }

  get(id: number): ShiftView | null {
    const r = this.db.prepare('SELECT * FROM shifts WHERE id = ?').get(id) as Row | undefined;
    return r ? toView(r) : null;
  }

  /** `profile`: the active profile; a Demo shift's totals are Demo's, a real shift's never are. */
  open(cashier: string, openingFloatKobo: number | null, at: number, profile: RecordProfile = 'unrecorded'): ShiftView {
    const tx = this.db.transaction(() => {
      const cur = this.current();
      if (cur)
        throw new AppError('CONFLICT', `${cur.cashier}’s shift is still open. Close it before opening a new one.`, {
          shiftId: cur.id,
        });
      const info = this.db
        .prepare('INSERT INTO shifts (cashier, opened_at, opening_float_kobo, profile) VALUES (?, ?, ?, ?)')
        .run(cashier, at, openingFloatKobo, profile);
      const id = Number(info.lastInsertRowid);
      this.sink.append(
        'shift.opened',
        {
          shiftId: String(id),
          cashier: clipText(cashier, 80),
          ...(openingFloatKobo !== null ? { floatKobo: whole(openingFloatKobo) } : {}),
          profile: clipText(profile, 32),
        },
        at,
      );
      return id;
    });
    const id = tx.immediate();
    return this.get(id)!;
  }

  /**
   * Closes the open shift `id` at `at` and keeps its Z report, built inside the same transaction
   * (so no order can slip between the totals and the close).
   */
  close(id: number, at: number, build: (shift: ShiftView) => Omit<ShiftReport, 'id'>): ShiftReport {
    const tx = this.db.transaction((): ShiftReport => {
      const cur = this.get(id);
      if (!cur) throw new AppError('NOT_FOUND', `There is no shift ${id}.`, { id });
      if (cur.closedAt !== null) throw new AppError('CONFLICT', 'This shift is closed already.', { id });
      this.db.prepare('UPDATE shifts SET closed_at = ? WHERE id = ?').run(at, id);
      const closed = { ...cur, closedAt: at };
      const draft = build(closed);
      const info = this.db
        .prepare('INSERT INTO shift_reports (shift_id, created_at, report_json) VALUES (?, ?, ?)')
        .run(id, at, '{}');
      const report: ShiftReport = { ...draft, id: Number(info.lastInsertRowid) };
      this.db.prepare('UPDATE shift_reports SET report_json = ? WHERE id = ?').run(JSON.stringify(report), report.id);
      this.sink.append(
        'shift.closed',
        { shiftId: String(id), cashier: clipText(cur.cashier, 80), cardTotalKobo: takingsOf(report) },
        at,
      );
      this.sink.append('zreport', zReportEvent({ ...report, id: report.id as number }), at);
      return report;
    });
    return tx.immediate();
  }

  report(id: number): ShiftReport | null {
    const r = this.db.prepare('SELECT report_json FROM shift_reports WHERE id = ?').get(id) as
      { report_json: string } | undefined;
    return r ? ShiftReportSchema.parse(JSON.parse(r.report_json)) : null;
  }

  /** Kept Z reports, newest first. */
  reports(limit: number, beforeId?: number): ZReportSummary[] {
    const rows = this.db
      .prepare('SELECT id, report_json FROM shift_reports WHERE id < ? ORDER BY id DESC LIMIT ?')
      .all(beforeId ?? Number.MAX_SAFE_INTEGER, limit) as { id: number; report_json: string }[];
    return rows.map((r) => {
      const rep = ShiftReportSchema.parse(JSON.parse(r.report_json));
      return {
        id: r.id,
        shiftId: rep.shift.id,
        cashier: rep.shift.cashier,
        openedAt: rep.shift.openedAt,
        closedAt: rep.shift.closedAt ?? rep.generatedAt,
        paid: {
          count: rep.totals.paid.count + rep.totals.paidLate.count + rep.totals.paidAfterClosing.count,
          amountKobo: takenKobo(rep),
        },
        openCount: rep.totals.openItems.length,
      };
    });
  }

  /** The shift open at `at` (null when none was): an undo after a sale is counted in it. */
  openAt(at: number): { id: number; cashier: string } | null {
    const r = this.db
      .prepare(
        'SELECT id, cashier FROM shifts WHERE opened_at <= ? AND (closed_at IS NULL OR closed_at > ?) ORDER BY opened_at DESC LIMIT 1',
      )
      .get(at, at) as { id: number; cashier: string } | undefined;
    return r ?? null;
  }

  /** The cashier of the shift that was open at `at` ('' when none was). */
  cashierAt(at: number): string {
    // Asked inside every sale's journal transaction: prepared once.
    this.cashierAtStmt ??= this.db.prepare(
      'SELECT cashier FROM shifts WHERE opened_at <= ? AND (closed_at IS NULL OR closed_at > ?) ORDER BY opened_at DESC LIMIT 1',
    );
    const r = this.cashierAtStmt.get(at, at) as { cashier: string } | undefined;
    return r?.cashier ?? '';
  }
}
