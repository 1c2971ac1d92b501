// The programme through the Hub: the manager sets a branch's programme on the Hub (JSON, or a CSV
// with the counter's columns and checks), the Hub tells the branch's counters on their relay
// stream (`event: programme`), and each counter fetches it; before a sale, a counter asks the Hub
// whether the seats are already taken on any counter of the branch; and a show's fill for the
// dashboard. Counter calls use the counter credential; dashboard calls the manager's session.
import { z } from 'zod';
import { HUB_API_PREFIX } from './hub-contract';
import { DaySchema } from './hub-dashboard-contract';
import { MAX_PROGRAMME_CSV_CHARS, ProgrammeImportResultSchema, ProgrammeSchema, TIME_RE } from './programme';
import { SEAT_LABEL_RE } from './seat-list';

const Ms = z.number().int().nonnegative();
const BranchId = z.string().trim().min(1).max(64);

// ---- Counters (Authorization: Bearer <counter credential>) ------------------------------------

/** `GET /api/v1/programme`: the counter's branch's programme as the Hub holds it. */
export const HUB_PROGRAMME_PATH = `${HUB_API_PREFIX}/programme`;
/** `POST /api/v1/seats/check`. */
export const HUB_SEATS_CHECK_PATH = `${HUB_API_PREFIX}/seats/check`;

export const HubProgrammeSchema = z.object({
  branch: z.string(),
  /** 0 while the manager has set none; then 1, 2, … per branch, one more per change. */
  version: z.number().int().nonnegative(),
  updatedAt: Ms.nullable(),
  programme: ProgrammeSchema.nullable(),
});
export type HubProgramme = z.infer<typeof HubProgrammeSchema>;

/** Relay stream `event: programme`: the branch's programme is at this version (sent on connect and on every change). */
export const RelayProgrammeSchema = z.object({ version: z.number().int().positive() });

const SeatLabelSchema = z.string().trim().toUpperCase().regex(SEAT_LABEL_RE, 'a seat looks like F7');

export const SeatCheckRequestSchema = z
  .object({
    /**
     * The show, keyed on the Hub with its screen (showKey) as a seat hold and the seat maps are. A
     * request without a screen (an older counter) reads the film at that time on every screen.
     */
    show: z
      .object({
        filmName: z.string().trim().min(1).max(100),
        filmTitle: z.string().trim().max(100),
        date: DaySchema,
        time: z.string().regex(TIME_RE, 'a time looks like 19:30'),
        screen: z.string().trim().max(40).optional(),
      })
      .strict(),
    seats: z.array(SeatLabelSchema).min(1).max(100),
    /** The asking counter sells in Demo or Sandbox: only practice seats count, and only real ones otherwise. */
    practice: z.boolean().default(false),
  })
  .strict();
export type SeatCheckRequest = z.input<typeof SeatCheckRequestSchema>;

const HubSeatConflictSchema = z.object({
  seat: z.string(),
  counterId: z.string(),
  counterName: z.string(),
  /**
   * The seat as the seat maps show it (hub/store/seat-taken.ts): paid when sold (its sale synced paid);
   * waiting when held on the Hub for a sale being paid, or in a synced sale still open (queued, being
   * created, waiting for the customer, outcome unknown).
   */
  state: z.enum(['paid', 'waiting']),
  /** When the sale was made (its synced order's time, the counter's clock), else when the Hub held the seat. */
  at: Ms,
  reference: z.string(),
});
export type HubSeatConflict = z.infer<typeof HubSeatConflictSchema>;
export const SeatCheckResponseSchema = z.object({ conflicts: z.array(HubSeatConflictSchema) });
export type SeatCheckResponse = z.infer<typeof SeatCheckResponseSchema>;

// ---- Dashboard (session cookie; writes with the CSRF header) ------------------------------------

/** `GET|PUT /api/v1/dashboard/programme`, `POST …/programme/import`, `GET …/programme/template.csv`, `GET …/shows`. */
export const DASH_PROGRAMME_PATH = '/api/v1/dashboard/programme';
export const DASH_SHOWS_PATH = '/api/v1/dashboard/shows';

/** A branch manager's branch is theirs (naming another is refused); head office names one. */
export const DashProgrammeQuerySchema = z.object({ branch: BranchId.optional() }).strict();

export const DashProgrammeViewSchema = HubProgrammeSchema.extend({
  updatedBy: z.string().nullable(),
  /** Counts for a glance: films, screens, shows, first and last show day. */
  films: z.number().int().nonnegative(),
  screens: z.number().int().nonnegative(),
  shows: z.number().int().nonnegative(),
  firstDate: z.string().nullable(),
  lastDate: z.string().nullable(),
});
export type DashProgrammeView = z.infer<typeof DashProgrammeViewSchema>;

/** `PUT /programme`: the whole programme replaces the branch's (checked by the same rules as the counter's). */
export const PutProgrammeRequestSchema = z
  .object({ branch: BranchId.nullable().default(null), programme: ProgrammeSchema })
  .strict();

/** `POST /programme/import`: a programme file (the counter's template columns), every row checked first. */
export const ImportProgrammeRequestSchema = z
  .object({
    branch: BranchId.nullable().default(null),
    csv: z
      .string()
      .max(
        MAX_PROGRAMME_CSV_CHARS,
        `The file is too large: at most ${Math.floor(MAX_PROGRAMME_CSV_CHARS / 1000)} kB. Split the programme by week.`,
      ),
    fileName: z.string().max(200).default('programme.csv'),
  })
  .strict();

/** The counter's import answer, with the branch's programme on the Hub in place of the counter's summary. */
export const ImportProgrammeResultSchema = ProgrammeImportResultSchema.omit({ summary: true }).extend({
  programme: DashProgrammeViewSchema,
});
export type ImportProgrammeResult = z.infer<typeof ImportProgrammeResultSchema>;

/** `GET /shows?day=&branch=`: every show of that Lagos day, in the programme or sold. */
export const ShowsQuerySchema = z.object({ day: DaySchema.optional(), branch: BranchId.optional() }).strict();

const ShowFillSchema = z.object({
  branch: z.string(),
  filmName: z.string(),
  filmTitle: z.string().nullable(),
  /** From the branch's programme when the show is in it (the journal does not carry the screen). */
  screen: z.string().nullable(),
  date: z.string(),
  time: z.string(),
  inProgramme: z.boolean(),
  /** Tickets of paid sales, their sales and the money taken (kobo, booking fees included). */
  seatsSold: z.number().int(),
  paidCount: z.number().int(),
  cardTotalKobo: z.number().int(),
  /** Tickets of sales still open (waiting for the customer, queued, unknown). */
  seatsHeld: z.number().int(),
});
export type ShowFill = z.infer<typeof ShowFillSchema>;
export const ShowsViewSchema = z.object({
  day: DaySchema,
  shows: z.array(ShowFillSchema),
  totals: z.object({
    shows: z.number().int(),
    seatsSold: z.number().int(),
    cardTotalKobo: z.number().int(),
    seatsHeld: z.number().int(),
  }),
});
export type ShowsView = z.infer<typeof ShowsViewSchema>;
