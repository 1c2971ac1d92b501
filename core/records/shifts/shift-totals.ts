// A shift's totals: the journals' facts for the window, counted by the one ledger
// (shared/ledger.ts), and the items still without an outcome listed beside them.
import { ORDER_STATE_LABELS } from '../../../shared/orders';
import { ledger, type LedgerWindow } from '../../../shared/ledger';
import type { OpenItem, ShiftTotals } from '../../../shared/records';
import type { RecordScope } from '../../../shared/record-profile';
import type { OrderJournalReads } from '../../orders';
import type { TopupTotalsSource } from './topup-totals';

const MAX_OPEN_ITEMS = 200;

/** `noShiftFrom`: when the shift before this one closed (0: none did); the sales between then and `from` had no shift. */
export function shiftTotals(
  orders: OrderJournalReads,
  topups: TopupTotalsSource,
  from: number,
  to: number,
  scope: RecordScope = { excludeDemo: false },
  noShiftFrom?: number,
): ShiftTotals {
  const w: LedgerWindow = {
    from,
    to,
    excludeDemo: scope.excludeDemo,
    ...(noShiftFrom !== undefined ? { noShiftFrom } : {}),
  };
  const salesFrom = noShiftFrom !== undefined && noShiftFrom < from ? noShiftFrom : from;
  const figures = ledger(
    {
      sales: orders.ledgerSales(salesFrom, to),
      late: orders.ledgerLate(from, to),
      topups: topups.available ? topups.facts(from, to) : [],
      topupsAvailable: topups.available,
    },
    w,
  );

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

  return { ...figures, sweep: null, openItems: [...openItems, ...topups.open(to, scope)].slice(0, MAX_OPEN_ITEMS) };
}
