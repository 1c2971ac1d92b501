// The top-up journal's reads (TopupJournal, topup-journal.ts, adds the writes): batches and their
// totals, items by id, reference, owner and state, the next chunk to send, a batch's items and row
// errors, a day's singles, an item's history. Statements are prepared once and kept.
import type { Statement } from 'better-sqlite3';
import type { Db } from '../db';
import { TOPUP_STATES, type BatchState, type RowError, type TopupState } from '../../shared/topups';
import {
  ITEM_FILTERS,
  toBatch,
  toItem,
  type BatchRecord,
  type BatchTotals,
  type Owner,
  type Row,
  type TopupRecord,
} from './topup-rows';

export class TopupJournalQueries {
  /** Prepared once: a batch makes tens of thousands of writes. */
  private readonly statements = new Map<string, Statement>();

  constructor(protected readonly db: Db) {}

  protected stmt(sql: string): Statement {
    let s = this.statements.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s;
  }

  batch(id: number): BatchRecord | null {
    const r = this.stmt('SELECT * FROM topup_batches WHERE id = ?').get(id) as Row | undefined;
    return r ? toBatch(r) : null;
  }

  listBatches(limit: number): BatchRecord[] {
    return (
      this.stmt("SELECT * FROM topup_batches WHERE state != 'discarded' ORDER BY id DESC LIMIT ?").all(limit) as Row[]
    ).map(toBatch);
  }

  batchesIn(states: readonly BatchState[]): BatchRecord[] {
    const marks = states.map(() => '?').join(',');
    return (this.stmt(`SELECT * FROM topup_batches WHERE state IN (${marks}) ORDER BY id`).all(...states) as Row[]).map(
      toBatch,
    );
  }

  totals(batchId: number): BatchTotals {
    const rows = this.db
      .prepare(
        `SELECT state, COUNT(*) AS n, SUM(amount_kobo) AS kobo, SUM(attempts > 0) AS sent, SUM(service_type = 'betting') AS betting
         FROM topups WHERE batch_id = ? GROUP BY state`,
      )
      .all(batchId) as { state: TopupState; n: number; kobo: number; sent: number; betting: number }[];
    const counts = Object.fromEntries(TOPUP_STATES.map((s) => [s, 0])) as Record<TopupState, number>;
    const amounts = { ...counts };
    const t: BatchTotals = { counts, amounts, items: 0, sent: 0, totalKobo: 0, successKobo: 0, bettingRows: 0 };
    for (const r of rows) {
      counts[r.state] = r.n;
      amounts[r.state] = r.kobo;
      t.items += r.n;
      t.sent += r.sent;
      t.totalKobo += r.kobo;
      t.bettingRows += r.betting;
      if (r.state === 'success') t.successKobo = r.kobo;
    }
    return t;
  }

  countOpen(batchId: number): number {
    return (
      this.stmt(
        "SELECT COUNT(*) AS n FROM topups WHERE batch_id = ? AND state IN ('draft','queued','sending','unknown','pending')",
      ).get(batchId) as { n: number }
    ).n;
  }

  rowErrors(batchId: number, offset: number, limit: number): { total: number; errors: RowError[] } {
    const total = (
      this.stmt('SELECT COUNT(*) AS n FROM topup_row_errors WHERE batch_id = ?').get(batchId) as { n: number }
    ).n;
    const rows = this.stmt(
      'SELECT line, col, message FROM topup_row_errors WHERE batch_id = ? ORDER BY line, id LIMIT ? OFFSET ?',
    ).all(batchId, limit, offset) as { line: number; col: string; message: string }[];
    return { total, errors: rows.map((r) => ({ line: r.line, column: r.col, message: r.message })) };
  }

  // ---- reading items ----

  get(id: number): TopupRecord | null {
    const r = this.stmt('SELECT * FROM topups WHERE id = ?').get(id) as Row | undefined;
    return r ? toItem(r) : null;
  }

  getMany(ids: number[]): TopupRecord[] {
    const one = this.stmt('SELECT * FROM topups WHERE id = ?');
    const out: TopupRecord[] = [];
    for (const id of [...ids].sort((a, b) => a - b)) {
      const r = one.get(id) as Row | undefined;
      if (r) out.push(toItem(r));
    }
    return out;
  }

  byReference(billsMerchantId: string, reference: string): TopupRecord | null {
    const r = this.stmt('SELECT * FROM topups WHERE bills_merchant_id = ? AND reference = ?').get(
      billsMerchantId,
      reference,
    ) as Row | undefined;
    return r ? toItem(r) : null;
  }

