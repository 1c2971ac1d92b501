// The branch's concessions catalogue on the counter: what the Sell screen and Settings read (each
// item and combo with sold out and the stock left), importing a file (CSV or JSON, all or nothing,
// errors by line and column as the programme's), the template, marking sold out, and the event
// that says it changed. Merged into `calls`/`events` in contract.ts; edit here, not there. The model
// is shared/catalogue.ts; the format docs/concessions.md.
import { z } from 'zod';
import { MAX_CATALOGUE_JSON_CHARS } from './catalogue-json';
import { Empty, type CallsSpec, type EventsSpec } from './contract-kit';
import { CsvFileSchema, RowErrorSchema } from './topups';

/** Where the counter's catalogue came from: a file imported here, the Hub, or the Demo profile's own. */
export const CatalogueSourceSchema = z.object({
  kind: z.enum(['file', 'hub', 'demo']),
  /** When it replaced the one before (ms); the stock left counts the sales paid from then. */
  importedAt: z.number(),
  /** The file's name (a file import); null otherwise. */
  fileName: z.string().nullable(),
});
export type CatalogueSource = z.infer<typeof CatalogueSourceSchema>;

const Kobo = z.number().int();

export const CatalogueItemViewSchema = z.object({
  code: z.string(),
  name: z.string(),
  category: z.string(),
  priceKobo: Kobo,
  /** Marked sold out (in the file, or by the cashier). */
  soldOut: z.boolean(),
  /** The count in the catalogue as imported; null: not counted. */
  stock: z.number().int().nullable(),
  /** The count less what this counter's paid sales took since; null: not counted. Below 0 when more was sold than counted. */
  left: z.number().int().nullable(),
  /** Can be sold now: not marked sold out, and some left when counted. */
  available: z.boolean(),
});
export type CatalogueItemView = z.infer<typeof CatalogueItemViewSchema>;

export const CatalogueComboViewSchema = z.object({
  code: z.string(),
  name: z.string(),
  category: z.string(),
  priceKobo: Kobo,
  soldOut: z.boolean(),
  components: z.array(z.object({ name: z.string(), options: z.array(z.string()) })),
  /** Can be sold now: not marked sold out, and each component has an item that can be. */
  available: z.boolean(),
});
export type CatalogueComboView = z.infer<typeof CatalogueComboViewSchema>;

/** The catalogue as the Sell screen and Settings show it; no source and no entries when the counter has none. */
export const CatalogueViewSchema = z.object({
  source: CatalogueSourceSchema.nullable(),
  items: z.array(CatalogueItemViewSchema),
  combos: z.array(CatalogueComboViewSchema),
});
export type CatalogueView = z.infer<typeof CatalogueViewSchema>;

export const CatalogueImportResultSchema = z.object({
  /** true: the catalogue was replaced; false: nothing was written (see errors). */
  imported: z.boolean(),
  totalRows: z.number().int().nonnegative(),
  /** The first errors, each by line and column. */
  errors: z.array(RowErrorSchema),
  /** All errors, of which `errors` holds the first ones. */
  errorCount: z.number().int().nonnegative(),
  catalogue: CatalogueViewSchema,
});
export type CatalogueImportResult = z.infer<typeof CatalogueImportResultSchema>;

export const catalogueCalls = {
  /** The counter's catalogue: items and combos, each with sold out and the stock left. */
  'catalogue.get': { args: Empty, result: CatalogueViewSchema },
  /** A catalogue file, CSV or JSON (by its name, else its content): replaces the whole catalogue only when all of it is right (admin, like other imports). */
  'catalogue.import': {
    args: z
      .object({
        text: z
          .string()
          .max(
            MAX_CATALOGUE_JSON_CHARS,
            `The file is too large: at most ${Math.floor(MAX_CATALOGUE_JSON_CHARS / 1000)} kB.`,
          ),
        fileName: z.string().max(200).default('catalogue.csv'),
      })
      .strict(),
    result: CatalogueImportResultSchema,
    admin: true,
  },
  /** The CSV template: the Demo profile's catalogue. */
  'catalogue.template': { args: Empty, result: CsvFileSchema },
  /** The cashier marks an item or combo sold out, or back on sale. */
  'catalogue.setSoldOut': {
    args: z.object({ code: z.string().trim().min(1).max(12), soldOut: z.boolean() }).strict(),
    result: CatalogueViewSchema,
  },
} satisfies CallsSpec;

export const catalogueEvents = {
  /** The catalogue was replaced, an entry marked sold out or back on sale, or a paid sale took stock. */
  'catalogue.changed': CatalogueViewSchema,
} satisfies EventsSpec;
