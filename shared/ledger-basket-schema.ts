// The shape of the ledger's basket figures (shared/ledger-basket.ts) in a kept report: the sales
// total of every tender, tickets by show and ticket type, concessions by item and by category, the
// tender lines, the drawer and the refunds after the sale. zod only; reports kept before baskets
// have none of them.
import { z } from 'zod';
import { CaseCountsSchema } from './cases';

const Kobo = z.number().int();
const BucketSchema = z.object({ count: z.number().int(), amountKobo: Kobo });

/** The tickets of one show at one ticket type: how many, their prices, their booking fee. */
export const TicketTypeLineSchema = z.object({
  filmName: z.string(),
  filmTitle: z.string(),
  showDate: z.string(),
  showTime: z.string(),
  ticketType: z.string(),
  quantity: z.number().int(),
  amountKobo: Kobo,
  bookingFeeKobo: Kobo,
});
export type TicketTypeLine = z.infer<typeof TicketTypeLineSchema>;

/** One item or combo of the catalogue, by its code: how many and their amount. */
export const ConcessionItemLineSchema = z.object({
  code: z.string(),
  name: z.string(),
  category: z.string(),
  quantity: z.number().int(),
  amountKobo: Kobo,
});
export type ConcessionItemLine = z.infer<typeof ConcessionItemLineSchema>;

/** One category of the catalogue: how many of its items and combos, and their amount. */
export const ConcessionCategoryLineSchema = z.object({
  category: z.string(),
  quantity: z.number().int(),
  amountKobo: Kobo,
});
export type ConcessionCategoryLine = z.infer<typeof ConcessionCategoryLineSchema>;

/** The tender lines (shared/tender-lines.ts `TenderLines`). */
export const TenderLinesSchema = z.object({
  card: BucketSchema,
  cash: BucketSchema,
  split: z.object({ count: z.number().int(), cashKobo: Kobo, cardKobo: Kobo }),
  cardTaken: BucketSchema,
  cashTaken: BucketSchema,
  toHandBack: z.object({
    count: z.number().int(),
    amountKobo: Kobo,
    items: z.array(
      z.object({ ref: z.string(), amountKobo: Kobo, outcome: z.enum(['failed', 'cancelled', 'expired']) }),
    ),
  }),
  cashHeld: BucketSchema,
});

/** The drawer (shared/drawer.ts `DrawerTotals`), with each drop and who counted. */
export const DrawerFiguresSchema = z.object({
  floatKobo: Kobo,
  cashTaken: BucketSchema,
  cashPaidOut: BucketSchema,
  drops: BucketSchema,
  expectedKobo: Kobo,
  countedKobo: Kobo.nullable(),
  overShortKobo: Kobo.nullable(),
  dropItems: z.array(z.object({ amountKobo: Kobo, by: z.string(), at: z.number(), note: z.string().optional() })),
  /** Who counted the drawer, and when (null: not counted). */
  count: z.object({ by: z.string(), at: z.number() }).nullable(),
});
export type DrawerFigures = z.infer<typeof DrawerFiguresSchema>;

/**
 * The refunds after the sale (shared/ledger-refunds.ts): made in the window (every tender), paid in
 * cash from the drawer, owed by card when made, card returned in the window, card still owed at the
 * window's end, and the net sales (the sales total − the refunds made).
 */
export const RefundFiguresSchema = z.object({
  made: BucketSchema,
  cash: BucketSchema,
  card: BucketSchema,
  cardReturned: BucketSchema,
  cardStillOwed: BucketSchema,
  netSalesKobo: Kobo,
});
export type RefundFigures = z.infer<typeof RefundFiguresSchema>;

/** The sales total of every tender: the card total + the cash taken. */
export const BasketFiguresShape = {
  salesTotal: BucketSchema.optional(),
  ticketTypes: z.array(TicketTypeLineSchema).optional(),
  concessions: z
    .object({
      items: z.array(ConcessionItemLineSchema),
      categories: z.array(ConcessionCategoryLineSchema),
      quantity: z.number().int(),
      amountKobo: Kobo,
    })
    .optional(),
  tenders: TenderLinesSchema.optional(),
  drawer: DrawerFiguresSchema.optional(),
  /** Refunds after the sale (reports kept before cancels have none). */
  refunds: RefundFiguresSchema.optional(),
  /** Exchanges done in the window and the credit they moved (shared/ledger-exchanges.ts; older reports: none). */
  exchanges: BucketSchema.optional(),
  /** The complaint cases opened in the window and still open at its end (shared/cases.ts; older reports: none). */
  cases: CaseCountsSchema.optional(),
};
