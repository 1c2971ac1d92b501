// A narrow read of the journal for the catalogue's stock left: the sales that turned paid, each read
// as a basket (`soldBasketOf`: a sale before baskets is one Ticket line), in the order they turned
// paid, from a cursor on the journal's events, so that a reader counts each once and reads only
// what is new. Read only; the journal's tables stay the orders module's.
import { soldBasketOf } from '../../shared/basket-sale';
import type { SoldBasket } from '../../shared/basket-sale';
import type { Db } from '../db';
import { OrderJournal } from './order-journal';

export interface PaidBasket {
  /** The journal event that recorded the sale paid: the cursor to read on from. */
  eventId: number;
  orderId: number;
  basket: SoldBasket;
}

/**
 * The sales created at or after `createdFrom` that turned paid in an event after `afterEventId`,
 * oldest event first (at most `limit`). An order turns paid once: a later event of a paid order
 * (details filled in) is not counted again.
 */
export function paidBasketsAfter(
  db: Db,
  q: { createdFrom: number; afterEventId: number; limit?: number },
): PaidBasket[] {
  const rows = db
    .prepare(
      `SELECT e.id AS eventId, e.order_id AS orderId FROM order_events e JOIN orders o ON o.id = e.order_id
       WHERE e.id > ? AND e.to_state = 'paid' AND (e.from_state IS NULL OR e.from_state <> 'paid') AND o.created_at >= ?
       ORDER BY e.id LIMIT ?`,
    )
    .all(q.afterEventId, q.createdFrom, q.limit ?? 5_000) as { eventId: number; orderId: number }[];
  const journal = new OrderJournal(db, () => 0);
  const out: PaidBasket[] = [];
  for (const r of rows) {
    const rec = journal.get(r.orderId);
    if (rec) out.push({ eventId: r.eventId, orderId: r.orderId, basket: soldBasketOf(rec) });
  }
  return out;
}
