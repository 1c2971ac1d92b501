// Seat maps: a screen's layout (rows, seats, aisles, blocked seats, wheelchair and companion
// places, zones that set the ticket type), a show's seat map as the counter sees it, and the seat
// holds the checkout takes before a customer is charged. zod and types only here; the rules that
// read and check a layout file live in seat-layout.ts, the "best N seats" choice in best-seats.ts.
import { z } from 'zod';

/** At most this many seats in one screen's layout (the largest single screens are about 800). */
export const MAX_LAYOUT_SEATS = 1_500;
/** What one layout file may weigh as text. */
export const MAX_LAYOUT_CHARS = 200_000;

/** A zone of the screen (VIP, a sofa row): its seats are sold at the show's ticket type of that name. */
export const SeatZoneSchema = z.object({
  /** Short id used in the rows ("vip"). */
  id: z.string().regex(/^[a-z][a-z0-9-]{0,19}$/, 'A zone id is a short lower-case word, for example vip'),
  /** What the cashier sees ("VIP"). */
  name: z.string().trim().min(1).max(30),
  /** The show's ticket type its seats are sold at ("VIP"); a show without that type cannot sell them. */
  ticketType: z.string().trim().min(1).max(30),
});
export type SeatZone = z.infer<typeof SeatZoneSchema>;

/**
 * The layout file (JSON) as written by a person. Rows are listed from the screen backwards; each
 * row's `seats` is a line of space-separated cells, left to right as the audience sees the screen:
 *   `7`        seat 7                         `1-10`   seats 1 to 10 (or `10-1`, numbered leftwards)
 *   `_`        a gap one seat wide (aisle)     `7x`     seat 7 exists but is blocked (never sold)
 *   `7w`       a wheelchair place              `7c`     a wheelchair companion seat
 *   `1-4:vip`  seats in zone `vip` (a suffix after a flag too: `7w:vip`)
 * The CSV shorthand is one row per line: `row,seats` (header `row,seats`), zones then come from a
 * JSON file only.
 */
export const LayoutFileSchema = z
  .object({
    format: z.literal('counterpay-seat-layout/1'),
    screen: z.string().trim().min(1).max(40),
    zones: z.array(SeatZoneSchema).max(10).default([]),
    rows: z
      .array(
        z
          .object({
            row: z.string().regex(/^[A-Z]{1,3}$/, 'A row is 1 to 3 capital letters'),
            seats: z.string().max(2_000),
          })
          .strict(),
      )
      .min(1)
      .max(60),
  })
  .strict();
export type LayoutFile = z.infer<typeof LayoutFileSchema>;

/** One place of a row, parsed: a seat (with its flags) or a gap. `col` counts from 0 at the left. */
export const LayoutCellSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('gap'), col: z.number().int().nonnegative() }),
  z.object({
    kind: z.literal('seat'),
    col: z.number().int().nonnegative(),
    /** "F7" */
    id: z.string(),
    number: z.number().int().positive(),
    blocked: z.boolean(),
    wheelchair: z.boolean(),
    companion: z.boolean(),
    zone: z.string().nullable(),
  }),
]);
export type LayoutCell = z.infer<typeof LayoutCellSchema>;
export type LayoutSeat = Extract<LayoutCell, { kind: 'seat' }>;

/** A checked layout: what the counter stores, the Hub pushes, and the Sell screen draws. */
export const ScreenLayoutSchema = z.object({
  screen: z.string(),
  zones: z.array(SeatZoneSchema),
  /** Front (nearest the screen) first. */
  rows: z.array(z.object({ row: z.string(), cells: z.array(LayoutCellSchema) })),
  /** The widest row's cell count: the map's width in columns. */
  width: z.number().int().positive(),
  /** Seats that exist and are not blocked. */
  capacity: z.number().int().nonnegative(),
});
export type ScreenLayout = z.infer<typeof ScreenLayoutSchema>;

/** A seat taken for a show, in any counter's sale: held while its payment is under way, sold when paid. */
export const SeatTakenSchema = z.object({
  seat: z.string(),
  state: z.enum(['held', 'sold']),
  counterName: z.string(),
  /** This counter's own sale. */
  mine: z.boolean(),
});
export type SeatTaken = z.infer<typeof SeatTakenSchema>;

/** A show's seat map at the counter: the layout (null: the show's screen has none, seats are typed) and the seats taken. */
export const SeatMapViewSchema = z.object({
  showId: z.number().int().positive(),
  showKey: z.string(),
  screen: z.string(),
  layout: ScreenLayoutSchema.nullable(),
  taken: z.array(SeatTakenSchema),
  /** Where "taken" comes from: the Hub (all counters) or this counter's own sales only, with why, in cashier words. */
  source: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('hub'), at: z.number() }),
    z.object({ kind: z.literal('local'), reason: z.string() }),
  ]),
});
export type SeatMapView = z.infer<typeof SeatMapViewSchema>;

/** A layout file checked on the counter or the Hub: imported, or refused with an error per row and seat. */
export const LayoutErrorSchema = z.object({
  /** The row as written ("F"), or null for the file as a whole. */
  row: z.string().nullable(),
  /** The cell as written ("7w:vp"), or null for the whole row. */
  cell: z.string().nullable(),
  message: z.string(),
});
export type LayoutError = z.infer<typeof LayoutErrorSchema>;

export const LayoutImportResultSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('imported'), screen: z.string(), capacity: z.number().int().nonnegative() }),
  z.object({ kind: z.literal('refused'), errors: z.array(LayoutErrorSchema) }),
]);
export type LayoutImportResult = z.infer<typeof LayoutImportResultSchema>;

