// The picked show's seat map, as main answers `seats.map`: re-read when main says the show's seats
// changed (`seats.changed`, a sale here or, through the Hub, at another counter; at most once per
// SEAT_MAP_REREAD_MS however many changes come), when an order of this counter changes, and by the
// Sell screen's slow fallback. Answers that come back out of order never replace a newer one.
import { create } from 'zustand';
import type { SeatMapView } from '../../../shared/seats';
import { call } from '../transport/bridge';
import { errorText } from './call-errors';
import type { StoreFollower } from './follow';

interface SeatMapState {
  /** The show whose map is wanted (null: no show picked). */
  showId: number | null;
  /** Its map, once read (null before the first answer). */
  view: SeatMapView | null;
  /** Why the last read failed (the map shown, if any, is the last one read). */
  error: string | null;
  /** Asks for a show's map (again). */
  load(showId: number): Promise<void>;
  /** Reads a show's map ahead (the show the list's cursor is on), so picking it draws at once. */
  prefetch(showId: number): void;
  /** Re-reads the map in view, if any. */
  refresh(): Promise<void>;
  /** No show picked any more. */
  forget(): void;
}

let asked = 0;
/** The last map read of each show lately (a picked show draws it at once, then reads it again). */
const recent = new Map<number, { view: SeatMapView; at: number }>();
const PREFETCH_FRESH_MS = 5_000;
/** An older map is not drawn while the new one is read. */
const DRAW_FRESH_MS = 30_000;
function fresh(showId: number): SeatMapView | null {
  const seen = recent.get(showId);
  return seen && Date.now() - seen.at < DRAW_FRESH_MS ? seen.view : null;
}
function remember(view: SeatMapView): void {
  recent.delete(view.showId);
  recent.set(view.showId, { view, at: Date.now() });
  if (recent.size > 20) recent.delete(recent.keys().next().value!);
}

export const useSeatMap = create<SeatMapState>((set, get) => ({
  showId: null,
  view: null,
  error: null,
  load: async (showId) => {
    const n = ++asked;
    if (get().showId !== showId) set({ showId, view: fresh(showId), error: null });
    try {
      const view = await call('seats.map', { showId });
      remember(view);
      if (n === asked && get().showId === showId) set({ view, error: null });
    } catch (e) {
      if (n === asked && get().showId === showId) set({ error: errorText(e) });
    }
  },
  prefetch: (showId) => {
    const seen = recent.get(showId);
    if (seen && Date.now() - seen.at < PREFETCH_FRESH_MS) return;
    call('seats.map', { showId }).then(remember, () => {});
  },
  refresh: async () => {
    const { showId } = get();
    if (showId !== null) await get().load(showId);
  },
  forget: () => {
    asked++;
    set({ showId: null, view: null, error: null });
  },
}));

/**
 * A busy branch changes a show's seats many times a second (each sale's hold and its end, at every
 * counter), and each read of the map is a call to the Hub out of this counter's rate budget: the map
 * shown is read again once per this window, at its end (trailing), after the first change in it.
 */
export const SEAT_MAP_REREAD_MS = 250;
let rereadTimer: ReturnType<typeof setTimeout> | null = null;
/** The shows whose seats changed since the last re-read. */
const changedShows = new Set<string>();

function rereadSoon(showKey: string): void {
  changedShows.add(showKey);
  rereadTimer ??= setTimeout(() => {
    rereadTimer = null;
    const { view } = useSeatMap.getState();
    const due = view !== null && changedShows.has(view.showKey);
    changedShows.clear();
    if (due) void useSeatMap.getState().refresh();
  }, SEAT_MAP_REREAD_MS);
}

export const seatMapFollower: StoreFollower = {
  name: 'seat-map',
  listen: (bridge) => [
    bridge.on('seats.changed', ({ showKey }) => {
      for (const [id, seen] of recent) if (seen.view.showKey === showKey) recent.delete(id);
      const { view } = useSeatMap.getState();
      if (view && view.showKey === showKey) rereadSoon(showKey);
    }),
    () => {
      if (rereadTimer) clearTimeout(rereadTimer);
      rereadTimer = null;
      changedShows.clear();
    },
  ],
  refresh: () => useSeatMap.getState().refresh(),
};
