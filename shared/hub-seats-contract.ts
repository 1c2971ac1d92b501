// Seat holds through the Hub, and the Hub's seat maps for the dashboard. Counter calls use the
// counter credential: a sale's seats are held before its customer is charged (the database settles
// a race: exactly one counter gets a seat), settled when the order is final (sold or released), and
// a show's taken seats read for the counter's seat map. The Hub tells a branch's counters on their
// relay stream (`event: seats`, data {showKey}) when a show's holds change. Dashboard calls use the
// manager's session: the Screens page (each screen's layout, uploaded by head office and pushed to
// counters with the programme), occupancy per show, one show's seats for the read-only map, and
// the seats sold twice (Needs attention). Instants are the Hub's epoch milliseconds.
import { z } from 'zod';
import { HUB_API_PREFIX } from './hub-contract';
import { DaySchema } from './hub-dashboard-contract';
import { isCalendarDate, TIME_RE } from './programme';
import { SEAT_ID_RE } from './seat-list';
import { LayoutImportResultSchema, MAX_LAYOUT_CHARS, ScreenLayoutSchema } from './seats';
import { MAX_ORDER_EXPIRE_SECONDS } from './settings';

const Ms = z.number().int().nonnegative();
const BranchId = z.string().trim().min(1).max(64);

/** At most this many seats in one hold (one sale). */
export const MAX_HOLD_SEATS = 50;
/** The grace a hold has past its order's payment time (a late answer, the final check). */
export const HOLD_MARGIN_MS = 2 * 60_000;
/**
 * A sale's hold lasts at most this long from its first hold, renewals included: the longest payment
 * time of an order (MAX_ORDER_EXPIRE_SECONDS) plus HOLD_MARGIN_MS. The counter asks for its order's
 * expiry plus the margin.
 */
export const MAX_HOLD_MS = MAX_ORDER_EXPIRE_SECONDS * 1000 + HOLD_MARGIN_MS;
/** At most this many seats held at once by one counter, over all its sales and shows (a few sales at once); more is HUB_HOLD_LIMIT. */
export const MAX_HELD_SEATS_PER_COUNTER = 100;
/** showKey() of shared/programme.ts: `yyyy-MM-dd HH:mm screen` (the screen in lower case). */
export const ShowKeySchema = z
  .string()
  .max(80, 'a show key is at most 80 characters')
  .regex(/^\d{4}-\d{2}-\d{2} ([01]\d|2[0-3]):[0-5]\d \S.*$/, 'a show key looks like "2026-11-27 19:30 screen 1"');
export const SeatIdSchema = z.string().regex(SEAT_ID_RE, 'a seat looks like F7 (row letters, then the number)');
/** The sale's order number (outOrderNo, the journal's `reference`). */
export const OrderKeySchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[\x21-\x7e]+$/, 'an order number is printable characters without spaces');

// ---- Counters (Authorization: Bearer <counter credential>) ------------------------------------

/** `POST /api/v1/seats/hold`: SeatHoldRequestBody → SeatHoldResponse. All the seats or none. */
export const HUB_SEATS_HOLD_PATH = `${HUB_API_PREFIX}/seats/hold`;
/** `POST /api/v1/seats/settle`: SeatSettleRequest → SeatSettleResponse. */
export const HUB_SEATS_SETTLE_PATH = `${HUB_API_PREFIX}/seats/settle`;
/** `GET /api/v1/seats/map?showKey=&practice=`: SeatMapQuery → HubSeatMap. */
export const HUB_SEATS_MAP_PATH = `${HUB_API_PREFIX}/seats/map`;

