// A word index of the order journal for searching parts of order numbers, films and seats: an FTS5
// trigram table brought up to date when a search asks (the orders added since, and those the
// checkout's order events named as changed, noted here by the records module), and at start for
// what a restart lost. Nothing is written on a sale's path: no trigger touches the journal, and a
// create's commits carry no index pages (issue 37).
import { seatList } from '../../shared/seat-list';
import type { Db } from '../db';

/** Orders whose numbers may still be filled in (payNo arrives after the payment) are re-read at start. */
const RECHECK_MS = 3 * 86_400_000;
const BATCH = 2_000;
/** Past this many orders noted as changed since the last search, their words are written at once. */
const MAX_CHANGED = 2_000;

type Row = {
  id: number;
  out_order_no: string;
  order_no: string | null;
  pay_no: string | null;
  sender_account: string | null;
  film_name: string;
  film_title: string;
  seats: string;
  late_pay_no: string | null;
  late_account: string | null;
};

/** The columns indexed, with a payment taken after closing (its own payment number and card). */
const SELECT = `SELECT o.id, o.out_order_no, o.order_no, o.pay_no, o.sender_account, o.film_name, o.film_title, o.seats,
  l.pay_no AS late_pay_no, l.sender_account AS late_account FROM orders o LEFT JOIN order_late l ON l.order_id = o.id`;

/** The card's last four digits as the provider shows them masked ("******6789" -> "6789"). */
const lastFour = (account: string | null): string => (account ?? '').replace(/\D/g, '').slice(-4);

/**
 * Seats are stored as "#F7# #F8#" so that a seat matches whole (F1 does not find F12).
 * @internal for tests
 */
export function seatTokens(seats: string): string {
  return seatList(seats)
    .map((s) => `#${s}#`)
    .join(' ');
}

function refsOf(r: Row): string {
  return [
    r.out_order_no,
    r.order_no ?? '',
    r.pay_no ?? '',
    lastFour(r.sender_account),
    r.late_pay_no ?? '',
    lastFour(r.late_account),
  ].join(' ');
}

export class OrderTextIndex {
  /** Orders whose words may have changed since the last search (a restart loses them: start's recheck finds them). */
  private readonly stale = new Set<number>();

  constructor(private readonly db: Db) {}

  /** Order `id` may have new words (a checkout order event): noted, written at the next search. */
  changed(id: number): void {
    this.stale.add(id);
    if (this.stale.size >= MAX_CHANGED) this.upToDate();
  }

  /** Before a search: the orders added since the last time, and those noted as changed. */
  upToDate(): void {
    this.catchUp();
    const ids = [...this.stale];
    this.refreshMany(ids);
    for (const id of ids) this.stale.delete(id);
  }

  /**
   * The index is derived from the journal (catchUp and recheckRecent rebuild what a crash lost), so
   * its commits do not wait for the disk: synchronous NORMAL for them (in WAL, no flush at commit;
   * the journal's next commit flushes them too), then the connection's own setting again. A create,
   * which refreshes on each of its order events, no longer waits on two flushes of its own (issue 28).
   */
  private write(rows: Row[]): void {
    const del = this.db.prepare('DELETE FROM records_order_text WHERE rowid = ?');
    const ins = this.db.prepare('INSERT INTO records_order_text (rowid, refs, film, seats) VALUES (?, ?, ?, ?)');
    const tx = this.db.transaction(() => {
      for (const r of rows) {
        del.run(r.id);
        ins.run(r.id, refsOf(r), `${r.film_name} ${r.film_title}`, seatTokens(r.seats));
      }
    });
    const was = Number(this.db.pragma('synchronous', { simple: true }));
    if (was <= 1 || this.db.inTransaction) return tx();
    this.db.pragma('synchronous = NORMAL');
    try {
      tx();
    } finally {
      this.db.pragma(`synchronous = ${was}`);
    }
  }

  /** Is the order's row in the index already what it would be written as? */
  private same(r: Row): boolean {
    const had = this.db.prepare('SELECT refs, film, seats FROM records_order_text WHERE rowid = ?').get(r.id) as
      { refs: string; film: string; seats: string } | undefined;
    return (
      had !== undefined &&
      had.refs === refsOf(r) &&
      had.film === `${r.film_name} ${r.film_title}` &&
      had.seats === seatTokens(r.seats)
    );
  }

  private maxIndexed(): number {
    return (this.db.prepare('SELECT ifnull(max(rowid), 0) AS m FROM records_order_text').get() as { m: number }).m;
  }

  /** Indexes orders written since the last time (new rows only; cheap when there are none). */
  catchUp(): number {
    const sel = this.db.prepare(`${SELECT} WHERE o.id > ? ORDER BY o.id LIMIT ?`);
    let total = 0;
    for (;;) {
      const rows = sel.all(this.maxIndexed(), BATCH) as Row[];
      if (rows.length === 0) return total;
      this.write(rows);
      total += rows.length;
    }
  }

  /** Re-reads one order (its numbers may have been filled in); no write when its words are unchanged. */
  refresh(id: number): void {
    this.refreshMany([id]);
  }

  /** Re-reads these orders; those whose words changed are written in one commit. How many were. */
  refreshMany(ids: readonly number[]): number {
    const sel = this.db.prepare(`${SELECT} WHERE o.id = ?`);
    const stale = ids.map((id) => sel.get(id) as Row | undefined).filter((r): r is Row => !!r && !this.same(r));
    if (stale.length) this.write(stale);
    return stale.length;
  }

  /** At start: recent orders whose numbers changed while nobody was listening. */
  recheckRecent(now: number): number {
    const rows = this.db
      .prepare(`${SELECT} JOIN records_order_text t ON t.rowid = o.id WHERE o.created_at >= ?`)
      .all(now - RECHECK_MS) as (Row & { refs?: string })[];
    const refs = this.db.prepare('SELECT refs FROM records_order_text WHERE rowid = ?');
    const stale = rows.filter((r) => (refs.get(r.id) as { refs: string } | undefined)?.refs !== refsOf(r));
    if (stale.length) this.write(stale);
    return stale.length;
  }
}
