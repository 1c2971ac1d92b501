// The owner of the undo tables (orders-009): each undo of a paid sale, the seats it made no longer
// valid, and the refunds owed it made (R + this counter's sequence). Written only inside the undo's
// own transaction (undo-cancel.ts); what others read of refunds goes through OrderJournalReads.
import type { ApprovedBy, RefundTender, RefundView, ReturnHow, UndoReason } from '../../shared/refunds';
import type { Db } from '../db';

/** A concession line taken out of a sale: its index in the sale's basket lines, as the undo recorded it. */
export interface UndoneLine {
  line: number;
  name: string;
  quantity: number;
  amountKobo: number;
}

export interface NewUndo {
  orderId: number;
  kind: 'cancel' | 'exchange';
  at: number;
  reason: UndoReason;
  note: string;
  approved: ApprovedBy;
  cashier: string;
  shiftId: number | null;
  demo: boolean;
  seats: readonly string[];
  lines: readonly UndoneLine[];
  amountKobo: number;
  exchangeOrderId?: number;
}

interface RefundRow {
  id: number;
  refund_no: string;
  order_id: number;
  out_order_no: string;
  kind: 'cancel' | 'exchange';
  tender: RefundTender;
  amount_kobo: number;
  undo_id: number;
  reason: UndoReason;
  note: string;
  approved_how: 'pin' | 'code';
  approved_by: string;
  approved_at: number;
  cashier: string;
  at: number;
  shift_id: number | null;
  demo: number;
  lines_json: string;
  exchange_order_id: number | null;
  returned_how: ReturnHow | null;
  returned_reference: string | null;
  returned_by: string | null;
  returned_at: number | null;
}

const REFUND_SELECT = `SELECT r.id, r.refund_no, r.order_id, o.out_order_no, u.kind, r.tender, r.amount_kobo, r.undo_id,
    u.reason, u.note, u.approved_how, u.approved_by, u.approved_at, u.cashier, r.at, u.shift_id, u.demo, u.lines_json,
    u.exchange_order_id, r.returned_how, r.returned_reference, r.returned_by, r.returned_at
  FROM order_refunds r JOIN order_undos u ON u.id = r.undo_id JOIN orders o ON o.id = r.order_id`;

export const formatRefundNo = (seq: number): string => `R${String(seq).padStart(4, '0')}`;

export class UndoStore {
  constructor(private readonly db: Db) {}

  /** The seats of a sale no longer valid (cancelled or moved), in the order they were undone. */
  cancelledSeats(orderId: number): string[] {
    return (
      this.db.prepare('SELECT seat FROM order_cancelled_seats WHERE order_id = ? ORDER BY rowid').all(orderId) as {
        seat: string;
      }[]
    ).map((r) => r.seat);
  }

  /** How many of each concession line (by its index) earlier undos took out of the sale. */
  linesTaken(orderId: number): Map<number, number> {
    const out = new Map<number, number>();
    const rows = this.db.prepare('SELECT lines_json FROM order_undos WHERE order_id = ?').all(orderId) as {
      lines_json: string;
    }[];
    for (const r of rows)
      for (const l of JSON.parse(r.lines_json) as UndoneLine[]) out.set(l.line, (out.get(l.line) ?? 0) + l.quantity);
    return out;
  }

  /** What the sale's earlier refunds owe back, by tender. */
  owed(orderId: number): { cardKobo: number; cashKobo: number } {
    const rows = this.db
      .prepare('SELECT tender, SUM(amount_kobo) AS kobo FROM order_refunds WHERE order_id = ? GROUP BY tender')
      .all(orderId) as { tender: RefundTender; kobo: number }[];
    const by = new Map(rows.map((r) => [r.tender, r.kobo]));
    return { cardKobo: by.get('card') ?? 0, cashKobo: by.get('cash') ?? 0 };
  }

