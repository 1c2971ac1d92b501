// The cinema's programme as the counter keeps it: films, screens, shows and the ticket types of
// each show (price and booking fee per ticket, in kobo), with where the copy came from (a CSV
// imported on this counter, or a version pushed by the Hub). zod only; pure rules only.
import { z } from 'zod';
import { RowErrorSchema } from './topups';
import { BesideWaiting } from './orders';
import { LayoutFileSchema } from './seats';

/** A show stays on the Sell list this long after it starts (latecomers, the queue at the door). */
export const SHOW_GRACE_MS = 20 * 60 * 1000;
/** At most this many rows in a programme file (a busy multiplex's fortnight fits many times). */
export const MAX_PROGRAMME_ROWS = 5_000;
/** What one file may weigh as text in one call. */
export const MAX_PROGRAMME_CSV_CHARS = 900_000;
const MAX_PRICE_KOBO = 1_000_000_000;

export const TIME_RE = /^([01]\d|2[0-3]):[0-5]\d$/;

export function isCalendarDate(v: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(Date.UTC(y, mo - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d;
}

/** The key that names a show on every counter of a branch (the Hub's seat check uses it). */
export function showKey(s: { date: string; time: string; screen: string }): string {
  return `${s.date} ${s.time} ${s.screen.trim().toLowerCase()}`;
}

const name = (what: string, max: number) =>
  z
    .string({ error: `Enter the ${what}` })
    .trim()
    .min(1, `Enter the ${what}`)
    .max(max, `The ${what} is at most ${max} characters`);

const TicketTypeSchema = z.object({
  name: name('ticket type', 30),
  /** Per ticket. */
  priceKobo: z
    .number()
    .int()
    .positive('The price must be more than ₦0.00')
    .max(MAX_PRICE_KOBO, 'The price looks wrong (over ₦10,000,000)'),
  /** Per ticket; the sale's booking fee is this times the tickets. */
  bookingFeeKobo: z
    .number()
    .int()
    .min(0, 'The booking fee cannot be negative')
    .max(MAX_PRICE_KOBO, 'The booking fee looks wrong (over ₦10,000,000)'),
});
export type TicketType = z.infer<typeof TicketTypeSchema>;

const FilmSchema = z.object({
  /** What the cashier and the journal call it ("Dune 2"). */
  name: name('film name', 100),
  /** As printed on the ticket ("DUNE: PART TWO"). */
  title: name('film title', 100),
  /** The board's classification (G, PG, 12A, 15, 18); may be empty. */
  rating: z.string().trim().max(10, 'The rating is at most 10 characters'),
});
export type Film = z.infer<typeof FilmSchema>;

const ShowSchema = z.object({
  film: name('film name', 100),
  screen: name('screen', 40),
  date: z.string().refine(isCalendarDate, 'Write the date as yyyy-MM-dd, for example 2025-03-31'),
  time: z.string().regex(TIME_RE, 'Write the time as HH:mm (24-hour), for example 19:30'),
  ticketTypes: z.array(TicketTypeSchema).min(1, 'A show needs at least one ticket type'),
});
export type Show = z.infer<typeof ShowSchema>;

/** A whole programme: what a CSV import produces and what the Hub pushes; it replaces the copy on the counter. */
export const ProgrammeSchema = z
  .object({
    films: z.array(FilmSchema),
    screens: z.array(name('screen', 40)),
    shows: z.array(ShowSchema),
    /** The screens' layouts (seat maps); absent means none ([]). A screen without one keeps typed seats. */
    layouts: z.array(LayoutFileSchema).max(50).optional(),
  })
  .superRefine((p, ctx) => {
    const films = new Set<string>();
    p.films.forEach((f, i) => {
      const k = f.name.toLowerCase();
      if (films.has(k))
        ctx.addIssue({ code: 'custom', path: ['films', i, 'name'], message: `The film ${f.name} is listed twice` });
      films.add(k);
    });
    const screens = new Set(p.screens.map((s) => s.toLowerCase()));
    const shows = new Set<string>();
    p.shows.forEach((s, i) => {
      if (!films.has(s.film.toLowerCase()))
        ctx.addIssue({
          code: 'custom',
          path: ['shows', i, 'film'],
          message: `The show at ${s.time} names the film ${s.film}, which is not in the programme`,
        });
      if (!screens.has(s.screen.toLowerCase()))
        ctx.addIssue({
          code: 'custom',
          path: ['shows', i, 'screen'],
          message: `The show at ${s.time} names the screen ${s.screen}, which is not in the programme`,
        });
      const k = showKey(s);
      if (shows.has(k))
        ctx.addIssue({
          code: 'custom',
          path: ['shows', i],
          message: `Two shows on ${s.screen} at ${s.date} ${s.time}`,
        });
      shows.add(k);
      const types = new Set<string>();
      s.ticketTypes.forEach((t, j) => {
        if (types.has(t.name.toLowerCase()))
          ctx.addIssue({
            code: 'custom',
            path: ['shows', i, 'ticketTypes', j, 'name'],
            message: `The ticket type ${t.name} is listed twice for one show`,
          });
        types.add(t.name.toLowerCase());
      });
    });
  });
export type Programme = z.infer<typeof ProgrammeSchema>;

/** Where the counter's copy came from. */
export const ProgrammeSourceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('csv'), fileName: z.string(), importedAt: z.number(), by: z.string() }),
  z.object({
    kind: z.literal('hub'),
    version: z.number().int().nonnegative(),
    receivedAt: z.number(),
    /** The enrollment the copy came with: versions are only compared within one Hub enrollment. */
    counterId: z.string().optional(),
  }),
]);
export type ProgrammeSource = z.infer<typeof ProgrammeSourceSchema>;

