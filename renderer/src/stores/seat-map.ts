// The Sell screen's seat map, as rules without a screen: the cursor's moves over the seats (gaps
// skipped), the seats typed ("F7,F8", "F7 F8", "F7-F9") read against the layout, a seat picked or
// unpicked, and what the cashier is told of the seats picked. Each seat's state, its spoken name and
// the legend's words are the one seat-state model both maps draw: shared/seat-state.ts.
import type { LayoutSeat, ScreenLayout, SeatMapView } from '../../../shared/seats';
import { seatList } from '../../../shared/seat-list';
import { seatCounts as countSeats, seatLook, takenBySeat, type SeatState } from '../../../shared/seat-state';

/** A seat's place on the map: row index (front first) and cell index in that row. */
export interface SeatAt {
  row: number;
  cell: number;
}

function seatAt(layout: ScreenLayout, at: SeatAt): LayoutSeat | null {
  const c = layout.rows[at.row]?.cells[at.cell];
  return c && c.kind === 'seat' ? c : null;
}

/** Where a seat is on the map, or null when the layout has no such seat. */
export function findSeat(layout: ScreenLayout, id: string): SeatAt | null {
  for (let row = 0; row < layout.rows.length; row++) {
    const cells = layout.rows[row]!.cells;
    for (let cell = 0; cell < cells.length; cell++) {
      const c = cells[cell]!;
      if (c.kind === 'seat' && c.id === id) return { row, cell };
    }
  }
  return null;
}

/** The first seat of the map (front row, left), where the cursor starts. */
export function firstSeat(layout: ScreenLayout): SeatAt | null {
  for (let row = 0; row < layout.rows.length; row++) {
    const cell = layout.rows[row]!.cells.findIndex((c) => c.kind === 'seat');
    if (cell >= 0) return { row, cell };
  }
  return null;
}

/** Where the cursor starts on a map with nothing chosen: the seat nearest the middle of the middle row. */
export function startSeat(layout: ScreenLayout): SeatAt | null {
  const mid = (layout.width - 1) / 2;
  const order = layout.rows
    .map((_, i) => i)
    .sort((a, b) => Math.abs(a - layout.rows.length / 2) - Math.abs(b - layout.rows.length / 2));
  for (const row of order) {
    let best: number | null = null;
    layout.rows[row]!.cells.forEach((c, i) => {
      if (
        c.kind === 'seat' &&
        (best === null || Math.abs(c.col - mid) < Math.abs(layout.rows[row]!.cells[best]!.col - mid))
      )
        best = i;
    });
    if (best !== null) return { row, cell: best };
  }
  return null;
}

export type CursorKey = 'ArrowLeft' | 'ArrowRight' | 'ArrowUp' | 'ArrowDown' | 'Home' | 'End';

/**
 * Where the cursor goes for an arrow key: left and right to the next seat of the row (over gaps),
 * up and down to the seat of the next row that has one nearest the same column; it stays put at
 * the edge. Home and End go to the row's first and last seat.
 */
export function moveCursor(layout: ScreenLayout, from: SeatAt, key: CursorKey): SeatAt {
  const row = layout.rows[from.row];
  if (!row) return from;
  const col = row.cells[from.cell]?.col ?? from.cell;
  if (key === 'ArrowLeft' || key === 'ArrowRight' || key === 'Home' || key === 'End') {
    const seats = row.cells.flatMap((c, i) => (c.kind === 'seat' ? [i] : []));
    if (seats.length === 0) return from;
    if (key === 'Home') return { row: from.row, cell: seats[0]! };
    if (key === 'End') return { row: from.row, cell: seats[seats.length - 1]! };
    const next =
      key === 'ArrowRight' ? seats.find((i) => i > from.cell) : [...seats].reverse().find((i) => i < from.cell);
    return next === undefined ? from : { row: from.row, cell: next };
  }
  const step = key === 'ArrowDown' ? 1 : -1;
  for (let r = from.row + step; r >= 0 && r < layout.rows.length; r += step) {
    let best: number | null = null;
    let bestDist = Infinity;
    layout.rows[r]!.cells.forEach((c, i) => {
      if (c.kind !== 'seat') return;
      const d = Math.abs(c.col - col);
      if (d < bestDist) {
        best = i;
        bestDist = d;
      }
    });
    if (best !== null) return { row: r, cell: best };
  }
  return from;
}

