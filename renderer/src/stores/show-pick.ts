// The Sell screen's show picker as pure rules: which shows the list holds for what was typed, what
// a sale of a picked show costs (booking fee per ticket), and when a show starts in cashier words.
import { bookingFeeForSale, saleAmounts } from '../../../shared/orders';
import { matchesShow, type ShowView, type TicketType } from '../../../shared/programme';
import { splitSeats, tidySeats } from '../../../shared/seat-list';
import { addDays, lagosDate } from '../../../shared/time';

/** The shows for the typed words, in the order main gave them (soonest first). */
export function filterShows(shows: readonly ShowView[], query: string): ShowView[] {
  return shows.filter((s) => matchesShow(s, query));
}

export function ticketTypeOf(show: ShowView, name: string): TicketType {
  return show.ticketTypes.find((t) => t.name.toLowerCase() === name.toLowerCase()) ?? show.ticketTypes[0]!;
}

/** The type after (step 1) or before (step -1) the one chosen, wrapping round. */
export function stepTicketType(show: ShowView, name: string, step: 1 | -1): string {
  const i = show.ticketTypes.findIndex((t) => t.name.toLowerCase() === name.toLowerCase());
  const n = show.ticketTypes.length;
  return show.ticketTypes[((((i < 0 ? 0 : i) + step) % n) + n) % n]!.name;
}

interface ShowSaleAmounts {
  tickets: number;
  seats: string;
  ticketsKobo: number;
  bookingFeeKobo: number;
  totalKobo: number;
}

/** Tickets follow the seats; the booking fee is per ticket. */
export function showSaleAmounts(type: TicketType, typedSeats: string): ShowSaleAmounts {
  const seats = tidySeats(typedSeats);
  const tickets = seats === '' ? 0 : splitSeats(seats).length;
  // The sale's amounts by the engine's own rule (shared/orders.ts): the screen adds up nothing.
  const a = saleAmounts({
    tickets,
    priceKobo: type.priceKobo,
    bookingFeeKobo: bookingFeeForSale(tickets, type.bookingFeeKobo),
  });
  return { tickets, seats, ticketsKobo: a.ticketsKobo, bookingFeeKobo: a.bookingFeeKobo, totalKobo: a.amountKobo };
}

/** Where the list's choice starts: the first show that has not started (the first of all when every one has). */
export function firstNotStarted(shows: readonly Pick<ShowView, 'startsAt'>[], now: number): number {
  const i = shows.findIndex((s) => s.startsAt > now);
  return i < 0 ? 0 : i;
}

/** "started 12 min ago" for a show that has started at `now`, else null. */
export function startedText(startsAt: number, now: number): string | null {
  const mins = Math.round((now - startsAt) / 60_000);
  return now >= startsAt ? (mins < 1 ? 'starting now' : `started ${mins} min ago`) : null;
}

/** "in 25 min", "started 5 min ago", "in 2 h 10 min", "tomorrow", or the date for later days. */
export function startsText(show: Pick<ShowView, 'startsAt' | 'date'>, now: number): string {
  const started = startedText(show.startsAt, now);
  if (started) return started;
  const mins = Math.round((show.startsAt - now) / 60_000);
  if (mins === 0) return 'starting now';
  const today = lagosDate(now);
  const tomorrow = addDays(today, 1);
  if (mins < 60) return `in ${mins} min`;
  if (show.date === today || mins < 6 * 60)
    return `in ${Math.floor(mins / 60)} h${mins % 60 ? ` ${mins % 60} min` : ''}`;
  if (show.date === tomorrow) return 'tomorrow';
  return show.date;
}
