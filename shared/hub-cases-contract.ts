// The complaint desk's search of the branch through the Hub (docs/refunds.md, "The complaint desk"):
// a counter asks for the sales of its own branch (its credential's) that fit what the customer says,
// from the synced journal (dash_orders). The Hub holds no card numbers nor terminals: it matches by
// amount (the card part or the total) and time; the counter asks the provider about each.
import { z } from 'zod';
import { HUB_API_PREFIX } from './hub-contract';

/** `POST /api/v1/cases/search` (counter credential): HubCaseSearch → HubCaseSearchAnswer. */
export const HUB_CASES_SEARCH_PATH = `${HUB_API_PREFIX}/cases/search`;
/** At most this many sales in one answer, newest first. */
export const HUB_CASES_MAX = 50;
/** The widest window a counter may ask about (30 days). */
export const HUB_CASES_MAX_WINDOW_MS = 30 * 86_400_000;

const Ms = z.number().int().nonnegative();

export const HubCaseSearchSchema = z
  .object({
    amountKobo: z.number().int().positive(),
    from: Ms,
    to: Ms,
    /** The counter sells in a practice profile (Demo, Sandbox): only practice sales answer it, else only real ones. */
    practice: z.boolean().default(false),
  })
  .strict()
  .refine((s) => s.to >= s.from && s.to - s.from <= HUB_CASES_MAX_WINDOW_MS, {
    message: 'the window is from ≤ to, at most 30 days',
  });
export type HubCaseSearch = z.input<typeof HubCaseSearchSchema>;

export const HubCaseSaleSchema = z.object({
  counterId: z.string(),
  counterName: z.string(),
  reference: z.string(),
  state: z.string(),
  amountKobo: z.number().int(),
  totalKobo: z.number().int(),
  createdAt: z.number().int(),
  filmTitle: z.string(),
  seats: z.string(),
});
export type HubCaseSale = z.infer<typeof HubCaseSaleSchema>;

export const HubCaseSearchAnswerSchema = z.object({ sales: z.array(HubCaseSaleSchema) });
export type HubCaseSearchAnswer = z.infer<typeof HubCaseSearchAnswerSchema>;
