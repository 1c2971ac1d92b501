// The Sell screen's show picker rules: tickets follow the seats, the booking fee is per ticket,
// ↑/↓ step through the ticket types, and when a show starts in cashier words.
import { describe, expect, it } from 'vitest';
import type { ShowView } from '../../../shared/programme';
import { lagosInstant } from '../../../shared/time';
import { filterShows, showSaleAmounts, startsText, stepTicketType } from '../../../renderer/src/stores/show-pick';

const show = (over: Partial<ShowView> = {}): ShowView => ({
  id: 1,
  key: 'k',
  filmName: 'Dune 2',
  filmTitle: 'DUNE: PART TWO',
  rating: '12A',
  screen: 'Screen 1',
  date: '2025-03-31',
  time: '23:50',
  startsAt: lagosInstant('2025-03-31', '23:50'),
  ticketTypes: [
    { name: 'Adult', priceKobo: 450_000, bookingFeeKobo: 20_000 },
    { name: 'Child', priceKobo: 300_050, bookingFeeKobo: 0 },
    { name: 'Student', priceKobo: 350_000, bookingFeeKobo: 10_000 },
  ],
  defaultTicketType: 'Adult',
  ...over,
});

describe('show picker rules', () => {
  it('counts one ticket per seat typed (commas or spaces) and charges the booking fee per ticket, in kobo', () => {
    const adult = show().ticketTypes[0]!;
    expect(showSaleAmounts(adult, 'f7 f8')).toEqual({
      tickets: 2,
      seats: 'F7,F8',
      ticketsKobo: 900_000,
      bookingFeeKobo: 40_000,
      totalKobo: 940_000,
    });
    expect(showSaleAmounts(adult, ' , ')).toMatchObject({ tickets: 0, totalKobo: 0 });
  });

  it('steps through the ticket types, wrapping round', () => {
    expect(stepTicketType(show(), 'Adult', 1)).toBe('Child');
    expect(stepTicketType(show(), 'Adult', -1)).toBe('Student');
    expect(stepTicketType(show(), 'student', 1)).toBe('Adult');
  });

  it('says when a show starts, across midnight in Lagos', () => {
    const s = show();
    expect(startsText(s, lagosInstant('2025-03-31', '23:25'))).toBe('in 25 min');
    expect(startsText(s, lagosInstant('2025-04-01', '00:05'))).toBe('started 15 min ago');
    expect(startsText(s, lagosInstant('2025-03-31', '20:50'))).toBe('in 3 h');
    expect(
      startsText(
        show({ date: '2025-04-01', time: '19:00', startsAt: lagosInstant('2025-04-01', '19:00') }),
        lagosInstant('2025-03-31', '09:00'),
      ),
    ).toBe('tomorrow');
    expect(filterShows([s, show({ id: 2, filmName: 'Up', filmTitle: 'UP' })], 'dune').map((x) => x.id)).toEqual([1]);
  });
});
