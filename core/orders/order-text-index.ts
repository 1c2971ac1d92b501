// A word index of the order journal for searching parts of order numbers, films and seats: an FTS5
// trigram table this module owns and keeps in step from the checkout's order events (and catches
// up from the journal at start and before each search). No trigger touches the journal itself, so
// nothing here can ever hold up a sale.
import type { Db } from '../db';

/** Orders whose numbers may still be filled in (payNo arrives after the payment) are re-read at start. */
const RECHECK_MS = 3 * 86_400_000;
const BATCH = 2_000;

type Row = { id: number; out_order_no: string; order_no: string | null; pay_no: string | null; film_name: string; film_title: string; seats: string };

/** Seats are stored as "#F7# #F8#" so that a seat matches whole (F1 does not find F12). */
export function seatTokens(seats: string): string {
  return seats.split(',').filter((s) => s !== '').map((s) => `#${s}#`).join(' ');
}

function refsOf(r: Row): string {
  return [r.out_order_no, r.order_no ?? '', r.pay_no ?? ''].join(' ');
}

export class OrderTextIndex {
  constructor(private readonly db: Db) {}

  private write(rows: Row[]): void {
    const del = this.db.prepare('DELETE FROM records_order_text WHERE rowid = ?');
    const ins = this.db.prepare('INSERT INTO records_order_text (rowid, refs, film, seats) VALUES (?, ?, ?, ?)');
    this.db.transaction(() => {
      for (const r of rows) {
        del.run(r.id);
        ins.run(r.id, refsOf(r), `${r.film_name} ${r.film_title}`, seatTokens(r.seats));
      }
    })();
  }

  private maxIndexed(): number {
    return (this.db.prepare('SELECT ifnull(max(rowid), 0) AS m FROM records_order_text').get() as { m: number }).m;
  }

  /** Indexes orders written since the last time (new rows only; cheap when there are none). */
  catchUp(): number {
    const sel = this.db.prepare('SELECT id, out_order_no, order_no, pay_no, film_name, film_title, seats FROM orders WHERE id > ? ORDER BY id LIMIT ?');
    let total = 0;
    for (;;) {
      const rows = sel.all(this.maxIndexed(), BATCH) as Row[];
      if (rows.length === 0) return total;
      this.write(rows);
      total += rows.length;
    }
  }

  /** Re-reads one order (its numbers may have been filled in). */
  refresh(id: number): void {
    const r = this.db.prepare('SELECT id, out_order_no, order_no, pay_no, film_name, film_title, seats FROM orders WHERE id = ?').get(id) as Row | undefined;
    if (r) this.write([r]);
  }

  /** At start: recent orders whose numbers changed while nobody was listening. */
  recheckRecent(now: number): number {
    const rows = this.db
      .prepare(
        `SELECT o.id, o.out_order_no, o.order_no, o.pay_no, o.film_name, o.film_title, o.seats FROM orders o
         JOIN records_order_text t ON t.rowid = o.id
         WHERE o.created_at >= ? AND t.refs <> (o.out_order_no || ' ' || ifnull(o.order_no, '') || ' ' || ifnull(o.pay_no, ''))`,
      )
      .all(now - RECHECK_MS) as Row[];
    if (rows.length) this.write(rows);
    return rows.length;
  }
}
