// The programme file: checked whole before anything is kept, errors by line and column, money
// exact (₦ with at most two decimals to kobo), and the rows checked against each other.
import { describe, expect, it } from 'vitest';
import { checkProgrammeFile, programmeTemplate } from '../../../shared/programme-csv';

const HEADER = 'film,title,rating,screen,date,time,ticketType,price,bookingFee';
const file = (...rows: string[]) => [HEADER, ...rows].join('\r\n');

describe('checkProgrammeFile', () => {
  it('reads shows with their ticket types, money exact in kobo, and an empty booking fee as none', () => {
    const r = checkProgrammeFile(
      file(
        'Dune 2,DUNE: PART TWO,12A,Screen 1,2025-03-31,19:30,Adult,4500,200',
        'Dune 2,DUNE: PART TWO,12A,Screen 1,2025-03-31,19:30,Child,3000.5,200.05',
        'Dune 2,DUNE: PART TWO,12A,Screen 2,2025-03-31,22:00,Adult,"4,500.00",',
        'Inside Out 2,INSIDE OUT 2,,Screen 2,2025-04-01,00:15,Student,0.01,0',
      ),
    );
    expect(r.errors).toEqual([]);
    expect(r.totalRows).toBe(4);
    expect(r.programme).toEqual({
      films: [
        { name: 'Dune 2', title: 'DUNE: PART TWO', rating: '12A' },
        { name: 'Inside Out 2', title: 'INSIDE OUT 2', rating: '' },
      ],
      screens: ['Screen 1', 'Screen 2'],
      shows: [
        {
          film: 'Dune 2',
          screen: 'Screen 1',
          date: '2025-03-31',
          time: '19:30',
          ticketTypes: [
            { name: 'Adult', priceKobo: 450_000, bookingFeeKobo: 20_000 },
            { name: 'Child', priceKobo: 300_050, bookingFeeKobo: 20_005 },
          ],
        },
        {
          film: 'Dune 2',
          screen: 'Screen 2',
          date: '2025-03-31',
          time: '22:00',
          ticketTypes: [{ name: 'Adult', priceKobo: 450_000, bookingFeeKobo: 0 }],
        },
        {
          film: 'Inside Out 2',
          screen: 'Screen 2',
          date: '2025-04-01',
          time: '00:15',
          ticketTypes: [{ name: 'Student', priceKobo: 1, bookingFeeKobo: 0 }],
        },
      ],
    });
  });

  it('names every wrong value by line and column, and keeps nothing when one row is wrong', () => {
    const r = checkProgrammeFile(
      file(
        'Dune 2,DUNE: PART TWO,12A,Screen 1,2025-03-31,19:30,Adult,4500,200',
        ',DUNE: PART TWO,12A,Screen 1,2025-02-30,7pm,Adult,45.005,-1',
        'Dune 2,DUNE: PART TWO,12A,,2025-03-31,19:30,,0,',
      ),
    );
    expect(r.programme).toBeNull();
    expect(r.errors.map((e) => [e.line, e.column])).toEqual([
      [3, 'film'],
      [3, 'date'],
      [3, 'time'],
      [3, 'price'],
      [3, 'bookingFee'],
      [4, 'screen'],
      [4, 'ticketType'],
      [4, 'price'],
    ]);
    expect(r.errors.find((e) => e.line === 3 && e.column === 'date')!.message).toBe(
      '"2025-02-30" is not a date: write it as yyyy-MM-dd, for example 2025-03-31',
    );
    expect(r.errors.find((e) => e.line === 3 && e.column === 'price')!.message).toContain('at most two decimals');
    expect(r.errors.find((e) => e.line === 4 && e.column === 'price')!.message).toBe(
      'The price must be more than ₦0.00',
    );
  });

  it('checks rows against each other: one title per film, one film per screen and time, a ticket type once per show', () => {
    const r = checkProgrammeFile(
      file(
        'Dune 2,DUNE: PART TWO,12A,Screen 1,2025-03-31,19:30,Adult,4500,200',
        'dune 2,DUNE 2,15,Screen 2,2025-03-31,19:30,Adult,4500,200',
        'Inside Out 2,INSIDE OUT 2,PG,screen 1,2025-03-31,19:30,Adult,3500,',
        'Dune 2,DUNE: PART TWO,12A,Screen 1,2025-03-31,19:30,adult,4000,200',
      ),
    );
    expect(r.programme).toBeNull();
    expect(r.errors).toEqual([
      { line: 3, column: 'title', message: 'Line 2 gives Dune 2 the title "DUNE: PART TWO": one film has one title' },
      { line: 3, column: 'rating', message: 'Line 2 gives Dune 2 the rating "12A": one film has one rating' },
      {
        line: 4,
        column: 'film',
        message: 'Line 2 has Dune 2 on Screen 1 at 2025-03-31 19:30: one screen shows one film at a time',
      },
      { line: 5, column: 'ticketType', message: 'Line 2 already has the ticket type adult for this show' },
    ]);
  });

  it('refuses a file it cannot read as a whole: missing columns, semicolons, no rows, an unclosed quote', () => {
    expect(checkProgrammeFile('film,title,date,time,price\r\nx,y,2025-01-01,10:00,1').errors[0]).toMatchObject({
      line: 1,
      column: 'screen,ticketType',
    });
    expect(checkProgrammeFile('film;title;screen;date;time;ticketType;price\r\n').errors[0]!.message).toContain(
      'separated by semicolons',
    );
    expect(checkProgrammeFile(HEADER).errors[0]!.message).toBe('The file has no rows below the first line');
    expect(checkProgrammeFile('').errors[0]!.message).toContain('The file is empty');
    const unclosed = checkProgrammeFile(file('Dune 2,"DUNE,12A,Screen 1,2025-03-31,19:30,Adult,4500,200'));
    expect(unclosed.programme).toBeNull();
    expect(unclosed.errors[0]).toMatchObject({ line: 2, column: '' });
    expect(
      checkProgrammeFile(file('Dune 2,DUNE,12A,Screen 1,2025-03-31,19:30,Adult,4,500,200')).errors[0],
    ).toMatchObject({ line: 2, column: '' });
  });

  it('a file over the row limit is refused at the first line past it, as a top-up batch is', () => {
    const rows = Array.from(
      { length: 5_001 },
      (_, i) =>
        `Dune 2,DUNE,12A,Screen 1,2025-03-31,${String(10 + (Math.floor(i / 60) % 14)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')},Adult,4500,`,
    );
    const r = checkProgrammeFile(file(...rows));
    expect(r.programme).toBeNull();
    expect(r.totalRows).toBe(5_001);
    expect(r.errors).toEqual([
      {
        line: 5_002,
        column: '',
        message: 'A programme has at most 5,000 rows; this file has 5,001. Split it by week.',
      },
    ]);
  });

  it('the template it offers imports as it is', () => {
    const r = checkProgrammeFile(programmeTemplate('2025-03-31'));
    expect(r.errors).toEqual([]);
    expect(r.programme!.shows).toHaveLength(2);
  });
});