export const SeatHoldRequestBodySchema = z
  .object({
    orderKey: OrderKeySchema,
    /** The show: its key is showKey({date, time, screen}); the film names the show on the dashboard. */
    show: z
      .object({
        filmName: z.string().trim().min(1).max(100),
        filmTitle: z.string().trim().max(100),
        date: z.string().refine(isCalendarDate, 'a date looks like 2026-11-27'),
        time: z.string().regex(TIME_RE, 'a time looks like 19:30'),
        screen: z.string().trim().min(1).max(40),
      })
      .strict(),
    seats: z
      .array(SeatIdSchema)
      .min(1, 'name at least one seat')
      .max(MAX_HOLD_SEATS, `at most ${MAX_HOLD_SEATS} seats in one sale`),
    /** Demo and Sandbox sales hold only against other practice sales, real ones only against real ones. */
    practice: z.boolean(),
    /** How long from now the hold lasts unless settled: the order's expiry plus a short margin (never past the sale's first hold + MAX_HOLD_MS). */
    holdMs: z
      .number()
      .int()
      .min(1_000)
      .max(MAX_HOLD_MS, `a hold lasts at most ${MAX_HOLD_MS / 60_000} minutes`),
  })
  .strict();
export type SeatHoldRequestBody = z.infer<typeof SeatHoldRequestBodySchema>;

/** A seat taken for a show by a sale on some counter of the branch. */
export const HubSeatTakenSchema = z.object({
  seat: z.string(),
  state: z.enum(['held', 'sold']),
  counterId: z.string(),
  counterName: z.string(),
});
export type HubSeatTaken = z.infer<typeof HubSeatTakenSchema>;

export const SeatHoldResponseSchema = z.discriminatedUnion('kind', [
  /** Every seat is held for this order until `until` (the Hub's clock), unless settled before. */
  z.object({ kind: z.literal('held'), showKey: z.string(), until: Ms }),
  /** Some seat is held or sold by another sale: nothing was held. */
  z.object({ kind: z.literal('taken'), showKey: z.string(), taken: z.array(HubSeatTakenSchema) }),
]);
export type SeatHoldResponse = z.infer<typeof SeatHoldResponseSchema>;

export const SeatSettleRequestSchema = z
  .object({
    orderKey: OrderKeySchema,
    /**
     * released (failed, cancelled, expired): the seats are free again. sold (paid) changes nothing:
     * a seat is sold only when the counter's journal syncs the order paid with it (the answer's note
     * says so); the hold stays until then or its `until`.
     */
    outcome: z.enum(['sold', 'released']),
  })
  .strict();
export type SeatSettleRequest = z.infer<typeof SeatSettleRequestSchema>;
/** How many seats changed (0: nothing held under that order by this counter, already settled, or `sold` asked: see note). */
export const SeatSettleResponseSchema = z.object({
  settled: z.number().int().nonnegative(),
  /** Why nothing changed, when the Hub did not do what was asked (outcome sold). */
  note: z.string().optional(),
});
export type SeatSettleResponse = z.infer<typeof SeatSettleResponseSchema>;

export const SeatMapQuerySchema = z
  .object({ showKey: ShowKeySchema, practice: z.enum(['true', 'false']).default('false') })
  .strict();
export type SeatMapQuery = z.input<typeof SeatMapQuerySchema>;
export const HubSeatMapSchema = z.object({ showKey: z.string(), at: Ms, taken: z.array(HubSeatTakenSchema) });
export type HubSeatMap = z.infer<typeof HubSeatMapSchema>;

/**
 * Relay stream `event: seats`: a show's holds or sales changed (practice ones or real ones); the
 * counter asks the map again. Sent at most once per show and SEAT_SIGNAL_WINDOW_MS (250 ms) of the
 * Hub (hub/streams/seat-signal.ts). `practice` is absent from an older Hub.
 */
export const RelaySeatsSchema = z.object({ showKey: z.string(), practice: z.boolean().optional() });

/**
 * The relay stream's query: `practice=true` when the counter shows practice seat maps (its Demo or
 * Sandbox profile), so it is told practice seat changes only; absent or false, real ones only.
 */
