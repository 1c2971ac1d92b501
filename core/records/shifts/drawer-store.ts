// A shift's cash drawer in SQLite (tables of records-007-drawer): the drops to the safe, the counts,
// and cash paid out by hand (drawer_paid_out: none written yet). A cash refund after the sale is the
// orders' (order_refunds), read by the ledger as the drawer's cash paid out (shared/ledger-refunds.ts).
// The arithmetic and the checks are shared/drawer.ts's; the shift service judges a drop before it is
// kept here.
import type { DrawerCount, DrawerDrop, DrawerPaidOut } from '../../../shared/drawer';
import type { LedgerDrawer } from '../../../shared/ledger';
import type { Db } from '../../db';

export class DrawerStore {
  constructor(private readonly db: Db) {}

  drops(shiftId: number): DrawerDrop[] {
    const rows = this.db
      .prepare(
        'SELECT amount_kobo AS amountKobo, by_name AS by, at, note FROM shift_drops WHERE shift_id = ? ORDER BY at, id',
      )
      .all(shiftId) as (Omit<DrawerDrop, 'note'> & { note: string | null })[];
    return rows.map(({ note, ...d }) => (note ? { ...d, note } : d));
  }

  counts(shiftId: number): DrawerCount[] {
    return this.db
      .prepare(
        'SELECT counted_kobo AS countedKobo, by_name AS by, at FROM shift_counts WHERE shift_id = ? ORDER BY at, id',
      )
      .all(shiftId) as DrawerCount[];
  }

  /** Cash paid out to customers in [from, to]. */
  paidOut(from: number, to: number): DrawerPaidOut[] {
    return this.db
      .prepare(
        'SELECT order_ref AS ref, at, amount_kobo AS amountKobo FROM drawer_paid_out WHERE at >= ? AND at <= ? ORDER BY at, id',
      )
      .all(from, to) as DrawerPaidOut[];
  }

  /** The shift's drawer as the ledger reads it, up to `to`. */
  facts(shift: { id: number; openedAt: number; openingFloatKobo: number | null }, to: number): LedgerDrawer {
    return {
      floatKobo: shift.openingFloatKobo ?? 0,
      cashPaidOut: this.paidOut(shift.openedAt, to),
      drops: this.drops(shift.id),
      counts: this.counts(shift.id),
    };
  }

  /** Keeps a drop `check` accepted, judged inside the same transaction (no sale or drop slips between). */
  addDrop(shiftId: number, check: () => DrawerDrop): DrawerDrop {
    return this.db
      .transaction(() => {
        const d = check();
        this.db
          .prepare('INSERT INTO shift_drops (shift_id, amount_kobo, by_name, at, note) VALUES (?, ?, ?, ?, ?)')
          .run(shiftId, d.amountKobo, d.by, d.at, d.note ?? null);
        return d;
      })
      .immediate();
  }

  /** Keeps a count (called inside the close's transaction). */
  addCount(shiftId: number, c: DrawerCount): void {
    this.db
      .prepare('INSERT INTO shift_counts (shift_id, counted_kobo, by_name, at) VALUES (?, ?, ?, ?)')
      .run(shiftId, c.countedKobo, c.by, c.at);
  }
}
