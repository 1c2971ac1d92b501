// "Best N seats": N free seats side by side in one row, in the best row, centred in it. Side by side
// means neighbouring cells of a row (a gap or a seat that cannot be sold breaks it); the seats are
// never blocked, wheelchair places and companion seats are offered only when asked for (and then the
// block holds a wheelchair place), and all N are of one zone. The best row is the one about
// two-thirds back from the screen, then the rows nearest it (the one nearer the middle of the hall
// first on a tie); within a row the block whose centre is nearest the row's centre wins.
import type { LayoutSeat, ScreenLayout } from './seats';

export interface BestSeatsOptions {
  /** A zone id: only its seats; null: only seats of no zone; absent: any zone (all N of one). */
  zone?: string | null;
  /** Seats for a wheelchair user: the block holds a wheelchair place (companion seats allowed). */
  wheelchair?: boolean;
}

/** The rows in the order they are offered: nearest two-thirds back first. */
export function rowPreference(rowCount: number): number[] {
  const ideal = ((rowCount - 1) * 2) / 3;
  const middle = (rowCount - 1) / 2;
  return Array.from({ length: rowCount }, (_, i) => i).sort(
    (a, b) => Math.abs(a - ideal) - Math.abs(b - ideal) || Math.abs(a - middle) - Math.abs(b - middle) || a - b,
  );
}

/** May this seat be in a block asked with these options (free, not blocked, the right zone and kind)? */
function fits(seat: LayoutSeat, taken: ReadonlySet<string>, opts: BestSeatsOptions): boolean {
  if (seat.blocked || taken.has(seat.id)) return false;
  if (!opts.wheelchair && (seat.wheelchair || seat.companion)) return false;
  if (opts.zone !== undefined && seat.zone !== opts.zone) return false;
  return true;
}

/** The best block of n seats in one row's cells, or null. */
function bestInRow(
  cells: ScreenLayout['rows'][number]['cells'],
  taken: ReadonlySet<string>,
  n: number,
  opts: BestSeatsOptions,
): string[] | null {
  const centre = (cells.length - 1) / 2;
  let best: { start: number; score: number } | null = null;
  for (let start = 0; start + n <= cells.length; start++) {
    const block = cells.slice(start, start + n);
    const seats = block.filter((c): c is LayoutSeat => c.kind === 'seat');
    if (seats.length !== n || !seats.every((s) => fits(s, taken, opts))) continue;
    if (seats.some((s) => s.zone !== seats[0]!.zone)) continue;
    if (opts.wheelchair && !seats.some((s) => s.wheelchair)) continue;
    const score = Math.abs(start + (n - 1) / 2 - centre);
    if (!best || score < best.score) best = { start, score };
  }
  if (!best) return null;
  return cells.slice(best.start, best.start + n).map((c) => (c as LayoutSeat).id);
}

/**
 * N free seats side by side in one row, the best row first and centred in it; null when no row has
 * such a block (the cashier then picks seats one by one).
 */
export function bestSeats(
  layout: ScreenLayout,
  taken: ReadonlySet<string>,
  n: number,
  opts: BestSeatsOptions = {},
): string[] | null {
  if (!Number.isInteger(n) || n < 1) return null;
  for (const i of rowPreference(layout.rows.length)) {
    const found = bestInRow(layout.rows[i]!.cells, taken, n, opts);
    if (found) return found;
  }
  return null;
}
