// The programme (films, screens, shows, ticket types) and selling from it: this part of the one
// contract. Merged into `calls`/`events` in contract.ts; edit here, not there.
import { z } from 'zod';
import { Empty, type CallsSpec, type EventsSpec } from './contract-kit';
import { OrderViewSchema, SALE_INVALID } from './orders';
import {
  MAX_PROGRAMME_CSV_CHARS,
  NextShowsSchema,
  ProgrammeImportResultSchema,
  ProgrammeSummarySchema,
  SeatCheckResultSchema,
  ShowSaleSchema,
} from './programme';
import { CsvFileSchema } from './topups';

export const programmeCalls = {
  /** Where the counter's copy came from and what it holds. */
  'programme.summary': { args: Empty, result: ProgrammeSummarySchema },
  'programme.template': { args: Empty, result: CsvFileSchema },
  /** Every row checked first; the copy is replaced only when the whole file is right (admin, like other settings). */
  'programme.import': {
    args: z
      .object({
        csv: z
          .string()
          .max(
            MAX_PROGRAMME_CSV_CHARS,
            `The file is too large: at most ${Math.floor(MAX_PROGRAMME_CSV_CHARS / 1000)} kB. Split the programme by week.`,
          ),
        fileName: z.string().max(200).default('programme.csv'),
        by: z.string().trim().min(1, 'Enter who imports the programme').max(40, 'At most 40 characters'),
      })
      .strict(),
    result: ProgrammeImportResultSchema,
    admin: true,
  },
  /** The shows still to sell (soonest first; a show stays until its start plus the grace). */
  'programme.next': { args: Empty, result: NextShowsSchema },
  /** Are any of these seats of the show already sold on another counter? Answers within 300 ms or "skipped". */
  'programme.checkSeats': {
    args: z.object({ showId: z.number().int().positive(), seats: z.string().max(400) }).strict(),
    result: SeatCheckResultSchema,
  },
  /** A sale of a show of the programme: the core builds the same sale as the hand-typed form and charges it. */
  'programme.charge': { args: ShowSaleSchema, result: OrderViewSchema, invalid: SALE_INVALID },
} satisfies CallsSpec;

export const programmeEvents = {
  /** The counter's copy was replaced (a CSV import or the Hub's programme). */
  'programme.changed': ProgrammeSummarySchema,
} satisfies EventsSpec;
