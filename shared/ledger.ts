// The one ledger: every money figure of a shift (the Shift screen, X and Z on screen and printed,
// the CSV, what the Hub is sent and shows) comes from `ledger()`, a pure function of the journal's
// facts — sales with their states, the provider's late outcomes, top-ups — over a window. Screens
// and the Hub display what it computed; nothing else adds up money. What is inside the card total
// is decided here once (docs/cashier-guide.md, "What the card total holds"):
//   inside:  ticket sales paid during the window (sold in it or earlier); money the
//            provider took after the counter closed a sale, learnt during it, kept for the customer;
//   outside: money taken after closing marked "refund to be arranged" (it goes back), top-ups (their
//            own total), sales still open, sales with no shift open, anything Demo in a real shift.
// A paid sale is counted in the window it was paid in; a late payment in the window the counter
// learnt it in (a kept Z never changes), shown at `lateAt()`, when the provider took the money. Which
// line and which time: `ledgerRow()` (shared/ledger-row.ts), the rule the Hub stores on each order.
// Refunds after the sale (a cancel, docs/refunds.md) never change the sale's lines: they are their
// own lines in the window they were made — "Refunds", and net sales = the sales total − refunds;
// a cash refund is the drawer's cash paid out, a card refund is owed (outside the card total, which
// stays what the terminal took) until it is recorded returned (shared/ledger-refunds.ts).
// Exchanges done are counted in the window they were done, with their credit, in no total
// (shared/ledger-exchanges.ts).
import type { Bucket, ShiftTotals, ShowLine, TopupLine } from './records';
import { lateAt } from './late-payments';
import { basketFigures, cashOnly, showTicketsOf, type BasketFigures } from './ledger-basket';
import type { LedgerFacts, LedgerLate, LedgerSale, LedgerWindow } from './ledger-facts';
import { ledgerRow, type LedgerRowLate, type LedgerRowSale } from './ledger-row';
import { cashPaidOutOf, refundFigures } from './ledger-refunds';
import { exchangeFigures } from './ledger-exchanges';
import { TOPUP_STATE_LABELS, type TopupState } from './topups';

export type {
  LedgerDrawer,
  LedgerExchange,
  LedgerFacts,
  LedgerLate,
  LedgerRefund,
  LedgerSale,
  LedgerTopup,
  LedgerWindow,
} from './ledger-facts';

/** The money figures of a window: the part of `ShiftTotals` the ledger owns. */
type LedgerFigures = Omit<ShiftTotals, 'sweep' | 'openItems'> & BasketFigures;

const ZERO: Bucket = { count: 0, amountKobo: 0 };
const add = (b: Bucket, kobo: number): Bucket => ({ count: b.count + 1, amountKobo: b.amountKobo + kobo });
/** The report's order of top-up lines: outcomes first, then what is still under way. */
const TOPUP_ORDER: readonly TopupState[] = [
  'success',
  'fail',
  'not_sent',
  'cancelled',
  'pending',
  'unknown',
  'queued',
  'sending',
];
const rank = (s: string) => {
  const i = TOPUP_ORDER.indexOf(s as TopupState);
  return i < 0 ? TOPUP_ORDER.length : i;
};

/**
 * The card total's one rule, for the ledger's window and for any set of orders (the Orders screen's
 * totals line): the parts inside it added, the refunds to be arranged taken out.
 */
export function cardTotalOf(parts: readonly Bucket[], refundToArrange: Bucket): Bucket {
  let count = -refundToArrange.count,
    amountKobo = -refundToArrange.amountKobo;
  for (const p of parts) {
    count += p.count;
    amountKobo += p.amountKobo;
  }
  return { count, amountKobo };
}

const lateFacts = (l: LedgerLate): LedgerRowLate => ({
  kind: l.kind,
  amountKobo: l.amountKobo,
  foundAt: l.foundAt,
  refund: l.refund,
});
/** A late outcome whose sale is not among the facts (the closed sale is all it can be about). */
const LATE_ONLY: LedgerRowSale = { createdAt: 0, state: 'failed', amountKobo: 0, paidAt: null };

