// A sale's basket as the Hub accepts it in the sync's `order.created` (`basket`): the shape of
// `SoldBasketSchema` (shared/sold-basket.ts) with every limit a stranger's payload needs, so that a
// hostile one is refused with a 400 before it reaches SQL: arrays bounded (the basket's own limits:
// 50 seats, 40 concession lines), text bounded (the catalogue's and the programme's), kobo whole and
// not negative, and the amounts exactly what `basketAmounts` makes of the lines and the tender. A
// field it does not know is dropped, not refused: the counter checks its own payloads with these
// schemas before journaling (core/hub-link/outbox.ts), and a sale must never fail for a new field.
// Broken text (NUL, a lone surrogate) is refused for every body by hub/http/zod-provider.ts.
import { z } from 'zod';
import {
  basketAmounts,
  lineAmount,
  MAX_CONCESSION_LINES,
  MAX_LINE_QUANTITY,
  type BasketLine,
  type Tender,
} from './basket';
import type { SoldBasket } from './basket-sale';

/** The most seats of one sale (BasketTicketsSchema's). */
const MAX_SEATS = 50;
/** Ticket lines (one per type, at most one per seat) and concession lines. */
const MAX_LINES = MAX_SEATS + MAX_CONCESSION_LINES;
/** A line's or an amount's kobo: whole, not negative, at most ₦10 billion (sums of every line stay exact). */
const Kobo = z.number().int().nonnegative().max(1_000_000_000_000, 'too large');
const Str = (max: number) => z.string().max(max, `at most ${max} characters`);
const Quantity = z.number().int().nonnegative();

const TicketsLineSchema = z.object({
  kind: z.literal('tickets'),
  ticketType: Str(40),
  seats: z.array(Str(8)).max(MAX_SEATS),
  quantity: Quantity.max(MAX_SEATS),
  unitKobo: Kobo,
  feePerTicketKobo: Kobo,
  amountKobo: Kobo,
  bookingFeeKobo: Kobo,
});
const ConcessionLineSchema = z.object({
  kind: z.enum(['item', 'combo']),
  code: Str(12).min(1),
  name: Str(40),
  category: Str(30),
  quantity: Quantity.max(MAX_LINE_QUANTITY),
  unitKobo: Kobo,
  amountKobo: Kobo,
  chosen: z.array(z.object({ component: Str(30), code: Str(12).min(1), name: Str(40), choice: z.boolean() })).max(10),
});
const AmountsSchema = z.object({
  ticketsKobo: Kobo,
  bookingFeeKobo: Kobo,
  concessionsKobo: Kobo,
  totalKobo: Kobo,
  cashKobo: Kobo,
  cardKobo: Kobo,
  tenderedKobo: Kobo,
  changeKobo: Kobo,
  /** An exchange's new sale: the credit of the tickets it replaces, paying the total first (docs/refunds.md). */
  creditKobo: Kobo.optional(),
});

/** `order.created`'s `basket`: refused unless its amounts are the lines' and the tender's (`basketAmounts`). */
export const HubSoldBasketSchema = z
  .object({
    lines: z
      .array(z.union([TicketsLineSchema, ConcessionLineSchema]))
      .min(1)
      .max(MAX_LINES),
    tender: z.union([
      z.object({ kind: z.literal('card') }),
      z.object({ kind: z.literal('cash'), tenderedKobo: Kobo }),
      z.object({ kind: z.literal('split'), cashKobo: Kobo, tenderedKobo: Kobo.optional() }),
    ]),
    amounts: AmountsSchema,
  })
  .superRefine((b, ctx) => {
    // Zod may run this over a basket that already failed its shape: anything odd is one more issue.
    try {
      for (const [i, l] of b.lines.entries())
        if (l.amountKobo !== lineAmount(l.quantity, l.unitKobo))
          ctx.addIssue({ code: 'custom', path: ['lines', i], message: 'the amount is not quantity × unit price' });
      const want = basketAmounts(b.lines as BasketLine[], b.tender as Tender, b.amounts.creditKobo ?? 0);
      for (const k of Object.keys(want) as (keyof typeof want)[])
        if (want[k] !== b.amounts[k])
          ctx.addIssue({ code: 'custom', path: ['amounts', k], message: `is not the lines' (${want[k]})` });
    } catch {
      ctx.addIssue({ code: 'custom', message: 'the amounts cannot be worked out from the lines' });
    }
  }) satisfies z.ZodType<SoldBasket>;

const pricedByEngine = new WeakSet<object>();
/**
 * The engine's pricing (core/orders/basket-intake.ts) marks each sold basket it makes. Made by
 * `checkBasket` from a basket within `BasketSchema`'s limits and a catalogue within its own, it is
 * within `HubSoldBasketSchema`'s by construction (test/unit/orders/priced-basket-hub.test.ts proves
 * the largest one passes), so the outbox does not parse it a second time on the sale's path. A basket
 * that is not marked (from a file, a test, another process) is parsed in full.
 */
export function markPricedByEngine<T extends SoldBasket>(basket: T): T {
  pricedByEngine.add(basket);
  return basket;
}
export const isPricedByEngine = (basket: unknown): boolean =>
  typeof basket === 'object' && basket !== null && pricedByEngine.has(basket);
