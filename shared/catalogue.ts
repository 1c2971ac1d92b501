// The concessions catalogue of one branch, as the counter keeps it: items (a size is its own item:
// "Popcorn small", "Popcorn large") and combos (a bundle at its own price whose components are an
// item or a choice among items, e.g. the drink's flavour), prices in kobo, an item sold out or
// counted. A file a person writes (CSV or JSON, money in naira) becomes one through
// `checkCatalogueCsv` (catalogue-csv.ts) or `checkCatalogueJson` (catalogue-json.ts), whole or not
// at all; the Hub pushes this very shape. zod only; pure rules only. Format: docs/concessions.md.
import { z } from 'zod';

/** At most this many items and combos in a catalogue (a counter's pad, not a warehouse). */
export const MAX_CATALOGUE_ENTRIES = 500;
/** A typo guard, not a business rule: no single item costs more than ₦1,000,000. */
export const MAX_CONCESSION_PRICE_KOBO = 100_000_000;
/** A code is what the cashier types on the concessions pad: letters and digits, a dash inside. */
export const CONCESSION_CODE_RE = /^[A-Z0-9](?:[A-Z0-9-]{0,10}[A-Z0-9])?$/;

/** The rule for a code, in the words the cashier and the importer read. */
export const CODE_RULE = '1 to 12 letters, digits or dashes (not first or last), for example POPL or CMB-1';

const text = (what: string, max: number) =>
  z
    .string({ error: `Enter the ${what}` })
    .trim()
    .min(1, `Enter the ${what}`)
    .max(max, `The ${what} is at most ${max} characters`);

const code = z
  .string({ error: 'Enter the code' })
  .trim()
  .transform((v) => v.toUpperCase())
  .refine((v) => CONCESSION_CODE_RE.test(v), `A code is ${CODE_RULE}`);

const priceKobo = z
  .number({ error: 'Enter the price' })
  .int('The price must be a whole number of kobo')
  .positive('The price must be more than ₦0.00')
  .max(MAX_CONCESSION_PRICE_KOBO, 'The price looks wrong (over ₦1,000,000): check it');

export const ConcessionItemSchema = z.object({
  code,
  name: text('item name', 40),
  /** What the pad and the reports group it by ("Popcorn", "Drinks", "Snacks"). */
  category: text('category', 30),
  priceKobo,
  soldOut: z.boolean().default(false),
  /** How many are left, when the branch counts this item; absent: not counted. 0 is sold out. */
  stock: z.number().int('The stock is a whole number').min(0, 'The stock cannot be negative').max(1_000_000).optional(),
});
export type ConcessionItem = z.output<typeof ConcessionItemSchema>;

/** A part of a combo: one item (a single option), or a choice among items (the drink's flavour). */
export const ComboComponentSchema = z.object({
  /** What the cashier is asked to choose ("Drink"); with one option, what the combo holds ("Popcorn"). */
  name: text('component name', 30),
  /** Item codes; the first is offered first. */
  options: z.array(code).min(1, 'A component needs at least one item').max(20, 'At most 20 items to choose from'),
});
export type ComboComponent = z.output<typeof ComboComponentSchema>;

export const ComboSchema = z.object({
  code,
  name: text('combo name', 40),
  category: text('category', 30),
  priceKobo,
  soldOut: z.boolean().default(false),
  components: z.array(ComboComponentSchema).min(1, 'A combo needs at least one component').max(10),
});
export type Combo = z.output<typeof ComboSchema>;

/** A whole catalogue: what an import produces and what the Hub pushes; it replaces the copy on the counter. */
export const CatalogueSchema = z
  .object({
    items: z.array(ConcessionItemSchema),
    combos: z.array(ComboSchema).default([]),
  })
  .superRefine((c, ctx) => {
    if (c.items.length + c.combos.length > MAX_CATALOGUE_ENTRIES)
      ctx.addIssue({ code: 'custom', message: `A catalogue has at most ${MAX_CATALOGUE_ENTRIES} items and combos` });
    for (const p of catalogueProblems(c)) ctx.addIssue({ code: 'custom', path: p.path, message: p.message });
  });
export type Catalogue = z.output<typeof CatalogueSchema>;
export type CatalogueInput = z.input<typeof CatalogueSchema>;

/** A rule of a catalogue broken, with where (`items.2.code`, `combos.0.components.1.options.2`). */
export interface CatalogueProblem {
  path: (string | number)[];
  message: string;
}

/** The rules between entries: codes once across items and combos, a combo's items in the catalogue, a component and an option once. */
export function catalogueProblems(c: {
  items: readonly Pick<ConcessionItem, 'code'>[];
  combos: readonly Pick<Combo, 'code' | 'name' | 'components'>[];
}): CatalogueProblem[] {
  const problems: CatalogueProblem[] = [];
  const codes = new Map<string, string>();
  const claim = (value: string, path: (string | number)[], what: string) => {
    const before = codes.get(value);
    if (before !== undefined)
      problems.push({ path, message: `The code ${value} is used twice (${before} and ${what})` });
    else codes.set(value, what);
  };
  c.items.forEach((it, i) => claim(it.code, ['items', i, 'code'], 'an item'));
  c.combos.forEach((co, i) => claim(co.code, ['combos', i, 'code'], 'a combo'));
  const items = new Set(c.items.map((it) => it.code));
  c.combos.forEach((co, i) => {
    const names = new Set<string>();
    co.components.forEach((comp, j) => {
      const at = ['combos', i, 'components', j];
      const key = comp.name.trim().toLowerCase();
      if (names.has(key))
        problems.push({ path: [...at, 'name'], message: `The combo ${co.name} has two components named ${comp.name}` });
      names.add(key);
      const seen = new Set<string>();
      comp.options.forEach((o, k) => {
        if (!items.has(o))
          problems.push({
            path: [...at, 'options', k],
            message: `The combo ${co.name} offers ${o} as ${comp.name}, which is not an item of the catalogue`,
          });
        else if (seen.has(o))
          problems.push({ path: [...at, 'options', k], message: `${o} is offered twice as ${comp.name}` });
        seen.add(o);
      });
    });
  });
  return problems;
}

/** Is this item sold out (marked, or counted down to 0)? */
export function isSoldOut(item: Pick<ConcessionItem, 'soldOut' | 'stock'>): boolean {
  return item.soldOut || item.stock === 0;
}

/** The Demo profile's catalogue: popcorn in two sizes, three drinks, nachos and a combo with a drink choice. */
export const DEMO_CATALOGUE: Catalogue = {
  items: [
    { code: 'POPS', name: 'Popcorn small', category: 'Popcorn', priceKobo: 150_000, soldOut: false },
    { code: 'POPL', name: 'Popcorn large', category: 'Popcorn', priceKobo: 250_000, soldOut: false },
    { code: 'FANTA', name: 'Fanta 50cl', category: 'Drinks', priceKobo: 70_000, soldOut: false },
    { code: 'COKE', name: 'Coke 50cl', category: 'Drinks', priceKobo: 70_000, soldOut: false },
    { code: 'WATER', name: 'Water 75cl', category: 'Drinks', priceKobo: 40_000, soldOut: false, stock: 48 },
    { code: 'NACHO', name: 'Nachos with cheese', category: 'Snacks', priceKobo: 200_000, soldOut: false },
  ],
  combos: [
    {
      code: 'CMB1',
      name: 'Popcorn combo',
      category: 'Combos',
      priceKobo: 300_000,
      soldOut: false,
      components: [
        { name: 'Popcorn', options: ['POPL'] },
        { name: 'Drink', options: ['FANTA', 'COKE', 'WATER'] },
      ],
    },
  ],
};
