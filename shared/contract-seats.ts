// Seat maps at the counter: a show's seat map, the screens' layouts, importing a layout file, and
// the event that says a show's seats changed. This part of the one contract is merged into
// `calls`/`events` in contract.ts; edit here, not there. The model is shared/seats.ts.
import { z } from 'zod';
import { Empty, type CallsSpec, type EventsSpec } from './contract-kit';
import { ProgrammeSummarySchema } from './programme';
import { LayoutImportResultSchema, MAX_LAYOUT_CHARS, ScreenLayoutSchema, SeatMapViewSchema } from './seats';

/** A screen of the programme and its layout (null: no layout, its shows keep typed seats). */
export const ScreenLayoutEntrySchema = z.object({
  screen: z.string(),
  layout: ScreenLayoutSchema.nullable(),
  /** Where the layout came from: a file imported on this counter, or the Hub's programme. */
  source: z.enum(['file', 'hub']).nullable(),
});
export type ScreenLayoutEntry = z.infer<typeof ScreenLayoutEntrySchema>;

export const seatCalls = {
  /** A show's seat map: its screen's layout (null when none) and the seats taken (all counters via the Hub, else this counter's own). */
  'seats.map': { args: z.object({ showId: z.number().int().positive() }).strict(), result: SeatMapViewSchema },
  /** Every screen of the programme (and any screen with a layout), with its layout. */
  'seats.screens': { args: Empty, result: z.array(ScreenLayoutEntrySchema) },
  /** A layout file (JSON or the CSV shorthand): replaces that screen's layout whole, or refuses with errors by row and seat. */
  'seats.importLayout': {
    args: z
      .object({
        text: z
          .string()
          .max(
            MAX_LAYOUT_CHARS,
            `The file is too large: a layout is at most ${Math.floor(MAX_LAYOUT_CHARS / 1000)} kB`,
          ),
        fileName: z.string().max(200).default('layout.json'),
        by: z.string().trim().min(1, 'Enter who imports the layout').max(40, 'At most 40 characters'),
      })
      .strict(),
    result: LayoutImportResultSchema,
    admin: true,
  },
  /** Demo profile only: replaces the programme with the Demo programme (Screen 1 with its seat map, Screen 2 with typed seats). */
  'seats.loadDemoProgramme': { args: Empty, result: ProgrammeSummarySchema, admin: true },
} satisfies CallsSpec;

export const seatEvents = {
  /** A show's seats changed (a sale of this counter, or the Hub said another counter's did): ask `seats.map` again. */
  'seats.changed': z.object({ showKey: z.string() }),
} satisfies EventsSpec;
