// The basket's calls to main: the engine's pricing (`sale.priceBasket`) and the sale
// (`sale.sellBasket`); and the catalogue view (`catalogue.get`, catalogue-store.ts) as the pad reads it.
import type { BasketInput } from '../../../shared/basket';
import type { BasketSaleInput } from '../../../shared/basket-sale';
import type { Catalogue } from '../../../shared/catalogue';
import type { CatalogueView } from '../../../shared/contract-catalogue';
import type { OrderView } from '../../../shared/orders';
import type { BasketPriceSchema } from '../../../shared/sold-basket';
import type { z } from 'zod';
import { call } from '../transport/bridge';

export type BasketPrice = z.infer<typeof BasketPriceSchema>;

/**
 * The catalogue view as the pad's Catalogue: an entry that cannot be sold now is sold out, and an
 * item's stock is what is left (never below 0 on the pad; the engine judges the basket either way).
 */
export function catalogueOfView(v: CatalogueView): Catalogue {
  return {
    items: v.items.map((i) => ({
      code: i.code,
      name: i.name,
      category: i.category,
      priceKobo: i.priceKobo,
      soldOut: !i.available,
      ...(i.left === null ? {} : { stock: Math.max(0, i.left) }),
    })),
    combos: v.combos.map((c) => ({
      code: c.code,
      name: c.name,
      category: c.category,
      priceKobo: c.priceKobo,
      soldOut: !c.available,
      components: c.components,
    })),
  };
}

export function priceBasket(basket: BasketInput): Promise<BasketPrice> {
  return call('sale.priceBasket', { basket });
}

export function sellBasket(input: BasketSaleInput): Promise<OrderView> {
  return call('sale.sellBasket', input);
}
