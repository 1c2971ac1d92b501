// The basket: one sale of tickets for one show (each seat with its ticket type), concessions (items
// and combos with their choices, each line with a quantity) and how it is paid (card, cash, or split:
// a cash part and one card part). The schemas of what a door sends, the priced lines, and the one
// arithmetic of its amounts in integer kobo (`basketAmounts`); the rules against the show's ticket
// types and the branch's catalogue are `checkBasket` (basket-check.ts). A basket of one ticket type
// paid by card has exactly the amounts of today's sale (`saleAmounts`). Rules: docs/concessions.md.
import { z } from 'zod';
import { CONCESSION_CODE_RE } from './catalogue';
import { MAX_TICKETS, SaleInputSchema } from './orders';
import { SEAT_LABEL_RE } from './seat-list';

/** At most this many concession lines in one basket. */
export const MAX_CONCESSION_LINES = 40;
/** A line's quantity: 1 to this. */
export const MAX_LINE_QUANTITY = 99;
/** A typo guard for cash: no one hands over more than ₦10,000,000 at a counter. */
const MAX_CASH_KOBO = 1_000_000_000;

/** What the cashier is told when a basket has a wrong line (each problem names its line). */
export const BASKET_INVALID = 'Check the basket: some lines need fixing';

const code = z
  .string({ error: 'Enter the code of the item or combo' })
  .trim()
  .transform((v) => v.toUpperCase())
  .refine((v) => CONCESSION_CODE_RE.test(v), 'Enter the code of the item or combo (POPL, CMB1…)');

const cash = (what: string) =>
  z
    .number({ error: `Enter the ${what}` })
    .int(`The ${what} must be a whole number of kobo`)
    .min(0, `The ${what} cannot be negative`)
    .max(MAX_CASH_KOBO, `The ${what} looks wrong (over ₦10,000,000): check it`);

/** A seat of the show and the ticket type it is sold at. */
export const BasketSeatSchema = z
  .object({
    seat: z
      .string({ error: 'Enter the seat, for example F7' })
      .trim()
      .transform((v) => v.toUpperCase())
      .refine((v) => SEAT_LABEL_RE.test(v), 'A seat is letters and digits only, for example F7'),
    ticketType: z
      .string({ error: 'Choose a ticket type' })
      .trim()
      .min(1, 'Choose a ticket type')
      .max(30, 'A ticket type is at most 30 characters'),
  })
  .strict();

/** The tickets of a basket: one show (as today's sale names it) and its seats, each with its type. */
export const BasketTicketsSchema = z
  .object({
    /** The programme's show (its key), when the door picked it there: a film may play at one time on two screens. */
    showKey: z.string().trim().min(1).max(200).optional(),
    filmName: SaleInputSchema.shape.filmName,
    filmTitle: SaleInputSchema.shape.filmTitle,
    showDate: SaleInputSchema.shape.showDate,
    showTime: SaleInputSchema.shape.showTime,
    seats: z
      .array(BasketSeatSchema)
      .min(1, 'Choose at least one seat, or leave the tickets out')
      .max(MAX_TICKETS, `At most ${MAX_TICKETS} tickets in one sale: split larger groups into several sales`),
  })
  .strict()
  .superRefine((t, ctx) => {
    const seen = new Set<string>();
    t.seats.forEach((s, i) => {
      if (seen.has(s.seat))
        ctx.addIssue({ code: 'custom', path: ['seats', i, 'seat'], message: 'listed twice; remove one' });
      seen.add(s.seat);
    });
  });

/** A concession line: an item or a combo by its code, how many, and a combo's choices (component name → item code). */
export const ConcessionLineSchema = z
  .object({
    code,
    quantity: z
      .number({ error: `Enter the quantity (1 to ${MAX_LINE_QUANTITY})` })
      .int(`The quantity is a whole number from 1 to ${MAX_LINE_QUANTITY}`)
      .min(1, `The quantity is a whole number from 1 to ${MAX_LINE_QUANTITY}: remove the line to sell none`)
      .max(MAX_LINE_QUANTITY, `At most ${MAX_LINE_QUANTITY} of one line: add another line for more`),
    choices: z.record(z.string().trim().min(1).max(30), code).default({}),
  })
  .strict();
export type ConcessionLine = z.output<typeof ConcessionLineSchema>;

/**
 * How the basket is paid. Card: all of it on the terminal. Cash: all of it in cash, `tenderedKobo`
 * handed over. Split: `cashKobo` in cash (`tenderedKobo` handed over for it, the cash part itself
 * when left out) and the rest as one card order on the terminal.
 */
export const TenderSchema = z.discriminatedUnion(
  'kind',
  [
    z.object({ kind: z.literal('card') }).strict(),
    z.object({ kind: z.literal('cash'), tenderedKobo: cash('cash tendered') }).strict(),
    z
      .object({ kind: z.literal('split'), cashKobo: cash('cash part'), tenderedKobo: cash('cash tendered').optional() })
      .strict(),
  ],
  { error: 'Choose how the customer pays: card, cash or split' },
);
export type Tender = z.output<typeof TenderSchema>;
export type TenderKind = Tender['kind'];