  /** Writes an undo, its seats and its refunds (inside the caller's transaction); the refunds' ids. */
  insert(u: NewUndo, refunds: readonly { tender: RefundTender; amountKobo: number }[]): number[] {
    const info = this.db
      .prepare(
        `INSERT INTO order_undos (order_id, kind, at, reason, note, approved_how, approved_by, approved_at, cashier,
           shift_id, demo, lines_json, amount_kobo, exchange_order_id)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        u.orderId,
        u.kind,
        u.at,
        u.reason,
        u.note,
        u.approved.how,
        u.approved.by,
        u.approved.at,
        u.cashier,
        u.shiftId,
        u.demo ? 1 : 0,
        JSON.stringify(u.lines),
        u.amountKobo,
        u.exchangeOrderId ?? null,
      );
    const undoId = Number(info.lastInsertRowid);
    const seat = this.db.prepare('INSERT INTO order_cancelled_seats (order_id, seat, undo_id) VALUES (?, ?, ?)');
    for (const s of u.seats) seat.run(u.orderId, s, undoId);
    const last = this.db
      .prepare("SELECT MAX(CAST(substr(refund_no, 2) AS INTEGER)) AS n FROM order_refunds WHERE refund_no LIKE 'R%'")
      .get() as { n: number | null };
    let seq = last.n ?? 0;
    const add = this.db.prepare(
      `INSERT INTO order_refunds (refund_no, undo_id, order_id, tender, amount_kobo, at, returned_how, returned_reference, returned_by, returned_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    return refunds.map((r) => {
      seq += 1;
      // Cash goes back from the drawer at once, by the cashier; card is owed until someone says how.
      const cash = r.tender === 'cash';
      const ins = add.run(
        formatRefundNo(seq),
        undoId,
        u.orderId,
        r.tender,
        r.amountKobo,
        u.at,
        cash ? 'cash' : null,
        cash ? 'drawer' : null,
        cash ? u.cashier : null,
        cash ? u.at : null,
      );
      return Number(ins.lastInsertRowid);
    });
  }

  /** Records how a card refund owed was returned; false when it was already returned (or is not there). */
  markReturned(id: number, r: { how: ReturnHow; reference: string; by: string; at: number }): boolean {
    const info = this.db
      .prepare(
        `UPDATE order_refunds SET returned_how = ?, returned_reference = ?, returned_by = ?, returned_at = ?
         WHERE id = ? AND returned_at IS NULL`,
      )
      .run(r.how, r.reference, r.by, r.at, id);
    return info.changes === 1;
  }

  get(id: number): RefundView | null {
    const r = this.db.prepare(`${REFUND_SELECT} WHERE r.id = ?`).get(id) as RefundRow | undefined;
    return r ? this.view(r) : null;
  }

  ofOrder(orderId: number): RefundView[] {
    return this.views(`${REFUND_SELECT} WHERE r.order_id = ? ORDER BY r.id`, orderId);
  }

  /** Card refunds still owed, oldest first. */
  owedList(): RefundView[] {
    return this.views(`${REFUND_SELECT} WHERE r.returned_at IS NULL ORDER BY r.at, r.id`);
  }

  /** Refunds returned (cash at once, card when recorded) since `from`, newest first, at most `limit`. */
  returnedSince(from: number, limit: number): RefundView[] {
    return this.views(
      `${REFUND_SELECT} WHERE r.returned_at IS NOT NULL AND r.returned_at >= ? ORDER BY r.returned_at DESC, r.id DESC LIMIT ?`,
      from,
      limit,
    );
  }

  private views(sql: string, ...args: unknown[]): RefundView[] {
    return (this.db.prepare(sql).all(...args) as RefundRow[]).map((r) => this.view(r));
  }

  private view(r: RefundRow): RefundView {
    const seats = (
      this.db.prepare('SELECT seat FROM order_cancelled_seats WHERE undo_id = ? ORDER BY rowid').all(r.undo_id) as {
        seat: string;
      }[]
    ).map((s) => s.seat);
    const lines = (JSON.parse(r.lines_json) as UndoneLine[]).map((l) => ({
      name: l.name,
      quantity: l.quantity,
      amountKobo: l.amountKobo,
    }));
    return {
      id: r.id,
      refundNo: r.refund_no,
      orderId: r.order_id,
      outOrderNo: r.out_order_no,
      kind: r.kind,
      tender: r.tender,
      amountKobo: r.amount_kobo,
      seats,
      lines,
      reason: r.reason,
      note: r.note,
      approved: { how: r.approved_how, by: r.approved_by, at: r.approved_at },
      cashier: r.cashier,
      at: r.at,
      shiftId: r.shift_id,
      returned:
        r.returned_at === null
          ? null
          : { how: r.returned_how!, reference: r.returned_reference ?? '', by: r.returned_by ?? '', at: r.returned_at },
      exchangeOrderId: r.exchange_order_id,
      demo: r.demo === 1,
    };
  }
}
