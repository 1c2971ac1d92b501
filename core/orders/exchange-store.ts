// The owner of order_exchanges (orders-010): each exchange's new sale linked to the sale whose
// tickets it replaces, the moved seats, the credit, the refund owed, who approved and why, and how it
// went (waiting for the difference, done, failed). Rules: docs/refunds.md ("Exchange").
import type { Db } from '../db';
import type { ApprovedBy, UndoReason } from '../../shared/refunds';
import { seatList } from '../../shared/seat-list';

export type ExchangeState = 'waiting' | 'done' | 'failed';

export interface ExchangeRow {
  /** The new sale. */
  orderId: number;
  /** The sale whose tickets it replaces. */
  fromOrderId: number;
  seats: string[];
  creditKobo: number;
  /** The credit spent on the new tickets (at most their price), by the old sale's tenders it came from (card first). */
  creditCardKobo: number;
  creditCashKobo: number;
  refundKobo: number;
  state: ExchangeState;
  reason: UndoReason;
  note: string;
  approved: ApprovedBy;
  cashier: string;
  createdAt: number;
  settledAt: number | null;
}

interface Raw {
  orderId: number;
  fromOrderId: number;
  seats: string;
  creditKobo: number;
  creditCardKobo: number;
  creditCashKobo: number;
  refundKobo: number;
  state: ExchangeState;
  reason: UndoReason;
  note: string;
  approvedJson: string;
  cashier: string;
  createdAt: number;
  settledAt: number | null;
}

const COLUMNS = `order_id AS orderId, from_order_id AS fromOrderId, seats, credit_kobo AS creditKobo,
  credit_card_kobo AS creditCardKobo, credit_cash_kobo AS creditCashKobo,
  refund_kobo AS refundKobo, state, reason, note, approved_json AS approvedJson, cashier,
  created_at AS createdAt, settled_at AS settledAt`;

const rowOf = ({ approvedJson, seats, ...r }: Raw): ExchangeRow => ({
  ...r,
  seats: seatList(seats),
  approved: JSON.parse(approvedJson) as ApprovedBy,
});

export class ExchangeStore {
  constructor(private readonly db: Db) {}

  /** In the new sale's own transaction (the journal's `alongside`): the link, waiting. */
  insert(r: Omit<ExchangeRow, 'state' | 'settledAt'>): void {
    this.db
      .prepare(
        `INSERT INTO order_exchanges (order_id, from_order_id, seats, credit_kobo, credit_card_kobo, credit_cash_kobo,
           refund_kobo, state, reason, note, approved_json, cashier, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, 'waiting', ?, ?, ?, ?, ?)`,
      )
      .run(
        r.orderId,
        r.fromOrderId,
        r.seats.join(','),
        r.creditKobo,
        r.creditCardKobo,
        r.creditCashKobo,
        r.refundKobo,
        r.reason,
        r.note,
        JSON.stringify(r.approved),
        r.cashier,
        r.createdAt,
      );
  }

  /** The exchange whose new sale this is (null: not an exchange's). */
  of(orderId: number): ExchangeRow | null {
    const r = this.db.prepare(`SELECT ${COLUMNS} FROM order_exchanges WHERE order_id = ?`).get(orderId) as
      Raw | undefined;
    return r ? rowOf(r) : null;
  }

  /** The exchanges out of a sale (its tickets moved, or being moved), oldest first. */
  from(fromOrderId: number): ExchangeRow[] {
    return (
      this.db
        .prepare(`SELECT ${COLUMNS} FROM order_exchanges WHERE from_order_id = ? ORDER BY created_at, order_id`)
        .all(fromOrderId) as Raw[]
    ).map(rowOf);
  }

  /** Moves a waiting exchange to done or failed; false when it was not waiting. */
  settle(orderId: number, state: 'done' | 'failed', at: number): boolean {
    return (
      this.db
        .prepare("UPDATE order_exchanges SET state = ?, settled_at = ? WHERE order_id = ? AND state = 'waiting'")
        .run(state, at, orderId).changes > 0
    );
  }
}
