// The refunds after the sale in the one ledger (docs/refunds.md, "Cancel and refunds owed"). Decided
// here once:
//   A cancel (or an exchange's difference) does not change the sale it gives back from: the sale
//   stays in the lines of the window it was paid in (Paid, the card total, the tenders, tickets by
//   type, concessions). The refund is its own line, in the window it was MADE: "Refunds" (every
//   tender), and the net sales = the sales total − the refunds made in the window.
//   Cash refunds are paid out of the drawer when made: the drawer's "Cash paid out" (expected cash
//   falls by them). Card refunds are owed when made ("Card refunds owed", made in the window),
//   "returned" in the window someone records how, and "still owed" at the window's end (whenever
//   made). The card total stays what the terminal took: a card refund is never taken out of it (the
//   provider has no refund call; the money goes back outside the terminal).
//   Demo refunds count only in a Demo shift, as Demo sales do.
import type { DrawerPaidOut } from './drawer';
import type { FigureLine } from './ledger-basket-lines';
import type { RefundFigures } from './ledger-basket-schema';
import type { LedgerRefund, LedgerWindow } from './ledger-facts';
import type { Bucket } from './records';

export const REFUNDS_HEADING = 'Refunds after the sale';
export const REFUNDS_LABEL = 'Refunds (cancels, every tender)';
export const NET_SALES_LABEL = 'Net sales (sales total - refunds)';

const ZERO: Bucket = { count: 0, amountKobo: 0 };
const add = (b: Bucket, kobo: number): Bucket => ({ count: b.count + 1, amountKobo: b.amountKobo + kobo });

const inScope = (r: LedgerRefund, w: Pick<LedgerWindow, 'excludeDemo'>) => !(w.excludeDemo && r.demo);

/** The refunds' figures of a window; `salesTotalKobo` is the ledger's sales total of the same window. */
export function refundFigures(
  refunds: readonly LedgerRefund[],
  w: LedgerWindow,
  salesTotalKobo: number,
): RefundFigures {
  const within = (at: number) => at >= w.from && at < w.to;
  let made = ZERO,
    cash = ZERO,
    card = ZERO,
    cardReturned = ZERO,
    cardStillOwed = ZERO;
  for (const r of refunds) {
    if (!inScope(r, w)) continue;
    if (within(r.at)) {
      made = add(made, r.amountKobo);
      if (r.tender === 'cash') cash = add(cash, r.amountKobo);
      else card = add(card, r.amountKobo);
    }
    if (r.tender !== 'card') continue;
    if (r.returnedAt !== null && within(r.returnedAt)) cardReturned = add(cardReturned, r.amountKobo);
    if (r.at < w.to && (r.returnedAt === null || r.returnedAt >= w.to))
      cardStillOwed = add(cardStillOwed, r.amountKobo);
  }
  return { made, cash, card, cardReturned, cardStillOwed, netSalesKobo: salesTotalKobo - made.amountKobo };
}

/** The cash refunds as the drawer's paid-outs (each at the moment it was made). */
export function cashPaidOutOf(refunds: readonly LedgerRefund[], w: Pick<LedgerWindow, 'excludeDemo'>): DrawerPaidOut[] {
  return refunds
    .filter((r) => r.tender === 'cash' && inScope(r, w))
    .map((r) => ({ ref: r.ref, at: r.at, amountKobo: r.amountKobo }));
}

/** The refunds' lines in words, with the CSV's keys: the same on the Shift screen, printed, in the CSV and on the Hub. */
export function refundRows(f: RefundFigures): FigureLine[] {
  return [
    { key: 'refunds', label: REFUNDS_LABEL, count: f.made.count, amountKobo: f.made.amountKobo },
    {
      key: 'refunds_cash',
      label: 'Paid back in cash (from the drawer)',
      count: f.cash.count,
      amountKobo: f.cash.amountKobo,
    },
    {
      key: 'refunds_card_owed',
      label: 'Owed back by card (made now)',
      count: f.card.count,
      amountKobo: f.card.amountKobo,
    },
    {
      key: 'refunds_card_returned',
      label: 'Card refunds returned',
      count: f.cardReturned.count,
      amountKobo: f.cardReturned.amountKobo,
    },
    {
      key: 'refunds_card_still_owed',
      label: 'Card refunds still owed',
      count: f.cardStillOwed.count,
      amountKobo: f.cardStillOwed.amountKobo,
    },
    { key: 'net_sales', label: NET_SALES_LABEL, count: null, amountKobo: f.netSalesKobo },
  ];
}

/** A report shows the refunds' section once there is one to show (kept reports before cancels: none). */
export const hasRefunds = (f: RefundFigures | undefined): f is RefundFigures =>
  !!f && (f.made.count > 0 || f.cardReturned.count > 0 || f.cardStillOwed.count > 0);