/** The seats typed, read against the layout: "F7,F8", "F7 F8" and ranges "F7-F9" (or "F9-F7") of one row. */
export interface TypedSeats {
  /** Seat names in the order typed, each once. */
  seats: string[];
  /** What was typed that names no seat of this screen ("Z99", "F7-G2"). */
  unknown: string[];
}

const RANGE = /^([A-Z]{1,3})(\d{1,3})-(?:([A-Z]{1,3}))?(\d{1,3})$/;

export function readTypedSeats(typed: string, layout: ScreenLayout): TypedSeats {
  const seats: string[] = [];
  const unknown: string[] = [];
  const ids = new Set(layout.rows.flatMap((r) => r.cells.flatMap((c) => (c.kind === 'seat' ? [c.id] : []))));
  const add = (id: string) => {
    if (!seats.includes(id)) seats.push(id);
  };
  // A range may be typed with spaces around its dash ("F7 - F9").
  const parts = seatList(typed.replace(/\s*-\s*/g, '-'));
  for (const part of parts) {
    const m = RANGE.exec(part);
    if (m && (m[3] === undefined || m[3] === m[1])) {
      const row = m[1]!;
      const a = Number(m[2]);
      const b = Number(m[4]);
      const inRange: string[] = [];
      for (let n = Math.min(a, b); n <= Math.max(a, b); n++) if (ids.has(`${row}${n}`)) inRange.push(`${row}${n}`);
      if (inRange.length === 0) unknown.push(part);
      (a <= b ? inRange : inRange.reverse()).forEach(add);
    } else if (ids.has(part)) add(part);
    else unknown.push(part);
  }
  return { seats, unknown };
}

/** The seats field after a seat is picked or unpicked on the map (ranges spelt out, as the sale sends them). */
export function toggleSeat(typed: string, layout: ScreenLayout, id: string): string {
  const { seats, unknown } = readTypedSeats(typed, layout);
  const next = seats.includes(id) ? seats.filter((s) => s !== id) : [...seats, id];
  return [...next, ...unknown].join(',');
}

/** The ticket type the seats call for: their zone's when every picked seat is in one zone, else null. */
export function zoneTicketType(layout: ScreenLayout, seats: readonly string[]): string | null {
  if (seats.length === 0) return null;
  const zones = new Set<string | null>();
  for (const id of seats) {
    const at = findSeat(layout, id);
    zones.add(at ? (seatAt(layout, at)?.zone ?? null) : null);
  }
  if (zones.size !== 1) return null;
  const [zone] = [...zones];
  return layout.zones.find((z) => z.id === zone)?.ticketType ?? null;
}

/** A cashier's word on the picked seats the sale cannot take as they are (taken, blocked, zones mixed), or null. */
export function pickProblem(view: SeatMapView, seats: readonly string[]): string | null {
  const layout = view.layout;
  if (!layout || seats.length === 0) return null;
  const taken = takenBySeat(view.taken);
  const bad: string[] = [];
  const zones = new Set<string | null>();
  for (const id of seats) {
    const at = findSeat(layout, id);
    const seat = at ? seatAt(layout, at) : null;
    if (!seat) continue;
    zones.add(seat.zone);
    const look = seatLook(seat, taken);
    if (look.state === 'blocked') bad.push(`${id} is blocked`);
    else if (look.state !== 'free' && !look.mine) bad.push(`${id} is ${look.state} at ${look.by}`);
  }
  if (bad.length > 0) return `${bad.join('; ')}: pick another seat.`;
  if (zones.size > 1) {
    const names = [...zones].map((z) => layout.zones.find((x) => x.id === z)?.name ?? 'standard');
    return `These seats are in different zones (${names.join(' and ')}): sell each zone as its own sale.`;
  }
  return null;
}

/** How many seats of the map are free, held, sold (blocked seats are not counted). */
export function seatCounts(view: SeatMapView): Record<Exclude<SeatState, 'blocked'>, number> {
  return countSeats(view.layout, view.taken);
}
