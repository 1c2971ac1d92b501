// The new seats of an exchange, as on the Sell screen: the seats typed in the seat box ("g7 g8",
// ranges "g7-g9") and, when the new show's screen has a layout, the Sell screen's seat map of that
// show to see what is taken and pick with the arrows and Space (a digit picks the best seats
// together, Enter exchanges). Its map is read here, not through the Sell screen's store.
import { useState } from 'react';
import { bestSeats } from '../../../../shared/best-seats';
import { seatList } from '../../../../shared/seat-list';
import type { ScreenLayout, SeatMapView } from '../../../../shared/seats';
import { useOnChange } from '../../components/useOnChange';
import { readTypedSeats, toggleSeat } from '../../stores/seat-map';
import { call } from '../../transport/bridge';
import { SeatMap } from '../sell/SeatMap';

/** The seats to send: read against the layout when there is one (what names no seat is sent as typed, and refused by the engine). */
export function exchangeSeats(typed: string, layout: ScreenLayout | null): string[] {
  if (!layout) return seatList(typed);
  const read = readTypedSeats(typed, layout);
  return [...read.seats, ...read.unknown];
}

/** Reads the new show's map while it is chosen. */
export function useShowMap(showId: number | null): SeatMapView | null {
  const [view, setView] = useState<SeatMapView | null>(null);
  useOnChange(() => {
    setView(null);
    if (showId === null) return;
    let live = true;
    call('seats.map', { showId })
      .then((v) => live && setView(v))
      .catch(() => {
        /* no map: the seats are typed */
      });
    return () => {
      live = false;
    };
  }, [showId]);
  return view;
}

export function ExchangeSeatMap(p: {
  view: SeatMapView;
  typed: string;
  onTyped: (typed: string) => void;
  onCharge: () => void;
}) {
  const layout = p.view.layout;
  if (!layout) return null;
  const picked = readTypedSeats(p.typed, layout).seats;
  return (
    <SeatMap
      view={{ ...p.view, layout }}
      picked={picked}
      onToggle={(seat) => p.onTyped(toggleSeat(p.typed, layout, seat))}
      onBest={(n) => {
        const seats = bestSeats(layout, new Set(p.view.taken.map((t) => t.seat)), n);
        if (seats) p.onTyped(seats.join(' '));
      }}
      onCharge={p.onCharge}
    />
  );
}
