// The Programme and Shows screens' pure helpers: the programme by day, prices in words, the version
// line, an import's outcome, and the fill bars against the day's fullest show.
import { describe, expect, it } from 'vitest';
import {
  errorLine,
  fillBars,
  fillText,
  importOutcome,
  programmeDays,
  ticketTypeText,
  versionLine,
} from '../../../hub/dashboard/src/programme-view';
import type { DashProgrammeView, ImportProgrammeResult } from '../../../shared/hub-programme-contract';
import type { Programme } from '../../../shared/programme';

const adult = { name: 'Adult', priceKobo: 450_000, bookingFeeKobo: 20_000 };
const child = { name: 'Child', priceKobo: 250_000, bookingFeeKobo: 0 };
const programme: Programme = {
  films: [
    { name: 'Dune 2', title: 'DUNE: PART TWO', rating: '12A' },
    { name: 'Inside Out 2', title: 'INSIDE OUT 2', rating: '' },
  ],
  screens: ['Screen 1', 'Screen 2'],
  shows: [
    { film: 'dune 2', screen: 'Screen 2', date: '2026-05-13', time: '10:00', ticketTypes: [adult] },
    { film: 'Inside Out 2', screen: 'Screen 2', date: '2026-05-12', time: '21:00', ticketTypes: [adult, child] },
    { film: 'Dune 2', screen: 'Screen 1', date: '2026-05-12', time: '21:00', ticketTypes: [adult] },
    { film: 'Dune 2', screen: 'Screen 1', date: '2026-05-12', time: '18:30', ticketTypes: [adult] },
  ],
};
const view = (o: Partial<DashProgrammeView> = {}): DashProgrammeView => ({
  branch: 'B-1',
  version: 3,
  updatedAt: Date.UTC(2026, 4, 12, 18, 30),
  updatedBy: 'Funmi Head',
  programme,
  films: 2,
  screens: 2,
  shows: 4,
  firstDate: '2026-05-12',
  lastDate: '2026-05-13',
  ...o,
});

describe('programme view', () => {
  it('groups the shows by day, in time then screen order, with the title and rating of the film (names match whatever the case)', () => {
    const days = programmeDays(programme);
    expect(days.map((d) => d.date)).toEqual(['2026-05-12', '2026-05-13']);
    expect(days[0]!.shows.map((s) => `${s.time} ${s.screen} ${s.title}`)).toEqual([
      '18:30 Screen 1 DUNE: PART TWO',
      '21:00 Screen 1 DUNE: PART TWO',
      '21:00 Screen 2 INSIDE OUT 2',
    ]);
    expect(days[1]!.shows[0]).toMatchObject({ title: 'DUNE: PART TWO', rating: '12A', film: 'dune 2' });
    expect(programmeDays({ films: [], screens: [], shows: [] })).toEqual([]);
  });

  it("says a ticket type's price and fee in naira", () => {
    expect(ticketTypeText(adult)).toBe('Adult ₦4,500.00 + ₦200.00 fee');
    expect(ticketTypeText(child)).toBe('Child ₦2,500.00 (no fee)');
  });

  it('says which version is on the Hub, when (Lagos) and by whom, or that none is', () => {
    expect(versionLine(view())).toBe('Version 3, set 12 May, 19:30 by Funmi Head');
    expect(versionLine(view({ updatedBy: null }))).toBe('Version 3, set 12 May, 19:30');
    expect(versionLine(view({ version: 0, updatedAt: null, updatedBy: null }))).toBe(
      'No programme set on the Hub yet: the counters sell from their own copy.',
    );
  });

  it('says what an import did: the version sent, or that nothing changed and how many problems (and how many listed)', () => {
    const ok: ImportProgrammeResult = {
      imported: true,
      totalRows: 5,
      errors: [],
      errorCount: 0,
      programme: view({ version: 4 }),
    };
    expect(importOutcome(ok, 'week.csv')).toEqual({
      tone: 'good',
      text: "Version 4 sent to the branch's counters: week.csv, 5 rows (2 films, 4 shows).",
    });
    const bad: ImportProgrammeResult = {
      imported: false,
      totalRows: 1,
      errors: [{ line: 2, column: 'price', message: 'Write the price in naira' }],
      errorCount: 1,
      programme: view(),
    };
    expect(importOutcome(bad, 'week.csv')).toEqual({
      tone: 'bad',
      text: 'Nothing changed: 1 problem in week.csv (1 row). Fix it in the file and import it again; the counters keep version 3.',
    });
    const many = { ...bad, totalRows: 900, errorCount: 450, errors: Array.from({ length: 200 }, () => bad.errors[0]!) };
    expect(importOutcome(many, 'big.csv').text).toBe(
      'Nothing changed: 450 problems in big.csv (900 rows). Fix them in the file and import it again; the counters keep version 3. The first 200 are listed.',
    );
    expect(errorLine(0)).toBe('the file');
    expect(errorLine(7)).toBe('7');
  });

  it("draws each show's bar against the day's fullest show, sold and being paid for", () => {
    const { scale, bars } = fillBars([
      { seatsSold: 30, seatsHeld: 10 },
      { seatsSold: 10, seatsHeld: 0 },
      { seatsSold: 0, seatsHeld: 0 },
      { seatsSold: 1, seatsHeld: 2 },
    ]);
    expect(scale).toBe(40);
    expect(bars).toEqual([
      { soldPct: 75, heldPct: 25 },
      { soldPct: 25, heldPct: 0 },
      { soldPct: 0, heldPct: 0 },
      { soldPct: 2.5, heldPct: 5 },
    ]);
    expect(fillBars([{ seatsSold: 0, seatsHeld: 0 }])).toEqual({ scale: 0, bars: [{ soldPct: 0, heldPct: 0 }] });
    expect(fillBars([])).toEqual({ scale: 0, bars: [] });
  });

  it("says a show's fill in words", () => {
    expect(fillText({ seatsSold: 12, paidCount: 7, cardTotalKobo: 5_400_000, seatsHeld: 2 })).toBe(
      '12 seats sold in 7 sales · ₦54,000.00 · 2 being paid for',
    );
    expect(fillText({ seatsSold: 1, paidCount: 1, cardTotalKobo: 470_000, seatsHeld: 0 })).toBe(
      '1 seat sold in 1 sale · ₦4,700.00',
    );
    expect(fillText({ seatsSold: 0, paidCount: 0, cardTotalKobo: 0, seatsHeld: 0 })).toBe('No seats sold · ₦0.00');
  });
});
