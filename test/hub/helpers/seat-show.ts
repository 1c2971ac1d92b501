// A branch programme whose show has a seat map, for tests that hold seats on a Hub (a hold names a
// show of the branch's programme with a layout, and seats of it: hub/store/seat-rules.ts), and the
// journal's paid sale of seats (a seat is sold only from the counter's synced journal).
import type { HubDb } from '../../../hub/db/adapter';
import { setProgramme } from '../../../hub/store/programme';
import { saveLayout } from '../../../hub/store/screen-layouts';
import { DEMO_SCREEN_1_LAYOUT } from '../../../shared/demo-programme';
import type { Programme } from '../../../shared/programme';
import { checkLayoutFile } from '../../../shared/seat-layout';
import type { LayoutFile } from '../../../shared/seats';
import type { CounterJournal } from './dashboard-client';

/** A show on Screen 1 (the example layout: rows A to P, H10 H11 P12 blocked). */
export const SEAT_SHOW = {
  filmName: 'Dune 2',
  filmTitle: 'DUNE: PART TWO',
  date: '2026-11-27',
  time: '19:30',
  screen: 'Screen 1',
};
export type SeatShow = typeof SEAT_SHOW;

/** A plain screen's layout file: `rows` rows (A to Z) of seats 1 to `perRow`, none blocked. */
export function plainLayout(screen: string, rows: number, perRow: number): LayoutFile {
  return {
    format: 'counterpay-seat-layout/1',
    screen,
    zones: [],
    rows: Array.from({ length: rows }, (_, i) => ({ row: String.fromCharCode(65 + i), seats: `1-${perRow}` })),
  };
}

/** The programme of these shows, on their screens (and Screen 1, Screen 2). */
export function programmeOf(shows: SeatShow[]): Programme {
  return {
    films: [...new Set(shows.map((s) => s.filmName))].map((name) => ({
      name,
      title: name.toUpperCase(),
      rating: '12A',
    })),
    screens: [...new Set(['Screen 1', 'Screen 2', ...shows.map((s) => s.screen)])],
    shows: shows.map((s) => ({
      film: s.filmName,
      screen: s.screen,
      date: s.date,
      time: s.time,
      ticketTypes: [{ name: 'Adult', priceKobo: 450_000, bookingFeeKobo: 0 }],
    })),
  };
}

/** Sets the branch's programme to these shows (Screen 1 and Screen 2; Screen 2 without a layout) and a layout (Screen 1's by default). */
export async function programmeWithSeatMap(
  db: HubDb,
  branch: string,
  shows: SeatShow[] = [SEAT_SHOW],
  now = Date.now(),
  layout: LayoutFile = DEMO_SCREEN_1_LAYOUT,
): Promise<void> {
  await setProgramme(db, branch, programmeOf(shows), 'test', now);
  const l = checkLayoutFile(layout);
  if (l.kind !== 'ok') throw new Error('the layout does not read');
  await saveLayout(db, branch, l.layout, 'layout.json', 'test', now);
}

/** order.created and order.status events of a sale of these seats of the show, in the given final state. */
export function soldInJournal(
  j: CounterJournal,
  reference: string,
  seats: string[],
  status: 'paid' | 'failed' | 'cancelled' | 'expired',
  show: SeatShow = SEAT_SHOW,
  at = Date.now(),
) {
  return [
    j.ev('order.created', at, {
      reference,
      amountKobo: 450_000 * seats.length,
      sn: 'SN-1',
      sale: {
        filmName: show.filmName,
        filmTitle: show.filmTitle,
        showDate: show.date,
        showTime: show.time,
        seats: seats.join(','),
        tickets: seats.length,
        priceKobo: 450_000,
        bookingFeeKobo: 0,
      },
    }),
    j.ev('order.status', at, { reference, status }),
  ];
}
