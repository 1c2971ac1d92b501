// A shift's totals from the journals: orders sold in it by outcome, fees, orders of earlier shifts
// paid during it, top-ups by status, and everything still without an outcome.
import { ORDER_STATE_LABELS, type OrderState } from '../../../../shared/orders';
import type { Bucket, OpenItem, ShiftTotals } from '../../../../shared/records';
import type { Db } from '../../db/database';
import type { TopupTotalsSource } from '../topup-totals';

const OPEN_ORDER_STATES: OrderState[] = ['queued', 'creating', 'waiting', 'unknown'];
const MAX_OPEN_ITEMS = 200;

export interface TotalsScope {
  /** A real shift: Demo sales (play money) are left out. A Demo shift counts everything. */
  excludeDemo: boolean;
}

export function shiftTotals(db: Db, topups: TopupTotalsSource, from: number, to: number, scope: TotalsScope = { excludeDemo: false }): ShiftTotals {
  const real = scope.excludeDemo ? " AND profile <> 'demo'" : '';
  const realO = scope.excludeDemo ? " AND o.profile <> 'demo'" : '';
  const rows = db
    .prepare(
      `SELECT state, COUNT(*) AS n, COALESCE(SUM(amount_kobo), 0) AS kobo, COALESCE(SUM(booking_fee_kobo), 0) AS fees,
              COALESCE(SUM(provider_fee_kobo), 0) AS pfees, COALESCE(SUM(tickets), 0) AS tickets
       FROM orders WHERE created_at >= ? AND created_at < ?${real} GROUP BY state`,
    )
    .all(from, to) as { state: OrderState; n: number; kobo: number; fees: number; pfees: number; tickets: number }[];
  const bucket = (states: OrderState[]): Bucket =>
    rows.filter((r) => states.includes(r.state)).reduce((b, r) => ({ count: b.count + r.n, amountKobo: b.amountKobo + r.kobo }), { count: 0, amountKobo: 0 });
  const paidRow = rows.find((r) => r.state === 'paid');

  // Driven by the events of the window (indexed by time), not by every older order.
  const late = db
    .prepare(
      `SELECT COUNT(*) AS n, COALESCE(SUM(o.amount_kobo), 0) AS kobo FROM order_events e JOIN orders o ON o.id = e.order_id
       WHERE e.at >= ? AND e.at < ? AND e.to_state = 'paid' AND o.created_at < ?${realO}`,
    )
    .get(from, to, from) as { n: number; kobo: number };

  const marks = OPEN_ORDER_STATES.map(() => '?').join(',');
  const openOrders = db
    .prepare(`SELECT id, out_order_no, state, amount_kobo, created_at, reason FROM orders WHERE state IN (${marks}) AND created_at < ?${real} ORDER BY created_at LIMIT ?`)
    .all(...OPEN_ORDER_STATES, to, MAX_OPEN_ITEMS) as { id: number; out_order_no: string; state: OrderState; amount_kobo: number; created_at: number; reason: string | null }[];
  const openItems: OpenItem[] = openOrders.map((r) => ({
    kind: 'order',
    id: r.id,
    ref: r.out_order_no,
    state: r.state,
    label: ORDER_STATE_LABELS[r.state],
    amountKobo: r.amount_kobo,
    createdAt: r.created_at,
    ...(r.reason ? { reason: r.reason } : {}),
  }));

  return {
    from,
    to,
    paid: bucket(['paid']),
    failed: bucket(['failed']),
    cancelled: bucket(['cancelled']),
    expired: bucket(['expired']),
    open: bucket(OPEN_ORDER_STATES),
    ticketsSold: paidRow?.tickets ?? 0,
    bookingFeesKobo: paidRow?.fees ?? 0,
    providerFeesKobo: paidRow?.pfees ?? 0,
    paidLate: { count: late.n, amountKobo: late.kobo },
    topups: topups.totals(from, to, scope),
    openItems: [...openItems, ...topups.open(to, scope)].slice(0, MAX_OPEN_ITEMS),
  };
}
