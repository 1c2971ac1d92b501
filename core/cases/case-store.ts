// The cases of the complaint desk (table `cases`): opened with what the customer said and what the
// counter found, resolved once (how, by whom). Each write and its sync event ('case.opened',
// 'case.resolved') commit together: the journal first, the Hub's outbox in the same transaction.
import {
  caseNumber,
  type CaseResolution,
  type CaseCounts,
  type CaseCountsPort,
  type CaseTruth,
  type CaseView,
  type ComplaintSearch,
} from '../../shared/cases';
import { AppError } from '../../shared/errors';
import type { RecordProfile } from '../../shared/record-profile';
import type { Db } from '../db';
import { clipText, NO_JOURNAL_SINK, type JournalSink } from '../journal-sink';
import type { Row } from '../lib';

/** What the counter found about the payment the case is about (null: nothing found yet). */
export interface CaseFinding {
  orderId: number | null;
  outOrderNo: string;
  amountKobo: number;
  truth: CaseTruth | null;
  providerStatus: string | null;
  askedAt: number | null;
}

export interface NewCase {
  search: ComplaintSearch;
  customer: string;
  openedBy: string;
  found: CaseFinding | null;
  at: number;
  /** This counter's code (the sale numbers' prefix): the case number starts with it. */
  code: string;
  profile: RecordProfile;
}

const opt = <T>(v: unknown): T | null => (v === null || v === undefined ? null : (v as T));

function toView(r: Row): CaseView {
  const search = JSON.parse(r.search_json as string) as CaseView['search'];
  const providerStatus = opt<string>(r.provider_status);
  const askedAt = opt<number>(r.asked_at);
  return {
    id: r.id as number,
    caseNo: r.case_no as string,
    openedAt: r.opened_at as number,
    openedBy: r.opened_by as string,
    search,
    customer: r.customer as string,
    orderId: opt<number>(r.order_id),
    outOrderNo: opt<string>(r.out_order_no),
    truth: opt<CaseTruth>(r.truth),
    proof: providerStatus !== null && askedAt !== null ? { providerStatus, askedAt } : null,
    resolution: opt<CaseResolution>(r.resolution),
    resolvedBy: opt<string>(r.resolved_by),
    resolvedAt: opt<number>(r.resolved_at),
    note: r.note as string,
  };
}

/** What the customer said, as kept on the case (only what they gave). */
function searchKept(s: ComplaintSearch): CaseView['search'] {
  return {
    ...(s.last4 !== undefined ? { last4: s.last4.trim() } : {}),
    ...(s.amountKobo !== undefined ? { amountKobo: s.amountKobo } : {}),
    ...(s.around !== undefined ? { around: s.around } : {}),
    ...(s.sn ? { sn: s.sn.trim() } : {}),
  };
}

export class CaseStore {
  constructor(
    private readonly db: Db,
    private readonly sink: JournalSink = NO_JOURNAL_SINK,
  ) {}

  get(id: number): CaseView | null {
    const r = this.db.prepare('SELECT * FROM cases WHERE id = ?').get(id) as Row | undefined;
    return r ? toView(r) : null;
  }

  /** The open case about this sale, if any (a second Open case for it gives the first back). */
  openFor(outOrderNo: string): CaseView | null {
    const r = this.db
      .prepare('SELECT * FROM cases WHERE out_order_no = ? AND resolved_at IS NULL ORDER BY id LIMIT 1')
      .get(outOrderNo) as Row | undefined;
    return r ? toView(r) : null;
  }

  /** Open cases, oldest first, then the last `resolved` resolved ones, newest first. */
  list(resolved = 50): CaseView[] {
    const open = this.db.prepare('SELECT * FROM cases WHERE resolved_at IS NULL ORDER BY opened_at, id').all() as Row[];
    const done = this.db
      .prepare('SELECT * FROM cases WHERE resolved_at IS NOT NULL ORDER BY resolved_at DESC, id DESC LIMIT ?')
      .all(resolved) as Row[];
    return [...open, ...done].map(toView);
  }

  countOpen(): number {
    return (this.db.prepare('SELECT COUNT(*) AS n FROM cases WHERE resolved_at IS NULL').get() as { n: number }).n;
  }

  open(c: NewCase): CaseView {
    const tx = this.db.transaction((): CaseView => {
      const seq = (this.db.prepare('SELECT COALESCE(MAX(seq), 0) + 1 AS n FROM cases').get() as { n: number }).n;
      const caseNo = caseNumber(c.code, seq);
      const search = searchKept(c.search);
      const f = c.found;
      const id = Number(
        this.db
          .prepare(
            `INSERT INTO cases (seq, case_no, opened_at, opened_by, search_json, customer, order_id, out_order_no,
               truth, provider_status, asked_at, profile)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          )
          .run(
            seq,
            caseNo,
            c.at,
            c.openedBy,
            JSON.stringify(search),
            c.customer,
            f?.orderId ?? null,
            f?.outOrderNo ?? null,
            f?.truth ?? null,
            f?.providerStatus ?? null,
            f?.askedAt ?? null,
            c.profile,
          ).lastInsertRowid,
      );
      this.sink.append(
        'case.opened',
        {
          caseNo,
          openedBy: clipText(c.openedBy, 80),
          ...(f ? { reference: clipText(f.outOrderNo, 64) } : {}),
          ...(f
            ? { amountKobo: f.amountKobo }
            : search.amountKobo !== undefined
              ? { amountKobo: search.amountKobo }
              : {}),
          ...(search.last4 !== undefined ? { last4: search.last4 } : {}),
          ...(f?.truth ? { truth: f.truth } : {}),
          profile: clipText(c.profile, 32),
        },
        c.at,
      );
      return this.get(id)!;
    });
    return tx.immediate();
  }

  /** Resolves an open case once; a resolved case is not resolved again (CONFLICT). */
  resolve(id: number, r: { resolution: CaseResolution; by: string; note: string }, at: number): CaseView {
    const tx = this.db.transaction((): CaseView => {
      const cur = this.get(id);
      if (!cur) throw new AppError('NOT_FOUND', `There is no case ${id} on this counter.`, { id });
      if (cur.resolvedAt !== null)
        throw new AppError('CONFLICT', `Case ${cur.caseNo} was already resolved by ${cur.resolvedBy ?? 'someone'}.`, {
          id,
        });
      this.db
        .prepare('UPDATE cases SET resolution = ?, resolved_by = ?, resolved_at = ?, note = ? WHERE id = ?')
        .run(r.resolution, r.by, at, r.note, id);
      this.sink.append(
        'case.resolved',
        {
          caseNo: cur.caseNo,
          resolution: r.resolution,
          by: clipText(r.by, 80),
          ...(r.note ? { note: clipText(r.note, 200) } : {}),
        },
        at,
      );
      return this.get(id)!;
    });
    return tx.immediate();
  }
}

/**
 * The cases' counts for a report's window, the records module's port (wired in core/app-core.ts):
 * opened in [from, to), still open at `to` (whenever opened); Demo ones left out when asked.
 */
export function caseCounts(db: Db): CaseCountsPort {
  return {
    counts(from, to, excludeDemo): CaseCounts {
      const real = excludeDemo ? " AND profile != 'demo'" : '';
      const n = (sql: string, ...args: number[]) =>
        (db.prepare(`SELECT COUNT(*) AS n FROM cases WHERE ${sql}${real}`).get(...args) as { n: number }).n;
      return {
        opened: n('opened_at >= ? AND opened_at < ?', from, to),
        stillOpen: n('opened_at < ? AND (resolved_at IS NULL OR resolved_at >= ?)', to, to),
      };
    },
  };
}
