// A shift's totals from the journals' read methods: orders sold in it by outcome, fees, orders of
// earlier shifts paid during it, top-ups by status, and everything still without an outcome.
import { ORDER_STATE_LABELS, type OrderState } from '../../../shared/orders';
import type { Bucket, OpenItem, ShiftTotals } from '../../../shared/records';
import type { RecordScope } from '../../../shared/record-profile';
import { OPEN_STATES, type OrderJournalReads } from '../../orders';
import type { TopupTotalsSource } from './topup-totals';

const MAX_OPEN_ITEMS = 200;

/** `noShiftFrom`: when the shift before this one closed (0: none did); the sales between then and `from` had no shift. */
export function shiftTotals(orders: OrderJournalReads, topups: TopupTotalsSource, from: number, to: number, scope: RecordScope = { excludeDemo: false }, noShiftFrom?: number): ShiftTotals {
  const rows = orders.totalsByState(from, to, scope);
  const gap = noShiftFrom !== undefined && noShiftFrom < from ? orders.totalsByState(noShiftFrom, from, scope) : [];
  const bucket = (states: readonly OrderState[]): Bucket =>
    rows.filter((r) => states.includes(r.state)).reduce((b, r) => ({ count: b.count + r.count, amountKobo: b.amountKobo + r.amountKobo }), { count: 0, amountKobo: 0 });
  const paidRow = rows.find((r) => r.state === 'paid');

  const openItems: OpenItem[] = orders.openOrders(to, MAX_OPEN_ITEMS, scope).map((r) => ({
    kind: 'order',
    id: r.id,
    ref: r.outOrderNo,
    state: r.state,
    label: ORDER_STATE_LABELS[r.state],
    amountKobo: r.amountKobo,
    createdAt: r.createdAt,
    ...(r.reason ? { reason: r.reason } : {}),
  }));

  return {
    from,
    to,
    paid: bucket(['paid']),
    failed: bucket(['failed']),
    cancelled: bucket(['cancelled']),
    expired: bucket(['expired']),
    open: bucket(OPEN_STATES),
    ticketsSold: paidRow?.tickets ?? 0,
    bookingFeesKobo: paidRow?.bookingFeesKobo ?? 0,
    providerFeesKobo: paidRow?.providerFeesKobo ?? 0,
    paidLate: orders.paidLate(from, to, scope),
    paidAfterClosing: orders.paidAfterClosing(from, to, scope),
    sweep: null,
    topups: topups.totals(from, to, scope),
    openItems: [...openItems, ...topups.open(to, scope)].slice(0, MAX_OPEN_ITEMS),
    shows: orders.paidByShow(from, to, scope),
    noShift: gap.reduce((b, r) => ({ count: b.count + r.count, amountKobo: b.amountKobo + r.amountKobo }), { count: 0, amountKobo: 0 }),
  };
}
