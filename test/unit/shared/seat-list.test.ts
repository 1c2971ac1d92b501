// The one seat-list reading (shared/seat-list.ts): every separator, case, blanks, seats given twice,
// and the two seat-name patterns (a layout's seat, a sale's label), as the counter, its screens and
// the Hub all read them.
import { describe, expect, it } from 'vitest';
import {
  SEAT_ID_RE,
  SEAT_LABEL_RE,
  SEAT_SEPARATORS_PATTERN,
  seatList,
  splitSeats,
  tidySeats,
} from '../../../shared/seat-list';

describe('seatList: seats typed or recorded', () => {
  it.each([
    ['commas', 'F7,F8,G1'],
    ['commas with spaces', 'F7, F8 ,G1'],
    ['spaces', 'F7 F8  G1'],
    ['semicolons', 'F7;F8; G1'],
    ['tabs and new lines', 'F7\tF8\nG1'],
    ['a mix, blanks before, between and after', ' ,F7;;F8 ,, G1, '],
  ])('splits at %s', (_how, typed) => {
    expect(seatList(typed)).toEqual(['F7', 'F8', 'G1']);
  });

  it('upper-cases, keeps the order, keeps a seat given twice (the caller says whether that is wrong)', () => {
    expect(seatList('g1 f7 F7')).toEqual(['G1', 'F7', 'F7']);
  });

  it('reads nothing as no seats', () => {
    expect(seatList('')).toEqual([]);
    expect(seatList(' , ; ')).toEqual([]);
    expect(seatList(null)).toEqual([]);
    expect(seatList(undefined)).toEqual([]);
  });

  it('leaves a bad label whole, for the caller to name', () => {
    expect(seatList('F7 F-8 ?? AAAA1')).toEqual(['F7', 'F-8', '??', 'AAAA1']);
  });

  it('the pattern the Hub’s SQL splits with is the same rule', () => {
    expect('f7 ,F8;g1'.toUpperCase().split(new RegExp(SEAT_SEPARATORS_PATTERN))).toEqual(['F7', 'F8', 'G1']);
  });
});

describe('tidySeats: the sale form’s seats as typed', () => {
  it.each([
    [' f7  f8,g1 ,', 'F7,F8,G1'],
    ['f7;f8', 'F7,F8'],
    ['F7,F7', 'F7,F7'],
    ['', ''],
  ])('%j -> %j', (typed, tidy) => {
    expect(tidySeats(typed)).toBe(tidy);
  });
});

describe('splitSeats: the sale’s seats at their commas, for validation', () => {
  it('trims and upper-cases each, keeping blanks and duplicates so validation can name them', () => {
    expect(splitSeats('f7, F8 ,g1')).toEqual(['F7', 'F8', 'G1']);
    expect(splitSeats('F7,,F8')).toEqual(['F7', '', 'F8']);
    expect(splitSeats('F7,f7')).toEqual(['F7', 'F7']);
  });

  it('takes a space as part of a label (the sale records commas only)', () => {
    expect(splitSeats('F7 F8')).toEqual(['F7 F8']);
  });
});

describe('seat names', () => {
  it.each(['F7', 'AA12', 'ZZZ999', 'A1'])('%s is a seat of a layout and a sale’s label', (s) => {
    expect(SEAT_ID_RE.test(s)).toBe(true);
    expect(SEAT_LABEL_RE.test(s)).toBe(true);
  });

  it.each(['12', 'SOFA2', '7A', 'AAAA1', 'F1000'])('%s is a sale’s label, not a seat of a layout', (s) => {
    expect(SEAT_ID_RE.test(s)).toBe(false);
    expect(SEAT_LABEL_RE.test(s)).toBe(true);
  });

  it.each(['', 'f7', 'F-7', 'F7 ', 'ABCDEFGH1'])('%j is neither', (s) => {
    expect(SEAT_ID_RE.test(s)).toBe(false);
    expect(SEAT_LABEL_RE.test(s)).toBe(false);
  });
});
