// The pickup slip: what the concession stand reads to hand over a basket's concessions. Printed as
// its own print job beside the receipt (its own cut on a thermal printer), only when the basket has
// concession lines. It carries a short pickup number the stand calls out, the counter and the time,
// and the concession lines alone (quantity, name, a combo's items). Rules: docs/concessions.md.
import { z } from 'zod';
import type { BasketLine } from './basket';

/** Digits of the sale number's sequence the pickup number keeps. */
const PICKUP_DIGITS = 3;

/**
 * The pickup number of a sale: the last three digits of its sale number's sequence
 * ("C1-261121-0042" → "042"). It repeats after 999 sales of a counter in a day, and two counters may
 * share one: the slip also says the counter and the time, and the stand checks the sale number.
 */
export function pickupNumber(outOrderNo: string): string {
  const seq = /-(\d+)$/.exec(outOrderNo)?.[1];
  const tail = seq ?? outOrderNo.replace(/[^A-Za-z0-9]/g, '');
  return tail.slice(-PICKUP_DIGITS).padStart(PICKUP_DIGITS, '0');
}

export const PickupSlipSchema = z.object({
  orderId: z.number().int().positive(),
  outOrderNo: z.string(),
  /** `pickupNumber(outOrderNo)`. */
  pickupNo: z.string(),
  cinemaName: z.string(),
  counterName: z.string(),
  /** When the sale was paid (or made, for cash): printed in Lagos time. */
  at: z.number(),
  /** The concession lines: quantity, name, and a combo's items ("Drink: Fanta 50cl"). */
  lines: z.array(
    z.object({
      quantity: z.number().int(),
      name: z.string(),
      items: z.array(z.object({ component: z.string(), name: z.string() })),
    }),
  ),
  demo: z.boolean().optional(),
  reprint: z.boolean(),
});
export type PickupSlip = z.infer<typeof PickupSlipSchema>;

/** The concession lines of a basket as the stand reads them (none: no slip). */
export function pickupLines(lines: readonly BasketLine[]): PickupSlip['lines'] {
  return lines.flatMap((l) =>
    l.kind === 'tickets'
      ? []
      : [
          {
            quantity: l.quantity,
            name: l.name,
            items: l.chosen.map((c) => ({ component: c.component, name: c.name })),
          },
        ],
  );
}
