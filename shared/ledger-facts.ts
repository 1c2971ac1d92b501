// The facts the one ledger (shared/ledger.ts) counts: sales as the journal holds them (with their
// basket, read through `soldBasketOf`), the provider's late outcomes, top-ups, the shift's drawer,
// the refunds after the sale, and the window counted. Kept apart from ledger.ts so that the parts it uses (tender-lines.ts,
// ledger-basket.ts) can name them without an import cycle.
import type { DrawerCount, DrawerDrop, DrawerPaidOut } from './drawer';
import type { LateKind } from './late-payments';
import type { OrderState } from './orders';
import type { SoldBasket } from './basket-sale';
import type { TopupState } from './topups';

/** A sale as the journal holds it. */
export interface LedgerSale {
  ref: string;
  createdAt: number;
  state: OrderState;
  /** What the card order on the terminal is for: the card part (0 for a sale wholly in cash). */
  amountKobo: number;
  tickets: number;
  bookingFeeKobo: number;
  providerFeeKobo: number;
  /** When it first turned paid (null: never). */
  paidAt: number | null;
  demo: boolean;
  show: { filmName: string; filmTitle: string; showDate: string; showTime: string };
  /**
   * Its lines, tender and amounts (`soldBasketOf(order)`); left out, it is a sale of one ticket type
   * by card: one `Ticket` line of its tickets (its amount less the booking fee) and the fee.
   */
  basket?: SoldBasket;
}

/** A late outcome of a closed sale (docs/late-payments.md). */
export interface LedgerLate {
  ref: string;
  kind: LateKind;
  closedAs: string;
  amountKobo: number;
  payNo?: string;
  providerAt?: number;
  foundAt: number;
  /** The cashier marked it "customer gone: refund to be arranged" (by the time of the report). */
  refund: boolean;
  demo: boolean;
}

export interface LedgerTopup {
  ref: string;
  createdAt: number;
  state: TopupState;
  amountKobo: number;
  demo: boolean;
}

/** The shift's drawer as recorded (shared/drawer.ts); the cash each sale took comes from the sales. */
export interface LedgerDrawer {
  /** The float put in at open (0 when none was entered). */
  floatKobo: number;
  cashPaidOut: readonly DrawerPaidOut[];
  drops: readonly DrawerDrop[];
  counts: readonly DrawerCount[];
}

/** A refund owed after the sale (docs/refunds.md): one tender of one cancel or exchange. */
export interface LedgerRefund {
  refundNo: string;
  /** The sale it gives back from (`outOrderNo`). */
  ref: string;
  tender: 'cash' | 'card';
  amountKobo: number;
  /** When it was made (a cash refund was paid out of the drawer then). */
  at: number;
  /** When a card refund was recorded as returned (null: still owed); a cash one's is `at`. */
  returnedAt: number | null;
  demo: boolean;
}

/** An exchange completed (docs/refunds.md, "Exchange"): its new sale paid (wholly or partly) by the old one's credit. */
export interface LedgerExchange {
  /** The new sale (`outOrderNo`). */
  ref: string;
  /** The sale whose tickets it replaced. */
  fromRef: string;
  /** The credit: what the tickets given back were worth (spent on the new ones, the rest a refund owed). */
  creditKobo: number;
  /** When it was done (the new sale paid, the old seats cancelled). */
  at: number;
  demo: boolean;
}

export interface LedgerFacts {
  sales: readonly LedgerSale[];
  late: readonly LedgerLate[];
  topups: readonly LedgerTopup[];
  /** False where the counter has no top-ups at all. */
  topupsAvailable?: boolean;
  /** The shift's drawer; left out: no float, no drops, no paid-outs, not counted. */
  drawer?: LedgerDrawer;
  /** Refunds made, returned or still owed in the window (left out: none). */
  refunds?: readonly LedgerRefund[];
  /** Exchanges done in the window (left out: none). */
  exchanges?: readonly LedgerExchange[];
}

export interface LedgerWindow {
  from: number;
  to: number;
  /** A real shift leaves Demo facts out; a Demo shift counts them (they are all it has). */
  excludeDemo: boolean;
  /** When the shift before closed: sales in [noShiftFrom, from) had no shift and are named. */
  noShiftFrom?: number;
}
