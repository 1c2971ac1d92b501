// The basket's calls between the renderer and main: the engine prices a basket as the cashier
// builds it (the screen shows those figures, it never adds them up) and sells it through the one
// checkout door. Rules: docs/concessions.md.
import { z } from 'zod';
import type { CallsSpec } from './contract-kit';
import { BASKET_INVALID } from './basket';
import { BasketSaleSchema } from './basket-sale';
import { OrderViewSchema } from './orders';
import { BasketPriceSchema } from './sold-basket';

export const basketCalls = {
  /** The basket priced by the engine against the show's ticket types and the branch's catalogue (nothing recorded). */
  'sale.priceBasket': { args: z.object({ basket: z.unknown() }).strict(), result: BasketPriceSchema },
  /** Sells a basket: the same door, rules and journal as every sale; cash alone is paid at once, a card part goes to the terminal. */
  'sale.sellBasket': { args: BasketSaleSchema, result: OrderViewSchema, invalid: BASKET_INVALID },
} satisfies CallsSpec;
