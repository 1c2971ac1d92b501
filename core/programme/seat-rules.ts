// The seat rules of a sale of a show with a seat map, below every door (the programme's sale, a box
// office's charge, a hand-typed sale of a show of the programme, Try again): every seat exists in
// the screen's layout and is not blocked; a zone's seats are sold at the zone's ticket type, one
// zone per sale. The checkout asks these (SeatPlanner) before it records the sale, then applies
// this counter's own sales and the hold itself (core/orders/seat-holding.ts).
import { validationError } from '../../shared/errors';
import type { Sale } from '../../shared/orders';
import { splitSeats } from '../../shared/seat-list';
import type { LayoutSeat, ScreenLayout } from '../../shared/seats';
import type { TicketType } from '../../shared/programme';
import type { BasketSources, SeatPlan, SeatPlanner } from '../orders';
import type { Db } from '../db';
import { LayoutStore } from './layout-store';
import { ProgrammeStore, type ShowRow } from './programme-store';

type Show = ShowRow & { ticketTypes: TicketType[] };

const refuse = (message: string) => validationError({ seats: message }, message);

/** The show a sale is of: the one the door named, else the programme's show of its film, date and time. */
function findShow(store: ProgrammeStore, layouts: LayoutStore, sale: Sale, key: string | undefined): Show | null {
  if (key) return store.showByKey(key);
  const shows = store.showsOfFilmAt(sale.filmName, sale.showDate, sale.showTime);
  if (shows.length <= 1) return shows[0] ?? null;
  const mapped = shows.filter((s) => layouts.get(s.screen));
  if (mapped.length === 0) return null;
  throw refuse(
    `${sale.filmName} plays at ${sale.showTime} on ${shows.map((s) => s.screen).join(' and ')}: sell it from the programme (pick the show) so the seats are those of the right screen`,
  );
}

/** What the sale's seats are in the layout: each seat found, or the first problem in cashier words. */
function seatsIn(layout: ScreenLayout, seats: readonly string[]): LayoutSeat[] {
  const index = new Map<string, LayoutSeat>();
  for (const r of layout.rows) for (const c of r.cells) if (c.kind === 'seat') index.set(c.id, c);
  const out: LayoutSeat[] = [];
  const missing: string[] = [];
  const blocked: string[] = [];
  for (const s of seats) {
    const seat = index.get(s);
    if (!seat) missing.push(s);
    else if (seat.blocked) blocked.push(s);
    else out.push(seat);
  }
  if (missing.length > 0)
    throw refuse(
      `${missing.join(', ')} ${missing.length === 1 ? 'is not a seat' : 'are not seats'} of ${layout.screen}: choose seats on the seat map`,
    );
  if (blocked.length > 0)
    throw refuse(
      `${blocked.join(', ')} ${blocked.length === 1 ? 'is' : 'are'} blocked on ${layout.screen} (not sold): choose other seats`,
    );
  return out;
}

/**
 * A basket's seats, each with its own ticket type: a zone's seats at the zone's type, seats of no
 * zone at a type no zone is sold at. A basket may hold seats of several zones (each at its type).
 */
function checkSeatTypes(
  layout: ScreenLayout,
  show: Show,
  seats: readonly LayoutSeat[],
  types: ReadonlyMap<string, string>,
) {
  const lower = (v: string) => v.trim().toLowerCase();
  for (const seat of seats) {
    const type = types.get(seat.id) ?? '';
    const zone = seat.zone === null ? null : layout.zones.find((z) => z.id === seat.zone);
    if (zone) {
      if (!show.ticketTypes.some((t) => lower(t.name) === lower(zone.ticketType)))
        throw refuse(
          `The ${zone.name} seats are sold at the ${zone.ticketType} ticket type, which this show does not have: choose other seats`,
        );
      if (lower(type) !== lower(zone.ticketType))
        throw refuse(
          `Seat ${seat.id} is a ${zone.name} seat, sold at ${zone.ticketType}: choose ${zone.ticketType} for it, or another seat`,
        );
      continue;
    }
    const z = layout.zones.find((x) => lower(x.ticketType) === lower(type));
    if (z)
      throw refuse(
        `Seat ${seat.id}: ${type} tickets are for the ${z.name} seats: choose another ticket type for it, or a ${z.name} seat`,
      );
  }
}