  /** Items of an owner in the given states, oldest first. */
  inStates(owner: Owner, states: readonly TopupState[]): TopupRecord[] {
    const marks = states.map(() => '?').join(',');
    return (
      this.db
        .prepare(`SELECT * FROM topups WHERE profile = ? AND bills_merchant_id = ? AND state IN (${marks}) ORDER BY id`)
        .all(owner.profile, owner.billsMerchantId, ...states) as Row[]
    ).map(toItem);
  }

  /** Every item in one of these states, whoever owns it (start-up). */
  anyInStates(states: readonly TopupState[]): TopupRecord[] {
    const marks = states.map(() => '?').join(',');
    return (this.stmt(`SELECT * FROM topups WHERE state IN (${marks}) ORDER BY id`).all(...states) as Row[]).map(
      toItem,
    );
  }

  /**
   * The next items to send for an owner: singles first, then running batches in order; one
   * service type and one batch per chunk, in file order.
   */
  nextChunk(owner: Owner, limitFor: (batchId: number | null) => number): TopupRecord[] {
    const first = this.db
      .prepare(
        `SELECT t.* FROM topups t LEFT JOIN topup_batches b ON b.id = t.batch_id
         WHERE t.state = 'queued' AND t.profile = ? AND t.bills_merchant_id = ? AND (t.batch_id IS NULL OR b.state = 'running')
         ORDER BY t.batch_id IS NOT NULL, t.batch_id, t.id LIMIT 1`,
      )
      .get(owner.profile, owner.billsMerchantId) as Row | undefined;
    if (!first) return [];
    const head = toItem(first);
    const limit = Math.max(1, limitFor(head.batchId));
    const rows =
      head.batchId === null
        ? (this.db
            .prepare(
              "SELECT * FROM topups WHERE state = 'queued' AND batch_id IS NULL AND profile = ? AND bills_merchant_id = ? AND service_type = ? ORDER BY id LIMIT ?",
            )
            .all(owner.profile, owner.billsMerchantId, head.serviceType, limit) as Row[])
        : (this.db
            .prepare(
              "SELECT * FROM topups WHERE state = 'queued' AND batch_id = ? AND service_type = ? ORDER BY id LIMIT ?",
            )
            .all(head.batchId, head.serviceType, limit) as Row[]);
    return rows.map(toItem);
  }

  batchItems(
    batchId: number,
    filter: keyof typeof ITEM_FILTERS,
    offset: number,
    limit: number,
  ): { total: number; items: TopupRecord[] } {
    const where = `batch_id = ? AND ${ITEM_FILTERS[filter]}`;
    const total = (this.stmt(`SELECT COUNT(*) AS n FROM topups WHERE ${where}`).get(batchId) as { n: number }).n;
    const rows = this.stmt(`SELECT * FROM topups WHERE ${where} ORDER BY line, id LIMIT ? OFFSET ?`).all(
      batchId,
      limit,
      offset,
    ) as Row[];
    return { total, items: rows.map(toItem) };
  }

  /** Every item of a batch in file order (exports). */
  allOfBatch(batchId: number): TopupRecord[] {
    return (this.stmt('SELECT * FROM topups WHERE batch_id = ? ORDER BY line, id').all(batchId) as Row[]).map(toItem);
  }

  /** Draft betting items of a batch (the customer check). */
  draftBetting(batchId: number): TopupRecord[] {
    return (
      this.stmt(
        "SELECT * FROM topups WHERE batch_id = ? AND state = 'draft' AND service_type = 'betting' ORDER BY id",
      ).all(batchId) as Row[]
    ).map(toItem);
  }

  /** Single top-ups of a business day, newest first. */
  singlesOfDay(day: string, limit: number): TopupRecord[] {
    return (
      this.stmt('SELECT * FROM topups WHERE batch_id IS NULL AND business_day = ? ORDER BY id DESC LIMIT ?').all(
        day,
        limit,
      ) as Row[]
    ).map(toItem);
  }

  history(id: number): { at: number; from: TopupState | null; to: TopupState; note: string }[] {
    return (
      this.stmt('SELECT at, from_state, to_state, note FROM topup_events WHERE topup_id = ? ORDER BY id').all(
        id,
      ) as Row[]
    ).map((r) => ({
      at: r.at as number,
      from: (r.from_state as TopupState | null) ?? null,
      to: r.to_state as TopupState,
      note: r.note as string,
    }));
  }
}
