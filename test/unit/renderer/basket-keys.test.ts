// The basket's keys as pure rules: `2a1c` gives the seats their ticket types in seat order, the
// pad finds an entry by code, number or name, `+`/`-` change a line's quantity (and `-` at 1
// removes it), a combo asks its choice by key, and the engine's problems go to their line.
import { describe, expect, it } from 'vitest';
import { DEMO_CATALOGUE } from '../../../shared/catalogue';
import type { ShowView } from '../../../shared/programme';
import {
  addLine,
  basketOf,
  changeQuantity,
  choose,
  nextChoice,
  onlyTender,
  padEntries,
  padFind,
  parseTypeKeys,
  placeProblems,
  tenderOf,
  typeKeysOf,
  typesInWords,
} from '../../../renderer/src/stores/basket-keys';

const SHOW = {
  filmName: 'Dune 2',
  filmTitle: 'DUNE: PART TWO',
  date: '2026-12-07',
  time: '19:30',
  ticketTypes: [
    { name: 'Adult', priceKobo: 450_000, bookingFeeKobo: 20_000 },
    { name: 'Child', priceKobo: 300_000, bookingFeeKobo: 20_000 },
    { name: 'Student', priceKobo: 350_000, bookingFeeKobo: 20_000 },
    { name: 'Senior', priceKobo: 300_000, bookingFeeKobo: 20_000 },
  ],
} as unknown as ShowView;

describe('ticket types in a few keys', () => {
  it('2a1c gives 2 Adult then 1 Child, in seat order', () => {
    expect(parseTypeKeys('2a1c', SHOW, 3, 'Adult')).toEqual({ ok: true, types: ['Adult', 'Adult', 'Child'] });
  });

  it('a count left out is 1; spaces, capitals and whole names are read the same', () => {
    expect(parseTypeKeys('a C', SHOW, 2, 'Adult')).toEqual({ ok: true, types: ['Adult', 'Child'] });
    expect(parseTypeKeys('1 child 1 ADULT', SHOW, 2, 'Adult')).toEqual({ ok: true, types: ['Child', 'Adult'] });
  });

  it('seats the keys leave over keep the type chosen above; nothing typed is all of it', () => {
    expect(parseTypeKeys('1c', SHOW, 3, 'Adult')).toEqual({ ok: true, types: ['Child', 'Adult', 'Adult'] });
    expect(parseTypeKeys('', SHOW, 2, 'Child')).toEqual({ ok: true, types: ['Child', 'Child'] });
  });

  it('two types with the same first letter need one more letter, and the message says so', () => {
    const r = parseTypeKeys('2s', SHOW, 2, 'Adult');
    expect(r).toEqual({ ok: false, message: '“s” could be Student or Senior: type more letters' });
    expect(parseTypeKeys('1st1se', SHOW, 2, 'Adult')).toEqual({ ok: true, types: ['Student', 'Senior'] });
  });

  it('more tickets than seats, an unknown letter, 0 or stray characters are refused with what to do', () => {
    expect(parseTypeKeys('2a2c', SHOW, 3, 'Adult')).toEqual({
      ok: false,
      message: '4 tickets typed for 3 seats: pick more seats or type fewer',
    });
    expect(parseTypeKeys('2x', SHOW, 2, 'Adult')).toMatchObject({
      ok: false,
      message: expect.stringContaining('No ticket type starts with “x”'),
    });
    expect(parseTypeKeys('0a', SHOW, 2, 'Adult')).toMatchObject({ ok: false });
    expect(parseTypeKeys('2a,', SHOW, 2, 'Adult')).toMatchObject({ ok: false });
  });

  it('a seat set on the row of seats writes the keys back (shortest letters), and the words say the counts', () => {
    const types = ['Adult', 'Adult', 'Student', 'Child'];
    const keys = typeKeysOf(types, SHOW);
    expect(keys).toBe('2a1st1c');
    expect(parseTypeKeys(keys, SHOW, 4, 'Adult')).toEqual({ ok: true, types });
    expect(typesInWords(types)).toBe('2 Adult, 1 Student, 1 Child');
  });
});

