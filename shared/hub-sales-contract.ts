// The dashboard's sales by category and by tender (Today and each shift), the items export, and a
// branch's concessions catalogue on the Hub (uploaded by a manager, pulled by the branch's counters)
// with its stock across counters. Figures are summed by the Hub's SQL over the projection
// (hub/store/dashboard-sales.ts); the screens only show them. Money is integer kobo.
import { z } from 'zod';
import { CatalogueSchema } from './catalogue';
import { HUB_API_PREFIX } from './hub-contract';
import { BranchId, DaySchema, Kobo, Ms } from './hub-dashboard-fields';
import { RowErrorSchema } from './topups';

// ---- Sales by category and tender ------------------------------------------------------------

const Count = z.number().int();
/** One line of "by category": the tickets, the booking fees, or one concessions category. */
const SalesCategorySchema = z.object({
  kind: z.enum(['tickets', 'fees', 'concessions']),
  /** `Tickets`, `Booking fees`, or the catalogue's category (`Popcorn`, `Drinks`). */
  category: z.string(),
  /** Tickets or items sold (0 for the fees). */
  quantity: Count,
  amountKobo: Kobo,
});
/** One line of "by tender": the sales paid wholly by card, wholly in cash, or split. */
const SalesTenderSchema = z.object({
  tender: z.enum(['card', 'cash', 'split']),
  count: Count,
  totalKobo: Kobo,
  cashKobo: Kobo,
  cardKobo: Kobo,
});
/**
 * The sales of a day or a shift by category and by tender. A sale counts where the ledger counts it
 * (shared/ledger-row.ts): its lines in the categories when it is inside the card total (paid, or
 * paid after closing and kept) at the time it is counted; its tender when it is paid (the ledger's
 * tender lines, shared/tender-lines.ts). Demo and Sandbox sales are not in it.
 */
export const SalesMixSchema = z.object({
  categories: z.array(SalesCategorySchema),
  /** Always the three: card, cash, split. */
  tenders: z.array(SalesTenderSchema),
  /** What the categories add up to (tickets, fees, concessions). */
  totalKobo: Kobo,
  /** Cash taken: the cash sales and the splits' cash parts. */
  cashKobo: Kobo,
  /** Taken by card: the card sales and the splits' card parts. */
  cardKobo: Kobo,
});
export type SalesMix = z.infer<typeof SalesMixSchema>;

// ---- The items export ------------------------------------------------------------------------

/** `GET /api/v1/dashboard/items.csv?from=&to=[&branch=]`: what was sold, per branch and Lagos day. */
export const ItemsCsvQuerySchema = z.object({ from: DaySchema, to: DaySchema, branch: BranchId.optional() }).strict();
export const ITEMS_CSV_COLUMNS = [
  'day_lagos',
  'branch',
  'kind',
  'code',
  'name',
  'category',
  'quantity',
  'amount_naira',
  'booking_fee_naira',
] as const;

// ---- The catalogue on the Hub ----------------------------------------------------------------

/** `GET /api/v1/catalogue` (counter): the branch's catalogue as the Hub holds it. */
export const HUB_CATALOGUE_PATH = `${HUB_API_PREFIX}/catalogue`;
export const HubCatalogueSchema = z.object({
  branch: z.string(),
  /** 0 while no catalogue was uploaded; then 1, 2, … per branch, one more per upload. */
  version: z.number().int().nonnegative(),
  updatedAt: Ms.nullable(),
  catalogue: CatalogueSchema.nullable(),
});
export type HubCatalogue = z.infer<typeof HubCatalogueSchema>;

export const DASH_CATALOGUE_PATH = '/api/v1/dashboard/catalogue';
export const DashCatalogueQuerySchema = z.object({ branch: BranchId.optional() }).strict();
/** An item counted across the branch's counters: the stock uploaded, what paid sales took since, and what is left (below 0: Needs attention). */
const StockLineSchema = z.object({
  code: z.string(),
  name: z.string(),
  category: z.string(),
  uploaded: Count,
  taken: Count,
  left: Count,
});
export type StockLine = z.infer<typeof StockLineSchema>;
export const DashCatalogueViewSchema = HubCatalogueSchema.extend({
  updatedBy: z.string().nullable(),
  stock: z.array(StockLineSchema),
});
export type DashCatalogueView = z.infer<typeof DashCatalogueViewSchema>;

/** `POST /catalogue/import`: a catalogue file (CSV or JSON, docs/concessions.md), every line checked first. */
export const ImportCatalogueRequestSchema = z
  .object({
    branch: BranchId.nullable().default(null),
    text: z.string().max(500_000, 'The file is too large: at most 500 kB'),
    format: z.enum(['csv', 'json']),
    fileName: z.string().max(200).default('catalogue.csv'),
  })
  .strict();
export const ImportCatalogueResultSchema = z.object({
  /** true: the catalogue was replaced; false: nothing was kept (see errors). */
  imported: z.boolean(),
  totalRows: z.number().int().nonnegative(),
  errors: z.array(RowErrorSchema),
  errorCount: z.number().int().nonnegative(),
  catalogue: DashCatalogueViewSchema,
});
export type ImportCatalogueResult = z.infer<typeof ImportCatalogueResultSchema>;
