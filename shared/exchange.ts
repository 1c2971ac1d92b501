// The money of an exchange (docs/refunds.md, "Exchange"): tickets of a paid sale moved to another
// show or other seats. The moved tickets' value is the **credit** (each one's unit price and booking
// fee per ticket, as its sale's basket lines recorded them); the new tickets are priced by the engine
// as any basket (the programme's ticket types); the **difference** is the new price minus the credit:
// higher, it is paid (card on the terminal or cash) as the new sale's card or cash part; lower, it is
// a refund owed (card first, `refundTenders`); equal, nothing is paid. The new sale's basket holds the
// credit (`amounts.creditKobo`), so the ledger counts only the difference as new money. Pure; the
// engine (core/orders) runs it below every door.
import { formatNaira } from './money';
import type { SoldBasket } from './basket-sale';
import type { Tender } from './basket';

/** The credit of the moved seats, or the seats the sale does not hold. */
export type CreditResult =
  { ok: true; creditKobo: number; types: Map<string, string> } | { ok: false; missing: string[] };

/**
 * The credit of moving `seats` out of a sale: for each seat, its tickets line's unit price plus the
 * booking fee per ticket (what the customer paid for that ticket). `types`: each moved seat's ticket
 * type. Seats the sale's lines do not hold are `missing`.
 */
export function exchangeCredit(sold: Pick<SoldBasket, 'lines'>, seats: readonly string[]): CreditResult {
  const bySeat = new Map<string, { unitKobo: number; feePerTicketKobo: number; ticketType: string }>();
  for (const l of sold.lines) if (l.kind === 'tickets') for (const s of l.seats) bySeat.set(s.toUpperCase(), l);
  const missing = seats.filter((s) => !bySeat.has(s.toUpperCase()));
  if (missing.length > 0) return { ok: false, missing };
  let creditKobo = 0;
  const types = new Map<string, string>();
  for (const s of seats) {
    const l = bySeat.get(s.toUpperCase())!;
    creditKobo += l.unitKobo + l.feePerTicketKobo;
    types.set(s.toUpperCase(), l.ticketType);
  }
  if (!Number.isSafeInteger(creditKobo)) throw new RangeError('credit out of range');
  return { ok: true, creditKobo, types };
}

/** The money of an exchange: the credit, the new price, and what is paid or owed back. */
export interface ExchangeMoney {
  creditKobo: number;
  /** The new tickets' total (prices and booking fees). */
  newTotalKobo: number;
  /** New price − credit (negative: the new tickets cost less). */
  differenceKobo: number;
  /** What the customer pays (0 unless the difference is above 0). */
  toPayKobo: number;
  /** What goes back as a refund owed (0 unless the difference is below 0). */
  refundKobo: number;
}

export function exchangeMoney(creditKobo: number, newTotalKobo: number): ExchangeMoney {
  const differenceKobo = newTotalKobo - creditKobo;
  return {
    creditKobo,
    newTotalKobo,
    differenceKobo,
    toPayKobo: Math.max(0, differenceKobo),
    refundKobo: Math.max(0, -differenceKobo),
  };
}

/** The tender of the new sale, or the problem (path under the request, message for the cashier). */
export type ExchangeTender = { ok: true; tender: Tender } | { ok: false; path: string; message: string };

/**
 * How the new sale is paid. A difference above 0 is paid by card (the card part: exactly the
 * difference, one order on the terminal) or in cash (tendered at least the difference); a split is
 * not offered. Nothing to pay: a cash sale of ₦0.00 (no order on any terminal; the tender asked is
 * ignored).
 */
export function exchangeTender(money: ExchangeMoney, asked: Tender | undefined): ExchangeTender {
  if (money.toPayKobo === 0) return { ok: true, tender: { kind: 'cash', tenderedKobo: 0 } };
  const due = formatNaira(money.toPayKobo);
  if (!asked)
    return {
      ok: false,
      path: 'tender',
      message: `The difference is ${due}: choose how the customer pays it, card or cash`,
    };
  if (asked.kind === 'split')
    return { ok: false, path: 'tender', message: `Take the difference of ${due} all by card or all in cash` };
  if (asked.kind === 'cash' && asked.tenderedKobo < money.toPayKobo)
    return {
      ok: false,
      path: 'tender.tenderedKobo',
      message: `${formatNaira(asked.tenderedKobo)} tendered is less than the difference of ${due}: take at least ${due}, or pay by card`,
    };
  return { ok: true, tender: asked };
}
