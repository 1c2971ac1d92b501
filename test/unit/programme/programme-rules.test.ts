// The programme's rules: what a programme may hold, the next shows soonest first with the grace
// (across midnight in Africa/Lagos, with a fixed clock, whatever the machine's zone), the ticket
// type offered first, the store replacing its copy whole, and the seat check's deadline.
import { afterEach, describe, expect, it } from 'vitest';
import { openJournalDb } from '../../../core/schema';
import { type Db } from '../../../core/db';
import { runSeatCheck, type SeatCheck } from '../../../core/programme';
import { defaultTicketType, ProgrammeStore } from '../../../core/programme/programme-store';
import type { Timers } from '../../../core/lib';
import { lagosInstant } from '../../../shared/time';
import { matchesShow, ProgrammeSchema, SHOW_GRACE_MS, upcomingShows, type Programme } from '../../../shared/programme';
import { tidySeats } from '../../../shared/seat-list';

const ADULT = { name: 'Adult', priceKobo: 450_000, bookingFeeKobo: 20_000 };
const CHILD = { name: 'Child', priceKobo: 300_000, bookingFeeKobo: 20_000 };
const P: Programme = {
  films: [
    { name: 'Dune 2', title: 'DUNE: PART TWO', rating: '12A' },
    { name: 'Night Owl', title: 'NIGHT OWL', rating: '18' },
  ],
  screens: ['Screen 1', 'Screen 2'],
  shows: [
    { film: 'Night Owl', screen: 'Screen 2', date: '2025-04-01', time: '00:15', ticketTypes: [ADULT] },
    { film: 'Dune 2', screen: 'Screen 1', date: '2025-03-31', time: '23:50', ticketTypes: [ADULT, CHILD] },
    { film: 'Dune 2', screen: 'Screen 1', date: '2025-03-31', time: '21:00', ticketTypes: [ADULT, CHILD] },
    { film: 'Night Owl', screen: 'Screen 1', date: '2025-04-01', time: '00:05', ticketTypes: [CHILD, ADULT] },
  ],
};

const dbs: Db[] = [];
afterEach(() => {
  while (dbs.length) dbs.pop()!.close();
});
function store(): ProgrammeStore {
  const db = openJournalDb(':memory:');
  dbs.push(db);
  return new ProgrammeStore(db);
}
const lagos = (date: string, time: string) => lagosInstant(date, time);

describe('a programme', () => {
  it('names only films and screens it lists, one show per screen and time, each ticket type once', () => {
    expect(ProgrammeSchema.safeParse(P).success).toBe(true);
    const bad = ProgrammeSchema.safeParse({
      ...P,
      shows: [
        ...P.shows,
        {
          film: 'Ghost',
          screen: 'Screen 9',
          date: '2025-03-31',
          time: '21:00',
          ticketTypes: [ADULT, { ...ADULT, name: 'adult' }],
        },
        P.shows[0],
      ],
    });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues.map((i) => i.message)).toEqual([
      'The show at 21:00 names the film Ghost, which is not in the programme',
      'The show at 21:00 names the screen Screen 9, which is not in the programme',
      'The ticket type adult is listed twice for one show',
      'Two shows on Screen 2 at 2025-04-01 00:15',
    ]);
  });

  it('a Lagos date and time is one instant, UTC+1 all year', () => {
    expect(new Date(lagos('2025-04-01', '00:15')).toISOString()).toBe('2025-03-31T23:15:00.000Z');
    expect(new Date(lagos('2025-07-01', '19:30')).toISOString()).toBe('2025-07-01T18:30:00.000Z');
  });
});

describe('the next shows, across midnight in Africa/Lagos', () => {
  it('lists soonest first, keeps a show until its start plus the grace, and orders yesterday 23:50 before today 00:05', () => {
    const s = store();
    s.replace({ kind: 'csv', fileName: 'p.csv', importedAt: 1, by: 'Ada' }, P, 1);
    const next = (now: number) =>
      upcomingShows(s.showsFrom(now - SHOW_GRACE_MS, 100), now).map((x) => `${x.date} ${x.time} ${x.filmName}`);

    // 00:05 on 1 April in Lagos: the 23:50 show began 15 minutes ago and is still sold.
    expect(next(lagos('2025-04-01', '00:05'))).toEqual([
      '2025-03-31 23:50 Dune 2',
      '2025-04-01 00:05 Night Owl',
      '2025-04-01 00:15 Night Owl',
    ]);
    // 23:30 the evening before: the 21:00 show is gone, midnight's shows come after 23:50.
    expect(next(lagos('2025-03-31', '23:30'))).toEqual([
      '2025-03-31 23:50 Dune 2',
      '2025-04-01 00:05 Night Owl',
      '2025-04-01 00:15 Night Owl',
    ]);
    // 00:10: 20 minutes after 23:50, it leaves the list (start + grace is not "still on").
    expect(next(lagos('2025-04-01', '00:10'))).toEqual(['2025-04-01 00:05 Night Owl', '2025-04-01 00:15 Night Owl']);
    expect(next(lagos('2025-04-01', '00:36'))).toEqual([]);
  });

  it('filters by every word typed, in film, title, screen, rating or time', () => {
    const show = { filmName: 'Dune 2', filmTitle: 'DUNE: PART TWO', screen: 'Screen 1', rating: '12A', time: '19:30' };
    expect(matchesShow(show, '')).toBe(true);
    expect(matchesShow(show, 'dune 1930')).toBe(true);
    expect(matchesShow(show, 'part screen 1')).toBe(true);
    expect(matchesShow(show, 'dune 2200')).toBe(false);
    expect(tidySeats(' f7  f8,g1 ,')).toBe('F7,F8,G1');
  });
});