describe('the concessions pad', () => {
  const entries = padEntries(DEMO_CATALOGUE);

  it('numbers the items then the combos from 1', () => {
    expect(entries.map((e) => `${e.position} ${e.code}`)).toEqual([
      '1 POPS',
      '2 POPL',
      '3 FANTA',
      '4 COKE',
      '5 WATER',
      '6 NACHO',
      '7 CMB1',
    ]);
  });

  it('finds by code (any case), then by number, then codes that start so, then words of the name', () => {
    expect(padFind(entries, 'popl')[0]?.code).toBe('POPL');
    expect(padFind(entries, '5')[0]?.code).toBe('WATER');
    expect(padFind(entries, 'pop').map((e) => e.code)).toEqual(['POPS', 'POPL', 'CMB1']);
    expect(padFind(entries, 'wat')[0]?.code).toBe('WATER');
    expect(padFind(entries, 'combo pop')[0]?.code).toBe('CMB1');
    expect(padFind(entries, 'zzz')).toEqual([]);
  });

  it('an item added twice is one line of 2; + and - change the quantity; - at 1 removes the line', () => {
    let { lines } = addLine([], 'WATER', DEMO_CATALOGUE);
    const again = addLine(lines, 'WATER', DEMO_CATALOGUE);
    expect(again).toEqual({ lines: [{ code: 'WATER', quantity: 2, choices: {} }], selected: 0 });
    lines = changeQuantity(again.lines, 0, 1);
    expect(lines[0]?.quantity).toBe(3);
    lines = changeQuantity(changeQuantity(changeQuantity(lines, 0, -1), 0, -1), 0, -1);
    expect(lines).toEqual([]);
  });

  it('a quantity stops at 99', () => {
    let lines = [{ code: 'WATER', quantity: 98, choices: {} }];
    lines = changeQuantity(changeQuantity(lines, 0, 1), 0, 1);
    expect(lines[0]?.quantity).toBe(99);
  });

  it('a combo is a line of its own each time, and asks its choice with the items by key', () => {
    const one = addLine([], 'CMB1', DEMO_CATALOGUE);
    const two = addLine(one.lines, 'CMB1', DEMO_CATALOGUE);
    expect(two.lines).toHaveLength(2);
    const ask = nextChoice(two.lines, 1, DEMO_CATALOGUE);
    expect(ask).toEqual({
      line: 1,
      component: 'Drink',
      options: [
        { key: '1', code: 'FANTA', name: 'Fanta 50cl', soldOut: false },
        { key: '2', code: 'COKE', name: 'Coke 50cl', soldOut: false },
        { key: '3', code: 'WATER', name: 'Water 75cl', soldOut: false },
      ],
    });
    const chosen = choose(two.lines, 1, 'Drink', 'FANTA');
    expect(chosen[1]?.choices).toEqual({ Drink: 'FANTA' });
    expect(nextChoice(chosen, 1, DEMO_CATALOGUE)).toBeNull();
    expect(nextChoice(chosen, 0, DEMO_CATALOGUE)?.component).toBe('Drink');
  });
});

describe('the tender and the basket sent', () => {
  it('card needs nothing typed; cash and split need the cash, read as naira', () => {
    expect(tenderOf({ kind: 'card', cash: '' })).toEqual({ tender: { kind: 'card' } });
    expect(tenderOf({ kind: 'cash', cash: '' })).toEqual({ missing: 'Type the cash tendered' });
    expect(tenderOf({ kind: 'cash', cash: '6,000' })).toEqual({ tender: { kind: 'cash', tenderedKobo: 600_000 } });
    expect(tenderOf({ kind: 'split', cash: '5000' })).toEqual({ tender: { kind: 'split', cashKobo: 500_000 } });
    expect(tenderOf({ kind: 'split', cash: 'abc' })).toMatchObject({ missing: expect.any(String) });
  });

  it('the basket names the show, each seat with its type, the lines and the tender', () => {
    const basket = basketOf(
      { show: SHOW, seats: ['F7', 'F8', 'F9'], types: ['Adult', 'Adult', 'Child'] },
      [{ code: 'CMB1', quantity: 1, choices: { Drink: 'FANTA' } }],
      { kind: 'split', cashKobo: 500_000 },
    );
    expect(basket).toEqual({
      tickets: {
        filmName: 'Dune 2',
        filmTitle: 'DUNE: PART TWO',
        showDate: '2026-12-07',
        showTime: '19:30',
        seats: [
          { seat: 'F7', ticketType: 'Adult' },
          { seat: 'F8', ticketType: 'Adult' },
          { seat: 'F9', ticketType: 'Child' },
        ],
      },
      concessions: [{ code: 'CMB1', quantity: 1, choices: { Drink: 'FANTA' } }],
      tender: { kind: 'split', cashKobo: 500_000 },
    });
    expect(basketOf(null, [{ code: 'WATER', quantity: 2, choices: {} }], { kind: 'card' }).tickets).toBeUndefined();
  });

  it("the engine's problems go to their seat, their line, the tender or the basket", () => {
    const placed = placeProblems([
      { path: ['tickets', 'seats', 2, 'ticketType'], message: 'Seat F9: no type' },
      { path: ['concessions', 1, 'choices', 'Drink'], message: 'choose the Drink' },
      { path: ['tender', 'tenderedKobo'], message: 'short' },
      { path: [], message: 'empty' },
    ]);
    expect(placed.seats.get(2)).toEqual(['Seat F9: no type']);
    expect(placed.lines.get(1)).toEqual(['choose the Drink']);
    expect(placed.tender).toEqual(['short']);
    expect(placed.basket).toEqual(['empty']);
    expect(onlyTender([{ path: ['tender', 'cashKobo'] }])).toBe(true);
    expect(onlyTender([{ path: ['tender'] }, { path: ['concessions', 0] }])).toBe(false);
    expect(onlyTender([])).toBe(false);
  });
});
