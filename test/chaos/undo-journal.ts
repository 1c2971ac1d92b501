// Reads what the undo verdict (undo-verdict.ts) needs from the chaos app's journal file, opened
// read-only after the run: the sales with seats, the seats the engine's own reading counts as sold
// for each (SeatHoldStore.ownTaken, what the seat map shows), the undos, the seats no longer valid,
// the exchanges, the refunds owed, and the outbox's 'order.cancelled' events.
import type { Database } from 'better-sqlite3';
import { SeatHoldStore } from '../../core/orders/seat-holding';
import type { OrderState } from '../../shared/orders';
import { seatList } from '../../shared/seat-list';
import type { UndoJournal } from './undo-verdict';

export function readUndoJournal(db: Database, counterName: string): UndoJournal {
  const rows = db
    .prepare(
      `SELECT o.id, o.out_order_no AS outOrderNo, o.state, h.show_key AS showKey, h.seats
       FROM orders o JOIN order_seat_holds h ON h.order_id = o.id ORDER BY o.id`,
    )
    .all() as { id: number; outOrderNo: string; state: OrderState; showKey: string; seats: string }[];
  const holds = new SeatHoldStore(db as never);
  const soldBy = new Map<number, string[]>();
  for (const showKey of new Set(rows.map((r) => r.showKey)))
    for (const t of holds.ownTaken(showKey, counterName))
      if (t.state === 'sold') soldBy.set(t.orderId, [...(soldBy.get(t.orderId) ?? []), t.seat]);
  const events = (
    db.prepare("SELECT payload_json AS p FROM hub_outbox WHERE kind = 'order.cancelled' ORDER BY seq").all() as {
      p: string;
    }[]
  ).map((r) => JSON.parse(r.p) as UndoJournal['events'][number]);
  return {
    sales: rows.map((r) => ({ ...r, seats: seatList(r.seats), soldSeats: soldBy.get(r.id) ?? [] })),
    undos: db
      .prepare(
        `SELECT id, order_id AS orderId, amount_kobo AS amountKobo, kind, exchange_order_id AS exchangeOrderId
         FROM order_undos ORDER BY id`,
      )
      .all() as UndoJournal['undos'],
    exchanges: (
      db
        .prepare(
          'SELECT order_id AS orderId, from_order_id AS fromOrderId, seats, state FROM order_exchanges ORDER BY order_id',
        )
        .all() as (Omit<NonNullable<UndoJournal['exchanges']>[number], 'seats'> & { seats: string })[]
    ).map((r) => ({ ...r, seats: seatList(r.seats) })),
    cancelledSeats: db
      .prepare('SELECT order_id AS orderId, seat, undo_id AS undoId FROM order_cancelled_seats ORDER BY rowid')
      .all() as UndoJournal['cancelledSeats'],
    refunds: db
      .prepare(
        `SELECT refund_no AS refundNo, undo_id AS undoId, order_id AS orderId, tender, amount_kobo AS amountKobo
         FROM order_refunds ORDER BY id`,
      )
      .all() as UndoJournal['refunds'],
    events,
  };
}
