// The basket's calls to main, through one small adapter: the catalogue (`catalogue.get`), the
// engine's pricing (`sale.priceBasket`) and the sale (`sale.sellBasket`). Each answer is read
// through its schema, so the screen only ever shows what main sent.
// TODO(issue 38, at merge): the three calls are named through the contract's `calls` once main
// lists them (basketCalls, the catalogue's); until then they go by name.
import { z } from 'zod';
import type { BasketInput } from '../../../shared/basket';
import type { BasketSaleInput } from '../../../shared/basket-sale';
import type { Catalogue } from '../../../shared/catalogue';
import { OrderViewSchema, type OrderView } from '../../../shared/orders';
import { BasketPriceSchema } from '../../../shared/sold-basket';
import { call } from '../transport/bridge';

const byName = call as unknown as (name: string, args: unknown) => Promise<unknown>;

export type BasketPrice = z.infer<typeof BasketPriceSchema>;

/** The catalogue as `catalogue.get` shows it: an item's `stockLeft` is its stock count. */
const CatalogueViewSchema = z.object({
  items: z.array(
    z.object({
      code: z.string(),
      name: z.string(),
      category: z.string(),
      priceKobo: z.number().int(),
      soldOut: z.boolean(),
      stockLeft: z.number().int().nullish(),
      stock: z.number().int().nullish(),
    }),
  ),
  combos: z
    .array(
      z.object({
        code: z.string(),
        name: z.string(),
        category: z.string(),
        priceKobo: z.number().int(),
        soldOut: z.boolean(),
        components: z.array(z.object({ name: z.string(), options: z.array(z.string()) })),
      }),
    )
    .default([]),
});

/** The catalogue view as the pad's Catalogue (an empty catalogue when the branch has none). */
export function catalogueOfView(raw: unknown): Catalogue {
  const holder = z.object({ catalogue: z.unknown() }).safeParse(raw);
  const value = holder.success ? holder.data.catalogue : raw;
  if (value === null || value === undefined) return { items: [], combos: [] };
  const v = CatalogueViewSchema.parse(value);
  return {
    items: v.items.map(({ stockLeft, stock, ...it }) => {
      const left = stockLeft ?? stock;
      return left === null || left === undefined ? it : { ...it, stock: left };
    }),
    combos: v.combos,
  };
}

export async function loadCatalogue(): Promise<Catalogue> {
  return catalogueOfView(await byName('catalogue.get', {}));
}

export async function priceBasket(basket: BasketInput): Promise<BasketPrice> {
  return BasketPriceSchema.parse(await byName('sale.priceBasket', { basket }));
}

export async function sellBasket(input: BasketSaleInput): Promise<OrderView> {
  return OrderViewSchema.parse(await byName('sale.sellBasket', input));
}
