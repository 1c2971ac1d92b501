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
import { Manager, type CounterJournal } from './dashboard-client';

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

/**
 * The seat map of a Hub run as a process, set as head office would: the first-start setup link it
 * printed makes the head-office manager, who sets the branch's programme and uploads the layout.
 */
export async function dashboardSeatMap(
  proc: { url: string; output(): string },
  branch: string,
  p: Programme,
  layout: LayoutFile,
): Promise<void> {
  const token = /#setup=([A-Za-z0-9_-]{43})/.exec(proc.output())?.[1];
  if (!token) throw new Error('seats: the Hub printed no setup link (it has a manager already)');
  const m = new Manager(proc.url);
  const s = await m.req('POST', '/api/v1/dashboard/setup', {
    token,
    name: 'Bench Office',
    password: 'bench password 123',
  });
  if (s.status !== 200) throw new Error(`seats: setup ${s.status} ${JSON.stringify(s.json)}`);
  m.csrf = String(s.json.csrfToken);
  const put = await m.put('/programme', { branch, programme: p });
  if (put.status !== 200) throw new Error(`seats: programme ${put.status} ${JSON.stringify(put.json)}`);
  const up = await m.post('/screens/layout', { branch, text: JSON.stringify(layout), fileName: 'race.json' });
  if (up.status !== 200) throw new Error(`seats: layout ${up.status} ${JSON.stringify(up.json)}`);
}