export const BasketSchema = z
  .object({
    tickets: BasketTicketsSchema.optional(),
    concessions: z
      .array(ConcessionLineSchema)
      .max(MAX_CONCESSION_LINES, `At most ${MAX_CONCESSION_LINES} concession lines in one sale`)
      .default([]),
    tender: TenderSchema,
  })
  .strict();
/** What a door sends. */
export type BasketInput = z.input<typeof BasketSchema>;
/** A basket of the right shape (codes and seats in capitals); its lines are checked by `checkBasket`. */
export type Basket = z.output<typeof BasketSchema>;

// ---- priced lines ----

/** The tickets of one ticket type, priced from the show's ticket type (the booking fee per ticket, as today). */
export interface TicketsLine {
  kind: 'tickets';
  /** As the programme names it. */
  ticketType: string;
  seats: string[];
  quantity: number;
  unitKobo: number;
  feePerTicketKobo: number;
  /** quantity × unit price (the fee apart). */
  amountKobo: number;
  /** quantity × fee per ticket (`bookingFeeForSale`). */
  bookingFeeKobo: number;
}

/** A combo's component as sold: the item it holds or the one chosen. */
export interface ChosenItem {
  component: string;
  code: string;
  name: string;
  /** Chosen among several items (the drink's flavour), not the component's only item. */
  choice: boolean;
}

export interface ConcessionPricedLine {
  kind: 'item' | 'combo';
  code: string;
  name: string;
  category: string;
  quantity: number;
  unitKobo: number;
  /** quantity × unit price. */
  amountKobo: number;
  /** A combo's components in the catalogue's order (empty for an item). */
  chosen: ChosenItem[];
}

export type BasketLine = TicketsLine | ConcessionPricedLine;

/** Every figure of a basket, in kobo. */
export interface BasketAmounts {
  /** Ticket prices, fees apart. */
  ticketsKobo: number;
  /** The booking fee of all the tickets. */
  bookingFeeKobo: number;
  concessionsKobo: number;
  /** What the customer pays: tickets + booking fee + concessions. */
  totalKobo: number;
  /** The cash part: the total (cash), the cash given as part (split), 0 (card). */
  cashKobo: number;
  /** The card part: what the card order on the terminal is for (0 when all cash). */
  cardKobo: number;
  /** The cash handed over (0 for card). */
  tenderedKobo: number;
  /** What the cashier hands back: tendered − cash part. */
  changeKobo: number;
  /**
   * An exchange's new sale only (docs/refunds.md, "Exchange"): the part of the total paid by the
   * credit of the tickets it replaces (at most the total). The cash part and the card part are the
   * rest: only they are new money. Absent on every other sale.
   */
  creditKobo?: number;
}

const safe = (n: number): number => {
  if (!Number.isSafeInteger(n)) throw new RangeError('amount out of range');
  return n;
};

/** A line's amount: quantity × unit price, in kobo. */
export function lineAmount(quantity: number, unitKobo: number): number {
  return safe(quantity * unitKobo);
}

/**
 * The one arithmetic of a basket's amounts from its priced lines and its tender. It does not judge
 * the tender (cash short, a split whose card part is not above 0): `checkBasket` does. `creditKobo`:
 * an exchange's credit (shared/exchange.ts), which pays the total first (up to all of it); the
 * tender pays the rest.
 */
export function basketAmounts(lines: readonly BasketLine[], tender: Tender, creditKobo = 0): BasketAmounts {
  let ticketsKobo = 0;
  let bookingFeeKobo = 0;
  let concessionsKobo = 0;
  for (const l of lines) {
    if (l.kind === 'tickets') {
      ticketsKobo = safe(ticketsKobo + l.amountKobo);
      bookingFeeKobo = safe(bookingFeeKobo + l.bookingFeeKobo);
    } else concessionsKobo = safe(concessionsKobo + l.amountKobo);
  }
  const totalKobo = safe(ticketsKobo + bookingFeeKobo + concessionsKobo);
  const credit = Math.min(safe(Math.max(0, creditKobo)), totalKobo);
  const payKobo = totalKobo - credit;
  const cashKobo = tender.kind === 'card' ? 0 : tender.kind === 'cash' ? payKobo : tender.cashKobo;
  const tenderedKobo =
    tender.kind === 'card'
      ? 0
      : tender.kind === 'cash'
        ? tender.tenderedKobo
        : (tender.tenderedKobo ?? tender.cashKobo);
  return {
    ticketsKobo,
    bookingFeeKobo,
    concessionsKobo,
    totalKobo,
    cashKobo,
    cardKobo: payKobo - cashKobo,
    tenderedKobo,
    changeKobo: tenderedKobo - cashKobo,
    ...(creditKobo > 0 ? { creditKobo: credit } : {}),
  };
}

/** How many of each item a basket takes (a combo takes one of each of its components per combo): what stock counts lose when it is paid. */
export function itemsTaken(lines: readonly BasketLine[]): Map<string, number> {
  const taken = new Map<string, number>();
  const take = (c: string, n: number) => taken.set(c, (taken.get(c) ?? 0) + n);
  for (const l of lines) {
    if (l.kind === 'item') take(l.code, l.quantity);
    else if (l.kind === 'combo') for (const c of l.chosen) take(c.code, l.quantity);
  }
  return taken;
}