/** One zone per sale, sold at the zone's ticket type (the door's, or the one the sale's price is). */
function checkZone(layout: ScreenLayout, show: Show, seats: readonly LayoutSeat[], sale: Sale, ticketType?: string) {
  const zones = new Set(seats.map((s) => s.zone));
  if (zones.size > 1) {
    const names = [...zones].map((z) => layout.zones.find((x) => x.id === z)?.name ?? 'standard');
    throw refuse(
      `These seats are of ${names.join(' and ')}: sell the ${names.find((n) => n !== 'standard') ?? names[0]} seats as a separate sale`,
    );
  }
  const zoneId = seats[0]?.zone ?? null;
  const zone = zoneId === null ? null : layout.zones.find((z) => z.id === zoneId);
  const lower = (v: string) => v.trim().toLowerCase();
  if (zone) {
    const type = show.ticketTypes.find((t) => lower(t.name) === lower(zone.ticketType));
    if (!type)
      throw refuse(
        `The ${zone.name} seats are sold at the ${zone.ticketType} ticket type, which this show does not have: choose other seats`,
      );
    const sold = ticketType !== undefined ? lower(ticketType) === lower(type.name) : sale.priceKobo === type.priceKobo;
    if (!sold)
      throw refuse(
        `The ${zone.name} seats are sold at the ${type.name} ticket type: choose ${type.name}, or other seats`,
      );
    return;
  }
  // Seats of no zone are not sold at a zone's ticket type (the cashier picked the type; a box office sends a price).
  if (ticketType !== undefined) {
    const z = layout.zones.find((x) => lower(x.ticketType) === lower(ticketType));
    if (z)
      throw refuse(`${ticketType} tickets are for the ${z.name} seats: choose ${z.name} seats, or another ticket type`);
  }
}

/** The programme's SeatPlanner: null for a sale of a show without a seat map (typed seats, as before). */
/** The seat rules over the programme's tables: what the root builds the checkout with (it comes before this module). */
export function programmeSeatPlanner(db: Db): SeatPlanner {
  return createSeatPlanner(new ProgrammeStore(db), new LayoutStore(db));
}

export function createSeatPlanner(store: ProgrammeStore, layouts: LayoutStore): SeatPlanner {
  return {
    plan(sale, hint) {
      const show = findShow(store, layouts, sale, hint.showKey);
      if (!show) return null;
      const layout = layouts.get(show.screen);
      if (!layout) return null;
      const seats = splitSeats(sale.seats).filter(Boolean);
      const found = seatsIn(layout, seats);
      if (hint.seatTypes) checkSeatTypes(layout, show, found, hint.seatTypes);
      else checkZone(layout, show, found, sale, hint.ticketType);
      const plan: SeatPlan = {
        showKey: show.key,
        show: {
          filmName: show.filmName,
          filmTitle: show.filmTitle,
          date: show.date,
          time: show.time,
          screen: show.screen,
        },
        seats,
      };
      return plan;
    },
  };
}

/**
 * The programme's show of a basket's tickets (the checkout's BasketSources.show): the show the door
 * named by key, else the one show of its film at its date and time; null when none, or when the film
 * plays at that time on several screens (the door must name the show).
 */
export function programmeBasketShows(db: Db): BasketSources['show'] {
  const store = new ProgrammeStore(db);
  return (t) => {
    const show = t.showKey
      ? store.showByKey(t.showKey)
      : (() => {
          const shows = store.showsOfFilmAt(t.filmName, t.showDate, t.showTime);
          return shows.length === 1 ? shows[0]! : null;
        })();
    return show ? { showKey: show.key, ticketTypes: show.ticketTypes } : null;
  };
}
