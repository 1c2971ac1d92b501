// What one sale contributes to the ledger (shared/ledger.ts), decided once: the outcome line it is
// in, the time it is counted at, and its part of the card total. `ledger()` counts a window's sales
// by it; the Hub's projector (hub/store/projections.ts) stores it on each synced order, so that the
// Hub's SQL only filters by `counted_at` and sums (docs/hub.md, "How Today counts").
//   paid:                counted when it was paid (a sale sold 23:40 and paid 00:05 is in the next
//                        day's card total), its amount inside the card total;
//   paid after closing:  counted when the counter learnt it, in that line alone (not also failed,
//                        cancelled or expired), the provider's amount inside the card total unless
//                        marked "refund to be arranged";
//   failed, cancelled, expired, open: counted when sold, outside the card total.
import type { LateKind } from './late-payments';
import type { OrderState } from './orders';

/** The ledger's outcome lines a sale can end in (ledgerLines: paid, paid_after_closing, failed, cancelled, expired, not_finished). */
export const LEDGER_OUTCOMES = ['paid', 'paid_after_closing', 'failed', 'cancelled', 'expired', 'open'] as const;
export type LedgerOutcome = (typeof LEDGER_OUTCOMES)[number];

/** A sale's facts the rule reads. */
export interface LedgerRowSale {
  createdAt: number;
  state: OrderState;
  amountKobo: number;
  /** When it first turned paid (null: never, or not known). */
  paidAt: number | null;
}

/** Its late outcome, if the provider reported one (docs/late-payments.md). */
export interface LedgerRowLate {
  kind: LateKind;
  amountKobo: number;
  /** When the counter learnt it. */
  foundAt: number;
  /** Marked "customer gone: refund to be arranged". */
  refund: boolean;
}

export interface LedgerRow {
  outcome: LedgerOutcome;
  /** The time it is counted at: the window or day that holds this time holds the sale, in `outcome`. */
  countedAt: number;
  /** Its amount in that outcome line. */
  outcomeKobo: number;
  /** Its part of the card total (0 outside it). */
  cardKobo: number;
  /** Inside the card total: its tickets, fees and show line count with it (paid, or paid after closing and kept). */
  inCard: boolean;
}

/** The one rule: what a sale, with its late outcome if any, contributes and when. */
export function ledgerRow(sale: LedgerRowSale, late: LedgerRowLate | null): LedgerRow {
  if (sale.state === 'paid')
    return {
      outcome: 'paid',
      countedAt: sale.paidAt ?? sale.createdAt,
      outcomeKobo: sale.amountKobo,
      cardKobo: sale.amountKobo,
      inCard: true,
    };
  if (late?.kind === 'paid-after-closing')
    return {
      outcome: 'paid_after_closing',
      countedAt: late.foundAt,
      outcomeKobo: late.amountKobo,
      cardKobo: late.refund ? 0 : late.amountKobo,
      inCard: !late.refund,
    };
  const outcome: LedgerOutcome =
    sale.state === 'failed' || sale.state === 'cancelled' || sale.state === 'expired' ? sale.state : 'open';
  return { outcome, countedAt: sale.createdAt, outcomeKobo: sale.amountKobo, cardKobo: 0, inCard: false };
}