export function ledger(f: LedgerFacts, w: LedgerWindow): LedgerFigures {
  const inScope = (x: { demo: boolean }) => !(w.excludeDemo && x.demo);
  const within = (at: number) => at >= w.from && at < w.to;
  let paid = ZERO,
    failed = ZERO,
    cancelled = ZERO,
    expired = ZERO,
    open = ZERO,
    paidLate = ZERO,
    noShift = ZERO;
  let ticketsSold = 0,
    bookingFeesKobo = 0,
    providerFeesKobo = 0;
  const shows = new Map<string, ShowLine>();
  /** The sales inside the card total (or paid in cash beside it): their basket lines count once each. */
  const counted: LedgerSale[] = [];
  /** A sale whose money is in the card total: its tickets, fees and show line count once, whichever line it is in. */
  const countTickets = (s: LedgerSale) => {
    counted.push(s);
    ticketsSold += s.tickets;
    bookingFeesKobo += s.bookingFeeKobo;
    providerFeesKobo += s.providerFeeKobo;
    // A show's line: its tickets and their booking fee, whatever the tender (a sale before baskets: its amount).
    const own = showTicketsOf(s);
    if (!own.hasTickets) return;
    const k = `${s.show.showDate}\u0000${s.show.showTime}\u0000${s.show.filmName}\u0000${s.show.filmTitle}`;
    const line = shows.get(k) ?? { ...s.show, orders: 0, seats: 0, amountKobo: 0 };
    shows.set(k, {
      ...line,
      orders: line.orders + 1,
      seats: line.seats + s.tickets,
      amountKobo: line.amountKobo + own.ticketsKobo,
    });
  };
  // Each sale's outcome line, the time it is counted at and its part of the card total: the one rule
  // of shared/ledger-row.ts, which the Hub stores on each synced order. A sale paid after closing is
  // in that line alone (not also failed, cancelled or expired), counted when the counter learnt it.
  const lateOf = new Map(f.late.filter((l) => l.kind === 'paid-after-closing').map((l) => [l.ref, l]));
  const rowOf = (s: LedgerSale) => {
    const l = lateOf.get(s.ref);
    return ledgerRow(s, l ? lateFacts(l) : null);
  };
  const salesByRef = new Map(f.sales.map((s) => [s.ref, s]));
  for (const s of f.sales) {
    if (!inScope(s)) continue;
    const row = rowOf(s);
    if (within(row.countedAt)) {
      if (row.outcome === 'paid') {
        // Sold in this window, or sold earlier and paid now; a sale wholly in cash is no card payment
        // (its cash is on the tender lines and in the sales total).
        if (cashOnly(s)) {
          /* counted below, in its lines */
        } else if (s.createdAt < w.from) paidLate = add(paidLate, row.outcomeKobo);
        else paid = add(paid, row.outcomeKobo);
        countTickets(s);
      } else if (row.outcome === 'failed') failed = add(failed, row.outcomeKobo);
      else if (row.outcome === 'cancelled') cancelled = add(cancelled, row.outcomeKobo);
      else if (row.outcome === 'expired') expired = add(expired, row.outcomeKobo);
      else if (row.outcome === 'open') open = add(open, row.outcomeKobo);
      // Paid after closing: counted below, from the late outcome (its amount, its refund, its item).
    }
    if (w.noShiftFrom !== undefined && w.noShiftFrom < w.from && s.createdAt >= w.noShiftFrom && s.createdAt < w.from)
      noShift = add(noShift, s.amountKobo);
  }

  let pac = ZERO,
    refundToArrange = ZERO,
    reportedOtherwise = ZERO;
  const items: LedgerFigures['paidAfterClosing']['items'] = [];
  for (const l of [...f.late].sort((a, b) => a.foundAt - b.foundAt)) {
    if (!inScope(l) || !within(l.foundAt)) continue;
    if (l.kind === 'reported-otherwise') {
      reportedOtherwise = add(reportedOtherwise, l.amountKobo);
      continue;
    }
    const sale = salesByRef.get(l.ref);
    const row = sale ? rowOf(sale) : ledgerRow(LATE_ONLY, lateFacts(l));
    // A sale the counter saw paid is in "Paid" alone.
    if (row.outcome !== 'paid_after_closing') continue;
    pac = add(pac, row.outcomeKobo);
    if (!row.inCard) refundToArrange = add(refundToArrange, row.outcomeKobo);
    // Its tickets were paid for and kept: they count with the card total's other sales.
    else if (sale) countTickets(sale);
    items.push({
      ref: l.ref,
      amountKobo: l.amountKobo,
      at: lateAt(l),
      closedAs: l.closedAs,
      ...(l.payNo ? { payNo: l.payNo } : {}),
      ...(l.refund ? { refund: true } : {}),
    });
  }

  const byState = new Map<string, Bucket>();
  for (const t of f.topups) {
    if (!inScope(t) || !within(t.createdAt) || t.state === 'draft') continue;
    byState.set(t.state, add(byState.get(t.state) ?? ZERO, t.amountKobo));
  }
  const topupLines: TopupLine[] = [...byState.entries()]
    .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
    .map(([state, b]) => ({
      state,
      label: TOPUP_STATE_LABELS[state as TopupState] ?? state,
      count: b.count,
      amountKobo: b.amountKobo,
    }));
  const topupsSuccessful = byState.get('success') ?? ZERO;

  const card = cardTotalOf([paid, paidLate, pac], refundToArrange);
  // Refunds after the sale (shared/ledger-refunds.ts): cash ones are the drawer's paid-outs.
  const refunds = f.refunds ?? [];
  const d = f.drawer ?? { floatKobo: 0, cashPaidOut: [], drops: [], counts: [] };
  const drawer = { ...d, cashPaidOut: [...d.cashPaidOut, ...cashPaidOutOf(refunds, w)] };
  const basket = basketFigures(
    counted,
    f.sales,
    w,
    card,
    drawer,
    new Map([...lateOf].map(([ref, l]) => [ref, lateFacts(l)])),
  );
  return {
    ...basket,
    refunds: refundFigures(refunds, w, basket.salesTotal.amountKobo),
    exchanges: exchangeFigures(f.exchanges ?? [], w),
    from: w.from,
    to: w.to,
    paid,
    failed,
    cancelled,
    expired,
    open,
    ticketsSold,
    bookingFeesKobo,
    providerFeesKobo,
    paidLate,
    paidAfterClosing: { ...pac, items: items.slice(0, 200) },
    refundToArrange,
    reportedOtherwise,
    card,
    topups: { available: f.topupsAvailable ?? true, lines: topupLines, successKobo: topupsSuccessful.amountKobo },
    topupsSuccessful,
    shows: [...shows.values()].sort(
      (a, b) =>
        a.showDate.localeCompare(b.showDate) ||
        a.showTime.localeCompare(b.showTime) ||
        a.filmName.localeCompare(b.filmName),
    ),
    noShift,
  };
}

