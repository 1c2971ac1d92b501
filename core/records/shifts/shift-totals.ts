// A shift's totals: the journals' facts for the window, counted by the one ledger
// (shared/ledger.ts), and the items still without an outcome listed beside them.
import { ORDER_STATE_LABELS } from '../../../shared/orders';
import { ledger, type LedgerDrawer, type LedgerWindow } from '../../../shared/ledger';
import { saleTenders } from '../../../shared/ledger-basket';
import { cashTakenOf } from '../../../shared/tender-lines';
import { cashPaidOutOf } from '../../../shared/ledger-refunds';
import type { DrawerFacts } from '../../../shared/drawer';
import type { OpenItem, ShiftTotals } from '../../../shared/records';
import type { RecordScope } from '../../../shared/record-profile';
import type { OrderJournalReads } from '../../orders';
import type { TopupTotalsSource } from './topup-totals';

const MAX_OPEN_ITEMS = 200;

/**
 * `noShiftFrom`: when the shift before this one closed (0: none did); the sales between then and
 * `from` had no shift. `drawer`: the shift's float, drops, counts and paid-outs (none when left out).
 */
export function shiftTotals(
  orders: OrderJournalReads,
  topups: TopupTotalsSource,
  from: number,
  to: number,
  scope: RecordScope = { excludeDemo: false },
  noShiftFrom?: number,
  drawer?: LedgerDrawer,
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
      refunds: orders.ledgerRefunds(from, to),
      exchanges: orders.ledgerExchanges(from, to),
      ...(drawer ? { drawer } : {}),
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

/** The drawer's facts at `at` (its moment included), for judging a drop against what it should hold. */
export function drawerFactsAt(
  orders: OrderJournalReads,
  drawer: LedgerDrawer,
  from: number,
  at: number,
  scope: RecordScope,
): DrawerFacts {
  const sales = orders.ledgerSales(from, at + 1);
  // Cash refunds after the sale left the drawer when made (shared/ledger-refunds.ts).
  const cashPaidOut = [...drawer.cashPaidOut, ...cashPaidOutOf(orders.ledgerRefunds(from, at + 1), scope)];
  return { ...drawer, cashPaidOut, cashTaken: cashTakenOf(sales, saleTenders(sales), scope) };
}
