// The seat map's part of a programme sale: reads the picked show's map (again on `seats.changed`,
// and by a slow fallback), reads the seats typed against its layout, and turns a seat picked on the
// map, or "the best N together", into the seats field (the ticket count follows it; a zone's seats
// set its ticket type). A show whose screen has no layout keeps the typed seats as they are.
import { useCallback, useEffect, useState } from 'react';
import { bestSeats } from '../../../../shared/best-seats';
import type { ScreenLayout, SeatMapView } from '../../../../shared/seats';
import { seatList } from '../../../../shared/seat-list';
import { useSale, type ShowPick } from '../../stores/sale-store';
import { pickProblem, readTypedSeats, toggleSeat, zoneTicketType } from '../../stores/seat-map';
import { useSeatMap } from '../../stores/seat-map-store';
import { SeatMap } from './SeatMap';

/** The map is re-read this often while shown, in case a `seats.changed` was missed (the event is the fast path). */
export const SEAT_MAP_FALLBACK_MS = 5_000;

/** `b4`, `B 4`, `best 4`: the seats field's way to ask for the best 4 seats together. */
const BEST_TYPED = /^\s*b(?:est)?\s*(\d{1,2})\s*$/i;

export interface SeatPick {
  /** The map, once read, when the show's screen has a layout. */
  view: (SeatMapView & { layout: ScreenLayout }) | null;
  /** Why the map could not be read (the sale still goes by typed seats). */
  error: string | null;
  /** The seats as the sale sends them (ranges spelt out when there is a layout). */
  seatsForSale: string;
  /** What stops these seats from being sold, in cashier words, or null. */
  problem: string | null;
  /** A word after "best N" found nothing, or null. */
  notice: string | null;
  toggle(seat: string): void;
  best(count: number): void;
  /** The seats field's Enter: `b4` picks the best 4 and answers true (Enter then does not charge). */
  bestFromText(): boolean;
}

export function useSeatPick(pick: ShowPick): SeatPick {
  const showId = pick.show.id;
  const load = useSeatMap((m) => m.load);
  const forget = useSeatMap((m) => m.forget);
  const stored = useSeatMap((m) => (m.view && m.view.showId === showId ? m.view : null));
  const error = useSeatMap((m) => (m.showId === showId ? m.error : null));
  const [notice, setNotice] = useState<string | null>(null);

  useEffect(() => {
    void load(showId);
    const t = setInterval(() => void useSeatMap.getState().refresh(), SEAT_MAP_FALLBACK_MS);
    return () => clearInterval(t);
  }, [load, showId]);
  useEffect(() => forget, [forget]);

  const view = stored?.layout ? (stored as SeatMapView & { layout: ScreenLayout }) : null;
  const layout = view?.layout ?? null;
  const typed = layout ? readTypedSeats(pick.seats, layout) : null;
  const seatsForSale = typed ? [...typed.seats, ...typed.unknown].join(',') : pick.seats;
  let problem: string | null = null;
  if (view && typed && typed.unknown.length > 0) {
    const names = typed.unknown.join(', ');
    problem = `${names} ${typed.unknown.length === 1 ? 'is not a seat' : 'are not seats'} of ${view.layout.screen}: check the row and number on the map.`;
  } else if (view && typed) problem = pickProblem(view, typed.seats);

  const setSeats = useCallback(
    (seats: string[]) => {
      const st = useSale.getState();
      st.setSeats(seats.join(','));
      const zoneType = layout ? zoneTicketType(layout, seats) : null;
      if (zoneType && pick.show.ticketTypes.some((t) => t.name === zoneType)) st.setTicketType(zoneType);
      setNotice(null);
    },
    [layout, pick.show.ticketTypes],
  );

  const toggle = useCallback(
    (seat: string) => {
      if (!layout) return;
      const current = useSale.getState().pick?.seats ?? '';
      setSeats(seatList(toggleSeat(current, layout, seat)));
    },
    [layout, setSeats],
  );

  const best = useCallback(
    (count: number) => {
      if (!view) return;
      const ticketType = useSale.getState().pick?.ticketType;
      const zone = view.layout.zones.find((z) => z.ticketType === ticketType) ?? null;
      // The seats of this counter's own sale on hold are its to pick again.
      const taken = new Set(view.taken.filter((t) => !(t.mine && t.state === 'held')).map((t) => t.seat));
      const seats = bestSeats(view.layout, taken, count, { zone: zone?.id ?? null });
      if (seats) setSeats(seats);
      else
        setNotice(
          `No ${count} free ${zone ? `${zone.name} ` : ''}seats side by side: pick the seats one by one on the map.`,
        );
    },
    [view, setSeats],
  );

  const bestFromText = () => {
    const m = BEST_TYPED.exec(pick.seats);
    if (!view || !m) return false;
    best(Number(m[1]));
    return true;
  };

  return { view, error, seatsForSale, problem, notice, toggle, best, bestFromText };
}

/** The map with what it says about the seats chosen. */
export function SeatMapPanel({ seats, picked, onCharge }: { seats: SeatPick; picked: string; onCharge(): void }) {
  if (!seats.view) {
    return seats.error ? (
      <p className="hint seat-map-error" role="status">
        The seat map could not be read: {seats.error}. Type the seats.
      </p>
    ) : null;
  }
  return (
    <>
      <SeatMap
        view={seats.view}
        picked={seatList(picked)}
        onToggle={seats.toggle}
        onBest={seats.best}
        onCharge={onCharge}
      />
      {seats.notice && (
        <p className="hint seat-map-notice" role="status">
          {seats.notice}
        </p>
      )}
    </>
  );
}