/** One labelled line of a shift report: the same words on the Shift screen, printed, in the CSV and on the Hub. */
interface LedgerLine {
  /** The CSV's item name. */
  key: string;
  label: string;
  /** How many of what the label names (always payments: orders or top-ups). */
  count: number;
  amountKobo: number;
  /** Inside the card total, added (+), taken out (−), or beside it (none). */
  inCardTotal: '+' | '-' | null;
}

/** The card total's name everywhere, and the note beside it that says what is inside it. */
export const CARD_TOTAL_LABEL = 'Card total';
export const CARD_TOTAL_NOTE = 'what the terminal took: cash, top-ups and refunds to arrange apart';
export const TOPUPS_TOTAL_LABEL = 'Top-ups total (not in card total)';
/** The card payments paid in the window: a basket's card part (a sale wholly in cash is no card payment). */
export const PAID_LABEL = 'Paid by card (card part)';
/** Everything the shift sold, every tender: the card total + the cash taken (a split's cash part with it). */
export const SALES_TOTAL_LABEL = 'Sales total (card + cash)';
/**
 * The tickets, fees, per-show and basket lines count the sales paid in the window, every tender
 * (paid, sold earlier and paid now, paid after closing and kept; paid wholly or partly in cash).
 */
export const TICKETS_SOLD_LABEL = 'Tickets sold (every tender)';
export const BOOKING_FEES_LABEL = 'Booking fees (every tender)';
export const PROVIDER_FEES_LABEL = 'Provider fees on the card total';
export const SHOWS_TABLE_LABEL = 'Tickets per show (with booking fees, every tender)';