export const ProgrammeSummarySchema = z.object({
  /** null: no programme on this counter yet. */
  source: ProgrammeSourceSchema.nullable(),
  films: z.number().int().nonnegative(),
  screens: z.number().int().nonnegative(),
  shows: z.number().int().nonnegative(),
  /** The first and last show dates (yyyy-MM-dd), null when there are no shows. */
  firstDate: z.string().nullable(),
  lastDate: z.string().nullable(),
});
export type ProgrammeSummary = z.infer<typeof ProgrammeSummarySchema>;

/** A show as the Sell screen lists it. */
const ShowViewSchema = z.object({
  id: z.number().int().positive(),
  key: z.string(),
  filmName: z.string(),
  filmTitle: z.string(),
  rating: z.string(),
  screen: z.string(),
  date: z.string(),
  time: z.string(),
  startsAt: z.number(),
  ticketTypes: z.array(TicketTypeSchema),
  /** The ticket type offered first: the most sold for this film, else overall, else the first listed. */
  defaultTicketType: z.string(),
});
export type ShowView = z.infer<typeof ShowViewSchema>;

export const NextShowsSchema = z.object({
  source: ProgrammeSourceSchema.nullable(),
  shows: z.array(ShowViewSchema),
});
export type NextShows = z.infer<typeof NextShowsSchema>;

export const ProgrammeImportResultSchema = z.object({
  /** true: the programme was replaced; false: nothing was written (see errors). */
  imported: z.boolean(),
  totalRows: z.number().int().nonnegative(),
  errors: z.array(RowErrorSchema),
  errorCount: z.number().int().nonnegative(),
  summary: ProgrammeSummarySchema,
});
export type ProgrammeImportResult = z.infer<typeof ProgrammeImportResultSchema>;

/** What the Sell screen sends when it sells from the programme: the core fills in the rest from its copy. */
export const ShowSaleSchema = z
  .object({
    showId: z.number().int().positive(),
    ticketType: z.string().trim().min(1, 'Choose a ticket type').max(30),
    seats: z.string().max(400, 'Too many seats in one sale'),
    sn: z.string().max(64),
    besideWaiting: BesideWaiting,
  })
  .strict();

/** A seat of the show already paid or waiting for payment elsewhere. */
const SeatConflictSchema = z.object({
  seat: z.string(),
  counterName: z.string(),
  state: z.enum(['paid', 'waiting']),
  at: z.number(),
});
export type SeatConflict = z.infer<typeof SeatConflictSchema>;

/** The seat check's answer: checked (maybe with conflicts), or skipped with the reason in cashier words. */
export const SeatCheckResultSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('checked'), conflicts: z.array(SeatConflictSchema) }),
  z.object({ kind: z.literal('skipped'), reason: z.string() }),
]);
export type SeatCheckResult = z.infer<typeof SeatCheckResultSchema>;

// ---- the picker's rules (pure; the Sell screen and the core share them) ----

/** Shows not past their start plus the grace, soonest first (ties by screen). */
export function upcomingShows<T extends { startsAt: number; screen: string }>(
  shows: readonly T[],
  now: number,
  graceMs = SHOW_GRACE_MS,
): T[] {
  return shows
    .filter((s) => s.startsAt + graceMs > now)
    .sort((a, b) => a.startsAt - b.startsAt || a.screen.localeCompare(b.screen));
}

/** Every word the cashier typed must be found in the film's name or title, the screen, the rating or the time ("1930" finds 19:30). */
export function matchesShow(
  show: Pick<ShowView, 'filmName' | 'filmTitle' | 'screen' | 'time' | 'rating'>,
  query: string,
): boolean {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const hay =
    `${show.filmName} ${show.filmTitle} ${show.screen} ${show.rating} ${show.time} ${show.time.replace(':', '')}`.toLowerCase();
  return words.every((w) => hay.includes(w));
}
