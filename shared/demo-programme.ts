// The Demo profile's programme: two films on two screens today and tomorrow, Screen 1 with the
// example layout (examples/layouts/screen-1.json, the same file: a test keeps them equal) and a VIP
// zone, Screen 2 without a layout (its seats are typed). Loaded on a counter in the Demo profile
// (`seats.loadDemoProgramme`) and used by tests. Pure data.
import type { Programme, Show, TicketType } from './programme';
import type { LayoutFile } from './seats';

/** Screen 1 of the Demo programme: 15 rows with two aisles, VIP rows M and N, wheelchair places with companion seats in row A, three blocked seats. */
export const DEMO_SCREEN_1_LAYOUT: LayoutFile = {
  format: 'counterpay-seat-layout/1',
  screen: 'Screen 1',
  zones: [{ id: 'vip', name: 'VIP', ticketType: 'VIP' }],
  rows: [
    { row: 'A', seats: '1w 2c 3-4 _ 5-16 _ 17-18 19c 20w' },
    { row: 'B', seats: '1-4 _ 5-16 _ 17-20' },
    { row: 'C', seats: '1-4 _ 5-16 _ 17-20' },
    { row: 'D', seats: '1-4 _ 5-16 _ 17-20' },
    { row: 'E', seats: '1-4 _ 5-16 _ 17-20' },
    { row: 'F', seats: '1-4 _ 5-16 _ 17-20' },
    { row: 'G', seats: '1-4 _ 5-16 _ 17-20' },
    { row: 'H', seats: '1-4 _ 5-9 10x 11x 12-16 _ 17-20' },
    { row: 'J', seats: '1-4 _ 5-16 _ 17-20' },
    { row: 'K', seats: '1-4 _ 5-16 _ 17-20' },
    { row: 'L', seats: '1-4 _ 5-16 _ 17-20' },
    { row: 'M', seats: '1-4 _ 5-16:vip _ 17-20' },
    { row: 'N', seats: '1-4 _ 5-16:vip _ 17-20' },
    { row: 'O', seats: '1-5 _ 6-17 _ 18-22' },
    { row: 'P', seats: '1-5 _ 6-11 12x 13-17 _ 18-22' },
  ],
};

const ADULT: TicketType = { name: 'Adult', priceKobo: 450_000, bookingFeeKobo: 20_000 };
const CHILD: TicketType = { name: 'Child', priceKobo: 300_000, bookingFeeKobo: 20_000 };
const VIP: TicketType = { name: 'VIP', priceKobo: 800_000, bookingFeeKobo: 20_000 };

/** The Demo programme for two days (yyyy-MM-dd, Lagos). */
export function demoProgramme(today: string, tomorrow: string): Programme {
  const shows: Show[] = [];
  for (const date of [today, tomorrow]) {
    for (const time of ['13:00', '16:00', '19:30', '22:00'])
      shows.push({ film: 'Dune 2', screen: 'Screen 1', date, time, ticketTypes: [ADULT, CHILD, VIP] });
    for (const time of ['12:00', '15:00', '18:00'])
      shows.push({ film: 'Inside Out 2', screen: 'Screen 2', date, time, ticketTypes: [ADULT, CHILD] });
  }
  return {
    films: [
      { name: 'Dune 2', title: 'DUNE: PART TWO', rating: '12A' },
      { name: 'Inside Out 2', title: 'INSIDE OUT 2', rating: 'PG' },
    ],
    screens: ['Screen 1', 'Screen 2'],
    shows,
    layouts: [DEMO_SCREEN_1_LAYOUT],
  };
}