export const RelayStreamQuerySchema = z.object({ practice: z.enum(['true', 'false']).default('false') }).strict();
export type RelayStreamQuery = z.input<typeof RelayStreamQuerySchema>;
export type RelaySeats = z.infer<typeof RelaySeatsSchema>;

// ---- Dashboard (session cookie; writes with the CSRF header) ------------------------------------

/** `GET /screens?branch=`: the branch's screens (the programme's, and any with a layout). */
export const DASH_SCREENS_PATH = '/api/v1/dashboard/screens';
/** `POST /screens/layout` (head office): a layout file, checked, then pushed with the programme. `DELETE /screens/layout?branch=&screen=` removes one. */
export const DASH_SCREEN_LAYOUT_PATH = '/api/v1/dashboard/screens/layout';
/** `GET /seats/occupancy?day=&branch=`: sold / held / free per show of that Lagos day. */
export const DASH_SEATS_OCCUPANCY_PATH = '/api/v1/dashboard/seats/occupancy';
/** `GET /seats/show?branch=&showKey=`: one show's seats for the read-only map. */
export const DASH_SEATS_SHOW_PATH = '/api/v1/dashboard/seats/show';
/** `GET /seats/sold-twice?branch=`: the seats sold to two paid sales of one show (possible only offline), newest first per branch, with each branch's count. */
export const DASH_SEATS_SOLD_TWICE_PATH = '/api/v1/dashboard/seats/sold-twice';
/** `POST /seats/release` (head office): ends the live holds of a show, of a counter, or of a counter in a show. */
export const DASH_SEATS_RELEASE_PATH = '/api/v1/dashboard/seats/release';

/** A branch manager's branch is theirs (naming another is refused); head office names one. */
export const ScreensQuerySchema = z.object({ branch: BranchId.optional() }).strict();

export const ScreenRowSchema = z.object({
  screen: z.string(),
  /** The screen is named in the branch's programme. */
  inProgramme: z.boolean(),
  /** null: no layout, its shows are sold with typed seats. */
  layout: ScreenLayoutSchema.nullable(),
  fileName: z.string().nullable(),
  updatedAt: Ms.nullable(),
  updatedBy: z.string().nullable(),
});
export type ScreenRow = z.infer<typeof ScreenRowSchema>;
export const ScreensViewSchema = z.object({ branch: z.string(), screens: z.array(ScreenRowSchema) });
export type ScreensView = z.infer<typeof ScreensViewSchema>;

export const UploadLayoutRequestSchema = z
  .object({
    branch: BranchId.nullable().default(null),
    /** The layout file's text (JSON, or the CSV shorthand `row,seats`). */
    text: z.string().max(MAX_LAYOUT_CHARS, `The file is too large: at most ${Math.floor(MAX_LAYOUT_CHARS / 1000)} kB.`),
    fileName: z.string().trim().min(1).max(200).default('layout.json'),
  })
  .strict();
export type UploadLayoutRequest = z.input<typeof UploadLayoutRequestSchema>;
/** The check's answer (imported, or refused with an error per row and seat) and the branch's screens after it. */
export const UploadLayoutResultSchema = z.object({ result: LayoutImportResultSchema, screens: ScreensViewSchema });
export type UploadLayoutResult = z.infer<typeof UploadLayoutResultSchema>;

export const DeleteLayoutQuerySchema = z
  .object({ branch: BranchId.optional(), screen: z.string().trim().min(1).max(40) })
  .strict();

/** `practice=true`: the practice (Demo, Sandbox) seats, as their counters see them; absent or false, the real ones. */
const PracticeQuery = z.enum(['true', 'false']).default('false');
export const OccupancyQuerySchema = z
  .object({ day: DaySchema.optional(), branch: BranchId.optional(), practice: PracticeQuery })
  .strict();

/**
 * One show's seats, counted by the Hub (real ones, or practice ones when asked): sold, held (held
 * for a sale being paid, or in a synced sale still open), free of the layout's capacity.
 */