/**
 * The closing sweep's result in words that cannot contradict the lines above it: the sweep only
 * says what it newly found; what was found earlier (by webhook, relay or query) is already counted.
 */
export function sweepText(sweep: { checked: number; paidAfterClosing: number }): string {
  const orders = `${sweep.checked} closed order${sweep.checked === 1 ? '' : 's'}`;
  return sweep.paidAfterClosing === 0
    ? `At closing, asked the provider again about ${orders}: no payment newly found.`
    : `At closing, asked the provider again about ${orders}: ${sweep.paidAfterClosing} newly found paid after closing (counted above).`;
}

/** A shift's ticket lines in the report's order; every count is of payments (orders), never of tickets. */
export function ledgerLines(t: ShiftTotals): LedgerLine[] {
  const lines: LedgerLine[] = [
    { key: 'paid', label: PAID_LABEL, count: t.paid.count, amountKobo: t.paid.amountKobo, inCardTotal: '+' },
    {
      key: 'paid_late_from_earlier_shifts',
      label: 'Sold earlier, paid now',
      count: t.paidLate.count,
      amountKobo: t.paidLate.amountKobo,
      inCardTotal: '+',
    },
    {
      key: 'paid_after_closing',
      label: 'Paid after closing',
      count: t.paidAfterClosing.count,
      amountKobo: t.paidAfterClosing.amountKobo,
      inCardTotal: '+',
    },
    {
      key: 'refund_to_arrange',
      label: 'Refund to be arranged (paid after closing)',
      count: t.refundToArrange.count,
      amountKobo: t.refundToArrange.amountKobo,
      inCardTotal: '-',
    },
    { key: 'failed', label: 'Failed', count: t.failed.count, amountKobo: t.failed.amountKobo, inCardTotal: null },
    {
      key: 'cancelled',
      label: 'Cancelled',
      count: t.cancelled.count,
      amountKobo: t.cancelled.amountKobo,
      inCardTotal: null,
    },
    { key: 'expired', label: 'Expired', count: t.expired.count, amountKobo: t.expired.amountKobo, inCardTotal: null },
    {
      key: 'not_finished',
      label: 'No outcome yet',
      count: t.open.count,
      amountKobo: t.open.amountKobo,
      inCardTotal: null,
    },
    {
      key: 'booking_fees',
      label: BOOKING_FEES_LABEL,
      count: t.salesTotal?.count ?? t.card.count,
      amountKobo: t.bookingFeesKobo,
      inCardTotal: null,
    },
    {
      key: 'provider_fees',
      label: PROVIDER_FEES_LABEL,
      count: t.card.count,
      amountKobo: t.providerFeesKobo,
      inCardTotal: null,
    },
  ];
  if (t.reportedOtherwise.count > 0) {
    lines.push({
      key: 'reported_otherwise',
      label: 'Reported otherwise later (still in paid)',
      count: t.reportedOtherwise.count,
      amountKobo: t.reportedOtherwise.amountKobo,
      inCardTotal: null,
    });
  }
  if (t.noShift.count > 0)
    lines.push({
      key: 'sold_with_no_shift_open',
      label: 'Sold with no shift open (not in any total)',
      count: t.noShift.count,
      amountKobo: t.noShift.amountKobo,
      inCardTotal: null,
    });
  return lines;
}