/** Which seats a sale asks to hold: the show (by showKey, the same on every counter) and its seats. */
export interface SeatHoldRequest {
  /** The sale's order number (outOrderNo): the hold belongs to it and ends with it. */
  orderKey: string;
  showKey: string;
  show: { filmName: string; filmTitle: string; date: string; time: string; screen: string };
  seats: string[];
  /** Demo and Sandbox sales hold only against other practice sales. */
  practice: boolean;
}

/**
 * The answer to a hold: held for this sale; taken by another sale (it is not charged); refused by the
 * Hub (it answered, and not "held": too many requests from this counter, or the request itself), so
 * the sale is not charged either; or not checked across counters, with why (SEATS_UNCHECKED_REASONS)
 * — only when the Hub cannot be asked (none, unreachable, too slow, an answer that is not its).
 */
export type SeatHoldOutcome =
  | { kind: 'held' }
  | { kind: 'taken'; taken: SeatTaken[] }
  | { kind: 'refused'; reason: string }
  | { kind: 'unchecked'; reason: string };

/**
 * What a sale sent to the provider without the Hub's check across counters says: on the payment
 * panel, the order's detail and its receipt, and first in the note its order keeps (`seatHold.note`).
 * `hubUnreachable`: this counter has a Hub and could not get its answer (unreachable, no answer
 * within SEAT_HOLD_WAIT_MS, or an answer that is not the Hub's); `noHub`: this counter has no Hub,
 * so its own sales are all there is to check (said on the order's detail only).
 */
export const SEATS_UNCHECKED = {
  hubUnreachable: 'Seats not checked across counters (Hub unreachable)',
  noHub: 'Seats not checked across counters (no Hub)',
} as const;

const OWN_ONLY = "this counter's own sales were checked";
/** Why a hold answered "not checked", each starting with its SEATS_UNCHECKED line. */
export const SEATS_UNCHECKED_REASONS = {
  noHub: `${SEATS_UNCHECKED.noHub}: this counter is not linked to a Hub; ${OWN_ONLY}.`,
  slow: `${SEATS_UNCHECKED.hubUnreachable}: the Hub did not answer in time; ${OWN_ONLY}.`,
  unreachable: `${SEATS_UNCHECKED.hubUnreachable}: the Hub cannot be reached; ${OWN_ONLY}.`,
  broken: (why: string) =>
    `${SEATS_UNCHECKED.hubUnreachable}: the Hub's answer was not one (${why.replace(/\.$/, '')}); ${OWN_ONLY}.`,
} as const;

/** An order's seat hold as its view carries it (OrderView's `seatHold`). */
interface HoldOfOrder {
  outcome: 'held' | 'unchecked' | 'taken' | 'refused' | null;
  note: string | null;
}

/**
 * The line for a sale whose seats went to the provider while its Hub was unreachable ("Seats not
 * checked across counters (Hub unreachable)"), shown on the payment panel, the order's detail and
 * printed on the receipt; null for any other sale (held, refused, taken, no Hub, no seat map).
 */
export function seatsUncheckedLine(hold: HoldOfOrder | null | undefined): string | null {
  return hold?.outcome === 'unchecked' && (hold.note ?? '').startsWith(SEATS_UNCHECKED.hubUnreachable)
    ? SEATS_UNCHECKED.hubUnreachable
    : null;
}

/** How a sale's seat hold went, for the order's detail: "Held across counters", or the order's note. */
export function seatHoldText(hold: HoldOfOrder | null | undefined): string | undefined {
  if (!hold) return undefined;
  if (hold.outcome === null) return 'Being asked of the Hub';
  if (hold.outcome === 'held') return 'Held across counters';
  return hold.note ?? (hold.outcome === 'unchecked' ? SEATS_UNCHECKED.hubUnreachable : hold.outcome);
}

/**
 * The one hold deadline (docs/seat-maps.md#holds): the longest a sale waits for the Hub's answer to
 * a hold (the link's HTTP wait, a retry after 429 included) before it goes on without it. A Hub that
 * answers within it is waited for and obeyed.
 */
export const SEAT_HOLD_WAIT_MS = 800;
/**
 * The checkout's bound on the SeatHolds port whatever it does: the Hub's wait plus room for the
 * port's own answer without it (this counter's own holds), so the Hub's wait always ends first and
 * the sale says why ("The Hub did not answer in time: …").
 */
export const SEAT_HOLD_DEADLINE_MS = SEAT_HOLD_WAIT_MS + 200;

/**
 * The checkout's port for seat holds, below every door: a sale with seats of a show is held before
 * the provider is asked; a hold ends with the order (released when it fails, is cancelled or
 * expires; sold when paid, also paid after closing). Without a Hub the local implementation
 * answers from this counter's own sales. `hold` waits for the Hub at most SEAT_HOLD_WAIT_MS.
 */
export interface SeatHolds {
  hold(req: SeatHoldRequest): Promise<SeatHoldOutcome>;
  /** The order reached a final state: paid keeps its seats as sold, any other final state frees them. */
  settle(orderKey: string, outcome: 'sold' | 'released'): void;
}

/** The seats other counters took for a show, as the Hub knows them (the seat map's "taken" beyond this counter). */
export interface SeatTakenSource {
  /** Throws when the Hub cannot be asked; `at` is when the Hub answered. */
  taken(showKey: string, practice: boolean): Promise<{ at: number; taken: SeatTaken[] }>;
}
