// The layout file (docs/seat-maps.md): JSON and the CSV shorthand read into a checked layout, every
// mistake refused with an error that names the row and the cell and says what to fix; the example
// layouts of the repository read as they are meant to.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseLayout } from '../../../shared/seat-layout';
import type { LayoutError, ScreenLayout } from '../../../shared/seats';

const EXAMPLES = join(__dirname, '../../../examples/layouts');
const json = (rows: { row: string; seats: string }[], extra: Record<string, unknown> = {}) =>
  JSON.stringify({ format: 'counterpay-seat-layout/1', screen: 'Screen 1', zones: [], rows, ...extra });

function ok(text: string, fileName = 'layout.json'): ScreenLayout {
  const r = parseLayout(text, fileName);
  if (r.kind !== 'ok') throw new Error(`refused: ${JSON.stringify(r.errors)}`);
  return r.layout;
}
function errors(text: string, fileName = 'layout.json'): LayoutError[] {
  const r = parseLayout(text, fileName);
  if (r.kind !== 'refused') throw new Error('expected the layout to be refused');
  return r.errors;
}
const seatsOf = (l: ScreenLayout) => l.rows.flatMap((r) => r.cells.filter((c) => c.kind === 'seat'));

describe('parseLayout: JSON', () => {
  it('reads cells left to right: ranges either way, gaps, flags and zones', () => {
    const l = ok(
      json(
        [
          { row: 'A', seats: '1w 2c _ 3-5:vip 6x' },
          { row: 'B', seats: '4-1' },
        ],
        {
          zones: [{ id: 'vip', name: 'VIP', ticketType: 'VIP' }],
        },
      ),
    );
    expect(l.screen).toBe('Screen 1');
    expect(l.rows.map((r) => r.row)).toEqual(['A', 'B']);
    expect(l.rows[0]!.cells.map((c) => (c.kind === 'gap' ? '_' : c.id))).toEqual([
      'A1',
      'A2',
      '_',
      'A3',
      'A4',
      'A5',
      'A6',
    ]);
    expect(l.rows[0]!.cells.map((c) => c.col)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    const a = Object.fromEntries(seatsOf(l).map((s) => [s.id, s]));
    expect(a.A1).toMatchObject({ wheelchair: true, companion: false, blocked: false, zone: null });
    expect(a.A2).toMatchObject({ companion: true, wheelchair: false });
    expect(a.A4).toMatchObject({ zone: 'vip', blocked: false });
    expect(a.A6).toMatchObject({ blocked: true });
    expect(l.rows[1]!.cells.map((c) => (c.kind === 'seat' ? c.number : 0))).toEqual([4, 3, 2, 1]);
    expect(l.width).toBe(7);
    expect(l.capacity).toBe(9); // 10 seats, A6 blocked
  });

  it('refuses a file that is not JSON, with what to do', () => {
    const [e] = errors('{ "format": ', 'screen.json');
    expect(e).toMatchObject({ row: null, cell: null });
    expect(e!.message).toMatch(/not JSON.*CSV shorthand/);
  });

  it('refuses a wrong format, an unknown key, a bad row name, naming the row', () => {
    expect(errors(JSON.stringify({ format: 'x', screen: 'S', rows: [{ row: 'A', seats: '1' }] }))[0]!.message).toMatch(
      /counterpay-seat-layout\/1/,
    );
    expect(errors(json([{ row: 'A', seats: '1' }], { colour: 'red' }))[0]!.message).toMatch(/Remove colour/);
    const [bad] = errors(json([{ row: 'a1', seats: '1-4' }]));
    expect(bad).toMatchObject({ row: 'a1' });
    expect(bad!.message).toMatch(/1 to 3 capital letters/);
  });

  it.each([
    ['an unknown token', 'A', '1-4 7q', '7q', /"7q" is not a cell: write a seat number/],
    ['a seat number twice in a row', 'F', '1-4 3', '3', /seat F3 is written twice/],
    [
      'a range backwards mixed in the row',
      'C',
      '1-5 _ 10-6',
      '10-6',
      /runs right to left but the row is numbered left to right/,
    ],
    ['a seat out of the row order', 'C', '1-5 _ 9 8', '8', /numbered left to right: number the whole row one way/],
    ['a zone not declared', 'D', '1-4:vp', '1-4:vp', /zone "vp" is not declared/],
    ['seat 0', 'E', '0-4', '0-4', /seat numbers start at 1/],
  ])('refuses %s, naming the row and the cell', (_what, row, seats, cell, message) => {
    const errs = errors(json([{ row, seats }]));
    expect(errs).toHaveLength(1);
    expect(errs[0]).toMatchObject({ row, cell });
    expect(errs[0]!.message).toMatch(new RegExp(`^Row ${row}: `));
    expect(errs[0]!.message).toMatch(message);
  });

  it('refuses an empty row, a row twice, too many seats, a layout with nothing to sell', () => {
    expect(
      errors(
        json([
          { row: 'A', seats: '1-4' },
          { row: 'B', seats: ' _ ' },
        ]),
      )[0],
    ).toMatchObject({
      row: 'B',
      cell: null,
      message: expect.stringMatching(/no seats: write its seats/),
    });
    expect(
      errors(
        json([
          { row: 'A', seats: '1-4' },
          { row: 'A', seats: '5-8' },
        ]),
      )[0],
    ).toMatchObject({
      row: 'A',
      message: 'Row A is listed twice: list each row once',
    });
    const big = Array.from({ length: 20 }, (_, i) => ({ row: String.fromCharCode(65 + i), seats: '1-99' }));
    expect(errors(json(big)).at(-1)!.message).toMatch(/1980 seats: at most 1500/);
    expect(errors(json([{ row: 'A', seats: '1x 2x' }]))[0]!.message).toMatch(/Every seat is blocked/);
  });

  it('refuses seat 0 anywhere in a cell: 0, 0-5, and a range ending in 0 (5-0)', () => {
    for (const cell of ['0', '0-5', '5-0', '0x'])
      expect(errors(json([{ row: 'A', seats: `1-4 ${cell}` }])), cell).toEqual([
        { row: 'A', cell, message: expect.stringMatching(/^Row A: seat numbers start at 1 \(write /) },
      ]);
  });

  it('refuses a range past the seat limit before making its seats: the worst file within the limits (60 rows of 1-999 1-999 …) says where', () => {
    const rowName = (i: number) => String.fromCharCode(65 + (i % 26)).repeat(1 + Math.floor(i / 26));
    const seats = Array.from({ length: 333 }, () => '1-999').join(' ');
    const text = json(Array.from({ length: 60 }, (_, i) => ({ row: rowName(i), seats })));
    expect(text.length).toBeGreaterThan(120_000);
    // Row A's second range would be seats 1,000 to 1,998: refused there, and no range after it is
    // expanded (the rows past the limit are not "rows with no seats" either).
    expect(errors(text)).toEqual([
      {
        row: 'A',
        cell: '1-999',
        message: 'Row A: 1-999 takes the layout past 1500 seats: at most 1500 in one screen. Check the ranges (1-200?)',
      },
      {
        row: null,
        cell: null,
        message: expect.stringMatching(/^The layout has \d+ seats: at most 1500 in one screen/),
      },
    ]);
    // Within the limit a range is still checked seat by seat: written twice is said as before.
    expect(errors(json([{ row: 'A', seats: '1-500 1-500' }]))[0]!.message).toBe(
      'Row A: seat A1 is written twice: each seat once per row',
    );
  });

  it('says the file’s limits in words: too many rows, no rows', () => {
    const rows = Array.from({ length: 61 }, (_, i) => ({
      row: `A${String.fromCharCode(65 + (i % 26))}${String.fromCharCode(65 + Math.floor(i / 26))}`.slice(1),
      seats: '1',
    }));
    expect(errors(json(rows))[0]!.message).toBe('The layout has more than 60 rows: at most 60 rows in one screen');
    expect(errors(json([]))[0]!.message).toBe('The layout has no rows: write each row, the front row first');
  });

  it('reports every wrong cell of every row (not just the first)', () => {
    const errs = errors(
      json([
        { row: 'A', seats: '1 ? 3' },
        { row: 'B', seats: '1 2 2 !' },
      ]),
    );
    expect(errs.map((e) => [e.row, e.cell])).toEqual([
      ['A', '?'],
      ['B', '2'],
      ['B', '!'],
    ]);
  });
});

describe('parseLayout: the CSV shorthand', () => {
  it('reads row,seats lines with the screen line and the header, by a .csv name or text that is not JSON', () => {
    const text = 'screen,Screen 2\r\nrow,seats\r\nA,1-3 _ 4w\r\nB,"1-5"\r\n';
    for (const name of ['screen-2.csv', 'layout.txt']) {
      const l = ok(text, name);
      expect(l.screen).toBe('Screen 2');
      expect(l.rows.map((r) => r.row)).toEqual(['A', 'B']);
      expect(l.capacity).toBe(9);
      expect(l.zones).toEqual([]);
    }
  });

  it('takes the screen from the file name when there is no screen line', () => {
    expect(ok('A,1-4\nB,1-4', 'Screen 3.csv').screen).toBe('Screen 3');
  });

  it('refuses a line without a comma, and zones (they come from a JSON file only), naming the row', () => {
    expect(errors('screen,S\nA 1-4', 's.csv')[0]!.message).toMatch(/Line 2: write the row, a comma, then its seats/);
    const [z] = errors('screen,S\nA,1-4:vip', 's.csv');
    expect(z).toMatchObject({ row: 'A', cell: '1-4:vip' });
    expect(z!.message).toMatch(/CSV shorthand has no zones/);
  });
});

describe('the example layouts', () => {
  it('screen-1.json: a real-sized screen with aisles, a VIP zone, wheelchair places with companions and blocked seats', () => {
    const l = ok(readFileSync(join(EXAMPLES, 'screen-1.json'), 'utf8'), 'screen-1.json');
    const seats = seatsOf(l);
    expect(l.screen).toBe('Screen 1');
    expect(l.capacity).toBeGreaterThanOrEqual(300);
    expect(l.capacity).toBeLessThanOrEqual(400);
    expect(l.rows.every((r) => r.cells.some((c) => c.kind === 'gap'))).toBe(true);
    expect(seats.filter((s) => s.zone === 'vip').length).toBeGreaterThan(0);
    expect(seats.filter((s) => s.wheelchair).length).toBeGreaterThan(0);
    expect(seats.filter((s) => s.companion).length).toBe(seats.filter((s) => s.wheelchair).length);
    expect(seats.filter((s) => s.blocked).length).toBeGreaterThan(0);
  });

  it('screen-2.csv: the CSV shorthand example', () => {
    const l = ok(readFileSync(join(EXAMPLES, 'screen-2.csv'), 'utf8'), 'screen-2.csv');
    expect(l.screen).toBe('Screen 2');
    expect(l.capacity).toBe(seatsOf(l).filter((s) => !s.blocked).length);
  });
});

// ---- properties ----

/** A row written from parts: a range either way, single seats, gaps, flags; numbers all one way, each once. */
const rowArb = fc
  .record({
    parts: fc.array(
      fc.record({
        len: fc.integer({ min: 1, max: 8 }),
        flag: fc.constantFrom('', 'x', 'w', 'c'),
        gapAfter: fc.boolean(),
      }),
      {
        minLength: 1,
        maxLength: 5,
      },
    ),
    leftwards: fc.boolean(),
  })
  .map(({ parts, leftwards }) => {
    const total = parts.reduce((n, p) => n + p.len, 0);
    let next = leftwards ? total : 1;
    const cells: string[] = [];
    let blocked = 0;
    for (const p of parts) {
      const from = next;
      const to = leftwards ? next - p.len + 1 : next + p.len - 1;
      next = leftwards ? to - 1 : to + 1;
      cells.push(from === to ? `${from}${p.flag}` : `${from}-${to}${p.flag}`);
      if (p.flag === 'x') blocked += p.len;
      if (p.gapAfter) cells.push('_');
    }
    return { seats: cells.join(' '), total, blocked };
  });

describe('parseLayout: properties', () => {
  it('a well-written layout is read, and its capacity is the seats not blocked', () => {
    fc.assert(
      fc.property(fc.array(rowArb, { minLength: 1, maxLength: 12 }), (rows) => {
        fc.pre(rows.some((r) => r.blocked < r.total));
        const named = rows.map((r, i) => ({ row: String.fromCharCode(65 + i), seats: r.seats }));
        const l = ok(json(named));
        const seats = seatsOf(l);
        expect(seats.length).toBe(rows.reduce((n, r) => n + r.total, 0));
        expect(l.capacity).toBe(seats.filter((s) => !s.blocked).length);
        expect(l.capacity).toBe(rows.reduce((n, r) => n + r.total - r.blocked, 0));
        expect(new Set(seats.map((s) => s.id)).size).toBe(seats.length);
        // Written back as the CSV shorthand, the same layout.
        const csv = ['screen,Screen 1', ...named.map((r) => `${r.row},${r.seats}`)].join('\n');
        expect(ok(csv, 'x.csv')).toEqual(l);
      }),
    );
  });

  it('a cell spoiled by an unknown token is refused, naming its row and the token', () => {
    fc.assert(
      fc.property(
        fc.array(rowArb, { minLength: 1, maxLength: 6 }),
        fc.nat(),
        fc.constantFrom('7q', 'abc', '1--2', '3:VIP', '#', '4wx'),
        (rows, pick, bad) => {
          const named = rows.map((r, i) => ({ row: String.fromCharCode(65 + i), seats: r.seats }));
          const at = pick % named.length;
          named[at] = { ...named[at]!, seats: `${named[at]!.seats} ${bad}` };
          const errs = errors(json(named));
          expect(errs).toContainEqual(expect.objectContaining({ row: named[at]!.row, cell: bad }));
        },
      ),
    );
  });
});
