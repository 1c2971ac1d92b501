// The one seat-state model both seat maps draw (the counter's Sell screen and the Hub dashboard's
// read-only map): a seat's state (free, held, sold, blocked), which sale of a seat wins when two
// name it (sold beats held), what a screen reader says for a seat, and the legend's words.
// test/unit/lint/one-seat-state.test.ts fails on a UI that writes its own precedence or state type.
import type { LayoutSeat, ScreenLayout } from './seats';

/** A seat's state on a map: free, held (a payment under way), sold, or blocked (never sold). */
export const SEAT_STATES = ['free', 'held', 'sold', 'blocked'] as const;
export type SeatState = (typeof SEAT_STATES)[number];
/** The states a sale gives a seat. */
export type TakenState = Extract<SeatState, 'held' | 'sold'>;

/** A seat taken by a sale as either map gets it: the counter's SeatTaken (with `mine`), the Hub's rows. */
export interface SeatTakenLike {
  seat: string;
  state: TakenState;
  counterName: string;
  /** This counter's own sale (the counter's map only). */
  mine?: boolean;
}

/** Which of two sales of a seat the map shows: sold beats held, else the first. */
export function beats(next: Pick<SeatTakenLike, 'state'>, before: Pick<SeatTakenLike, 'state'>): boolean {
  return before.state === 'held' && next.state === 'sold';
}

/** Each taken seat by its name, one sale a seat (sold beats held). */
export function takenBySeat<T extends SeatTakenLike>(taken: readonly T[]): Map<string, T> {
  const out = new Map<string, T>();
  for (const t of taken) {
    const before = out.get(t.seat);
    if (!before || beats(t, before)) out.set(t.seat, t);
  }
  return out;
}

export interface SeatLook {
  state: SeatState;
  /** Who holds or sold it ("Counter 2", or "this counter"), null when free or blocked. */
  by: string | null;
  /** Held or sold by this counter's own sale. */
  mine: boolean;
}

/** A seat's look on the map: blocked whatever any sale says, else its sale's state, else free. */
export function seatLook(seat: LayoutSeat, taken: ReadonlyMap<string, SeatTakenLike>): SeatLook {
  if (seat.blocked) return { state: 'blocked', by: null, mine: false };
  const t = taken.get(seat.id);
  if (!t) return { state: 'free', by: null, mine: false };
  return { state: t.state, by: t.mine ? 'this counter' : t.counterName, mine: t.mine === true };
}

/** What a screen reader says for a seat: "F7, free", "F7, sold at Counter 2", "A1, wheelchair place, free". */
export function seatName(seat: LayoutSeat, look: SeatLook, zoneName: string | null): string {
  const kind = [seat.wheelchair ? 'wheelchair place' : null, seat.companion ? 'companion seat' : null, zoneName]
    .filter(Boolean)
    .join(', ');
  const state =
    look.state === 'held' || look.state === 'sold' ? `${look.state} at ${look.by ?? 'another counter'}` : look.state;
  return kind ? `${seat.id}, ${kind}, ${state}` : `${seat.id}, ${state}`;
}

/** How many seats of a layout are free, held, sold (blocked seats are not counted). */
export function seatCounts(
  layout: ScreenLayout | null,
  taken: readonly SeatTakenLike[],
): Record<Exclude<SeatState, 'blocked'>, number> {
  const out = { free: 0, held: 0, sold: 0 };
  if (!layout) return out;
  const byId = takenBySeat(taken);
  for (const row of layout.rows)
    for (const c of row.cells) {
      if (c.kind !== 'seat') continue;
      const s = seatLook(c, byId).state;
      if (s !== 'blocked') out[s]++;
    }
  return out;
}

/** One entry of a map's legend: the words, and how its sample seat is drawn (data-state, data-kind, data-zone). */
export interface LegendEntry {
  key: string;
  label: string;
  state: SeatState;
  kind?: 'wheelchair' | 'companion';
  zone?: string;
  /** The counter's "Chosen" sample (a seat picked for this sale). */
  picked?: true;
}

/** The words of each state in a map's legend. */
export const SEAT_STATE_WORDS: Record<SeatState, string> = {
  free: 'Free',
  held: 'Held (being paid)',
  sold: 'Sold',
  blocked: 'Blocked',
};

/**
 * A map's legend: the states, then blocked, wheelchair places and companion seats when the layout
 * has any, then its zones ("VIP", "Sofa (Couple tickets)"); `chosen` adds the counter's "Chosen".
 */
export function seatLegend(layout: ScreenLayout, opts: { chosen?: boolean } = {}): LegendEntry[] {
  const has = (k: 'wheelchair' | 'companion' | 'blocked') =>
    layout.rows.some((r) => r.cells.some((c) => c.kind === 'seat' && c[k]));
  const out: LegendEntry[] = [{ key: 'free', label: SEAT_STATE_WORDS.free, state: 'free' }];
  if (opts.chosen) out.push({ key: 'chosen', label: 'Chosen', state: 'free', picked: true });
  out.push(
    { key: 'held', label: SEAT_STATE_WORDS.held, state: 'held' },
    { key: 'sold', label: SEAT_STATE_WORDS.sold, state: 'sold' },
  );
  if (has('blocked')) out.push({ key: 'blocked', label: SEAT_STATE_WORDS.blocked, state: 'blocked' });
  if (has('wheelchair')) out.push({ key: 'wheelchair', label: 'Wheelchair place', state: 'free', kind: 'wheelchair' });
  if (has('companion')) out.push({ key: 'companion', label: 'Companion seat', state: 'free', kind: 'companion' });
  for (const z of layout.zones)
    out.push({
      key: `zone-${z.id}`,
      label: z.ticketType === z.name ? z.name : `${z.name} (${z.ticketType} tickets)`,
      state: 'free',
      zone: z.id,
    });
  return out;
}