export const ShowOccupancySchema = z.object({
  branch: z.string(),
  showKey: z.string(),
  filmName: z.string().nullable(),
  filmTitle: z.string().nullable(),
  screen: z.string(),
  date: z.string(),
  time: z.string(),
  /** Seats of the screen's layout that can be sold; null without a layout. */
  capacity: z.number().int().nonnegative().nullable(),
  sold: z.number().int().nonnegative(),
  held: z.number().int().nonnegative(),
  /** capacity − sold − held; null without a layout. */
  free: z.number().int().nonnegative().nullable(),
  /** Seats sold to two sales (see sold-twice). */
  soldTwice: z.number().int().nonnegative(),
});
export type ShowOccupancy = z.infer<typeof ShowOccupancySchema>;
export const OccupancyViewSchema = z.object({ day: DaySchema, shows: z.array(ShowOccupancySchema) });
export type OccupancyView = z.infer<typeof OccupancyViewSchema>;

export const ShowSeatsQuerySchema = z
  .object({ branch: BranchId.optional(), showKey: ShowKeySchema, practice: PracticeQuery })
  .strict();

export const DashSeatTakenSchema = z.object({
  seat: z.string(),
  state: z.enum(['held', 'sold']),
  counterId: z.string(),
  counterName: z.string(),
  /** The sale's order number (outOrderNo). */
  reference: z.string(),
  at: Ms,
});
export type DashSeatTaken = z.infer<typeof DashSeatTakenSchema>;
export const ShowSeatsViewSchema = z.object({
  occupancy: ShowOccupancySchema,
  layout: ScreenLayoutSchema.nullable(),
  taken: z.array(DashSeatTakenSchema),
});
export type ShowSeatsView = z.infer<typeof ShowSeatsViewSchema>;

export const SoldTwiceQuerySchema = z.object({ branch: BranchId.optional() }).strict();
/** A seat of a show sold to two paid sales: both sales (the one that had it first, then the other). */
export const SeatSoldTwiceSchema = z.object({
  branch: z.string(),
  /** Two practice (Demo, Sandbox) sales: play money, listed apart from Needs attention. */
  practice: z.boolean(),
  showKey: z.string(),
  seat: z.string(),
  sales: z.array(z.object({ reference: z.string(), counterId: z.string(), counterName: z.string(), at: Ms })),
});
export type SeatSoldTwice = z.infer<typeof SeatSoldTwiceSchema>;
/** At most this many seats sold twice are listed per branch (the newest); `counts` has them all. */
export const SOLD_TWICE_PER_BRANCH = 50;
export const SoldTwiceViewSchema = z.object({
  /** Newest first within each branch, at most SOLD_TWICE_PER_BRANCH per branch. */
  lines: z.array(SeatSoldTwiceSchema),
  /** Every branch in scope with seats sold twice, and how many. */
  counts: z.array(z.object({ branch: z.string(), seats: z.number().int().nonnegative() })),
});
export type SoldTwiceView = z.infer<typeof SoldTwiceViewSchema>;

/** Head office ends holds: a show's (showKey), a counter's (counterId), or a counter's in a show (both). Sold seats stay sold. */
export const ReleaseSeatsRequestSchema = z
  .object({
    branch: BranchId,
    showKey: ShowKeySchema.optional(),
    counterId: z.string().trim().min(1).max(64).optional(),
  })
  .strict()
  .refine((r) => r.showKey !== undefined || r.counterId !== undefined, {
    message: 'Name the show (showKey) or the counter (counterId) whose held seats to release',
    path: ['showKey'],
  });
export type ReleaseSeatsRequest = z.infer<typeof ReleaseSeatsRequestSchema>;
export const ReleaseSeatsResponseSchema = z.object({ released: z.number().int().nonnegative() });
export type ReleaseSeatsResponse = z.infer<typeof ReleaseSeatsResponseSchema>;
