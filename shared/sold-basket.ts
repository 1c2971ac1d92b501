// What a recorded sale's basket looks like in a view (the order view, the Hub's sync): its priced
// lines, its tender and its amounts, as the engine computed them (shared/basket-check.ts). Kept apart
// from shared/basket.ts so that the order view (shared/orders.ts) can hold it without an import cycle.
import { z } from 'zod';

const Kobo = z.number().int();
const TicketsLineSchema = z.object({
  kind: z.literal('tickets'),
  ticketType: z.string(),
  seats: z.array(z.string()),
  quantity: z.number().int(),
  unitKobo: Kobo,
  feePerTicketKobo: Kobo,
  amountKobo: Kobo,
  bookingFeeKobo: Kobo,
});
const ConcessionPricedLineSchema = z.object({
  kind: z.enum(['item', 'combo']),
  code: z.string(),
  name: z.string(),
  category: z.string(),
  quantity: z.number().int(),
  unitKobo: Kobo,
  amountKobo: Kobo,
  chosen: z.array(z.object({ component: z.string(), code: z.string(), name: z.string(), choice: z.boolean() })),
});
export const BasketAmountsSchema = z.object({
  ticketsKobo: Kobo,
  bookingFeeKobo: Kobo,
  concessionsKobo: Kobo,
  totalKobo: Kobo,
  cashKobo: Kobo,
  cardKobo: Kobo,
  tenderedKobo: Kobo,
  changeKobo: Kobo,
  /** An exchange's new sale: the credit of the tickets it replaces (docs/refunds.md). */
  creditKobo: Kobo.optional(),
});

/** A recorded sale's basket: its priced lines, how it is paid, and its amounts (the engine's). */
export const SoldBasketSchema = z.object({
  lines: z.array(z.union([TicketsLineSchema, ConcessionPricedLineSchema])),
  /** How it is paid (`TenderSchema` in shared/basket.ts). */
  tender: z.union([
    z.object({ kind: z.literal('card') }),
    z.object({ kind: z.literal('cash'), tenderedKobo: Kobo }),
    z.object({ kind: z.literal('split'), cashKobo: Kobo, tenderedKobo: Kobo.optional() }),
  ]),
  amounts: BasketAmountsSchema,
});

/** The engine's pricing of a basket as the cashier builds it: its lines and amounts, or every problem (each naming its line). */
export const BasketPriceSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), lines: SoldBasketSchema.shape.lines, amounts: BasketAmountsSchema }),
  z.object({
    ok: z.literal(false),
    problems: z.array(z.object({ path: z.array(z.union([z.string(), z.number()])), message: z.string() })),
  }),
]);