describe('the store', () => {
  it('replaces its copy whole, records the source, and a failed replace leaves the old copy', () => {
    const s = store();
    s.replace({ kind: 'csv', fileName: 'p.csv', importedAt: 10, by: 'Ada' }, P, 10);
    expect(s.summary()).toEqual({
      source: { kind: 'csv', fileName: 'p.csv', importedAt: 10, by: 'Ada' },
      films: 2,
      screens: 2,
      shows: 4,
      firstDate: '2025-03-31',
      lastDate: '2025-04-01',
    });
    // A show naming a film that is not listed fails inside the transaction: nothing of it stays.
    expect(() => s.replace({ kind: 'hub', version: 2, receivedAt: 20 }, { ...P, films: [P.films[0]!] }, 20)).toThrow();
    expect(s.summary().shows).toBe(4);
    expect(s.summary().source?.kind).toBe('csv');
    s.replace({ kind: 'hub', version: 2, receivedAt: 20 }, { ...P, shows: P.shows.slice(0, 1) }, 20);
    expect(s.summary()).toMatchObject({ source: { kind: 'hub', version: 2 }, shows: 1 });
    expect(s.hubVersion()).toBe(2);
  });

  it("offers the programme's first ticket type, whatever was sold before", () => {
    const s = store();
    s.recordSale({ orderId: 1, showKey: 'k', filmName: 'Dune 2', ticketType: 'Child', tickets: 3, at: 1 });
    s.recordSale({ orderId: 2, showKey: 'k', filmName: 'Dune 2', ticketType: 'Child', tickets: 1, at: 1 });
    // Child sold most for Dune 2, and still Adult (listed first) is offered.
    expect(defaultTicketType([ADULT, CHILD])).toBe('Adult');
    expect(defaultTicketType([CHILD, ADULT])).toBe('Child');
    expect(defaultTicketType([{ ...ADULT, name: 'Student' }])).toBe('Student');
    expect(s.saleOf(1)).toEqual({ screen: null, ticketType: 'Child' });
  });
});

describe('the seat check', () => {
  /** Timers the test fires by hand: the deadline passes when the test says so, not after a sleep. */
  function handTimers() {
    const due: (() => void)[] = [];
    const t: Timers = { setTimeout: (fn) => (due.push(fn), due.length), clearTimeout: () => undefined };
    return { t, fire: () => due.splice(0).forEach((f) => f()) };
  }
  const q = {
    showKey: '2025-03-31 19:30 screen 1',
    show: { filmName: 'Dune 2', filmTitle: 'DUNE: PART TWO', date: '2025-03-31', time: '19:30', screen: 'Screen 1' },
    seats: ['F7', 'F8'],
  };

  it('is skipped without a Hub, answered when the Hub answers, skipped when it fails or misses the deadline', async () => {
    expect(await runSeatCheck(null, q)).toEqual({
      kind: 'skipped',
      reason: 'Seats not checked across counters (no Hub): this counter is not linked to a Hub.',
    });
    const answering: SeatCheck = {
      conflicts: async (x) => [{ seat: x.seats[0]!, counterName: 'Counter 2', state: 'paid', at: 5 }],
    };
    expect(await runSeatCheck(answering, q)).toEqual({
      kind: 'checked',
      conflicts: [{ seat: 'F7', counterName: 'Counter 2', state: 'paid', at: 5 }],
    });
    expect((await runSeatCheck({ conflicts: () => Promise.reject(new Error('down')) }, q)).kind).toBe('skipped');

    let aborted = false;
    const never: SeatCheck = {
      conflicts: (_x, signal) =>
        new Promise(() =>
          signal.addEventListener('abort', () => {
            aborted = true;
          }),
        ),
    };
    const h = handTimers();
    const answer = runSeatCheck(never, q, 300, h.t);
    h.fire();
    expect(await answer).toEqual({
      kind: 'skipped',
      reason: 'Seats not checked across counters (Hub unreachable): the Hub did not answer in time.',
    });
    expect(aborted).toBe(true);
  });
});
