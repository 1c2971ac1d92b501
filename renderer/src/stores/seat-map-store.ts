// The picked show's seat map, as main answers `seats.map`: re-read when main says the show's seats
// changed (`seats.changed`, a sale here or, through the Hub, at another counter), when an order of
// this counter changes, and by the Sell screen's slow fallback. Answers that come back out of order
// never replace a newer one.
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
  /** Re-reads the map in view, if any. */
  refresh(): Promise<void>;
  /** No show picked any more. */
  forget(): void;
}

let asked = 0;

export const useSeatMap = create<SeatMapState>((set, get) => ({
  showId: null,
  view: null,
  error: null,
  load: async (showId) => {
    const n = ++asked;
    if (get().showId !== showId) set({ showId, view: null, error: null });
    try {
      const view = await call('seats.map', { showId });
      if (n === asked && get().showId === showId) set({ view, error: null });
    } catch (e) {
      if (n === asked && get().showId === showId) set({ error: errorText(e) });
    }
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

export const seatMapFollower: StoreFollower = {
  name: 'seat-map',
  listen: (bridge) => [
    bridge.on('seats.changed', ({ showKey }) => {
      const { view } = useSeatMap.getState();
      if (view && view.showKey === showKey) void useSeatMap.getState().refresh();
    }),
  ],
  refresh: () => useSeatMap.getState().refresh(),
};
