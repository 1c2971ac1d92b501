// "Best N seats": N free seats side by side in one row, the best row (about two-thirds back) first,
// centred in it; never blocked, wheelchair places only when asked, one zone. Checked against the
// example screen and, as properties, against a brute-force search over random layouts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bestSeats, rowPreference, type BestSeatsOptions } from '../../../shared/best-seats';
import { parseLayout } from '../../../shared/seat-layout';
import type { LayoutCell, LayoutSeat, ScreenLayout } from '../../../shared/seats';

function example(): ScreenLayout {
  const r = parseLayout(
    readFileSync(join(__dirname, '../../../examples/layouts/screen-1.json'), 'utf8'),
    'screen-1.json',
  );
  if (r.kind !== 'ok') throw new Error('the example layout is refused');
  return r.layout;
}
const none = new Set<string>();

describe('bestSeats on the example screen', () => {
  const l = example();

  it('offers the centre of the row two-thirds back when the screen is empty', () => {
    // 15 rows (A..P without I): the 10th, K, is two-thirds back; its centre block of 4 is K9-K12.
    expect(bestSeats(l, none, 4)).toEqual(['K9', 'K10', 'K11', 'K12']);
    expect(bestSeats(l, none, 1)).toEqual(['K10']);
  });

  it('moves off-centre, then to the next best row, as seats are taken', () => {
    expect(bestSeats(l, new Set(['K10']), 4)).toEqual(['K11', 'K12', 'K13', 'K14']);
    const rowK = Array.from({ length: 20 }, (_, i) => `K${i + 1}`);
    // The middle block of K is sold: 4 together are still in K, at its side (the aisle breaks side by side).
    expect(bestSeats(l, new Set(rowK.slice(4, 16)), 4)).toEqual(['K1', 'K2', 'K3', 'K4']);
    // All of K is sold: the next best row.
    expect(bestSeats(l, new Set(rowK), 4)).toEqual(['L9', 'L10', 'L11', 'L12']);
  });

  it('never crosses an aisle, never offers a blocked seat', () => {
    const seats = bestSeats(l, none, 13);
    // No middle block has 13 seats; the back rows O and P have 12 (P has P12 blocked).
    expect(seats).toBeNull();
    const twelve = bestSeats(l, none, 12)!;
    expect(twelve[0]).toMatch(/^[A-O]/);
    expect(twelve).not.toContain('H10');
    expect(twelve).not.toContain('P12');
  });

  it('offers a zone only when asked for it, wheelchair places only when asked', () => {
    expect(bestSeats(l, none, 2, { zone: 'vip' })).toEqual(['M10', 'M11']);
    expect(bestSeats(l, none, 2, { zone: null })).toEqual(['K10', 'K11']);
    expect(bestSeats(l, none, 2, { wheelchair: true })).toEqual(['A1', 'A2']);
    expect(bestSeats(l, none, 2)).not.toContain('A1');
  });
});

// ---- properties against a brute-force search ----

const layoutArb: fc.Arbitrary<ScreenLayout> = fc
  .array(
    fc.array(
      fc.oneof(
        { weight: 1, arbitrary: fc.constant<'gap'>('gap') },
        {
          weight: 6,
          arbitrary: fc.record({
            blocked: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
            flag: fc.constantFrom('', '', '', '', 'w', 'c'),
            zone: fc.constantFrom(null, null, 'vip'),
          }),
        },
      ),
      { minLength: 1, maxLength: 14 },
    ),
    { minLength: 1, maxLength: 10 },
  )
  .map((rows) => {
    const out = rows.map((cells, r) => {
      const row = String.fromCharCode(65 + r);
      let n = 0;
      return {
        row,
        cells: cells.map((c, col): LayoutCell => {
          if (c === 'gap') return { kind: 'gap', col };
          n += 1;
          return {
            kind: 'seat',
            col,
            id: `${row}${n}`,
            number: n,
            blocked: c.blocked,
            wheelchair: c.flag === 'w',
            companion: c.flag === 'c',
            zone: c.zone,
          };
        }),
      };
    });
    const seats = out.flatMap((r) => r.cells).filter((c): c is LayoutSeat => c.kind === 'seat');
    return {
      screen: 'S',
      zones: [{ id: 'vip', name: 'VIP', ticketType: 'VIP' }],
      rows: out,
      width: Math.max(...out.map((r) => r.cells.length)),
      capacity: seats.filter((s) => !s.blocked).length,
    };
  });

const optsArb: fc.Arbitrary<BestSeatsOptions> = fc.record(
  { zone: fc.constantFrom<string | null>(null, 'vip'), wheelchair: fc.boolean() },
  { requiredKeys: [] },
);

/** Every block of n cells of a row that the options allow. */
function blocks(cells: readonly LayoutCell[], taken: ReadonlySet<string>, n: number, o: BestSeatsOptions) {
  const out: { start: number; ids: string[] }[] = [];
  for (let start = 0; start + n <= cells.length; start++) {
    const b = cells.slice(start, start + n);
    if (!b.every((c) => c.kind === 'seat')) continue;
    const s = b as LayoutSeat[];
    if (s.some((x) => x.blocked || taken.has(x.id))) continue;
    if (!o.wheelchair && s.some((x) => x.wheelchair || x.companion)) continue;
    if (o.wheelchair && !s.some((x) => x.wheelchair)) continue;
    if (o.zone !== undefined && s.some((x) => x.zone !== o.zone)) continue;
    if (new Set(s.map((x) => x.zone)).size > 1) continue;
    out.push({ start, ids: s.map((x) => x.id) });
  }
  return out;
}

describe('bestSeats: properties', () => {
  const input = layoutArb.chain((l) => {
    const ids = l.rows.flatMap((r) => r.cells).flatMap((c) => (c.kind === 'seat' ? [c.id] : []));
    return fc.tuple(
      fc.constant(l),
      fc.subarray(ids).map((t) => new Set(t)),
      fc.integer({ min: 1, max: 6 }),
      optsArb,
    );
  });

  it('every answer is N free seats side by side in one row, of one zone, never blocked; null only when no such block exists', () => {
    fc.assert(
      fc.property(input, ([l, taken, n, o]) => {
        const got = bestSeats(l, taken, n, o);
        const exists = l.rows.some((r) => blocks(r.cells, taken, n, o).length > 0);
        if (got === null) {
          expect(exists).toBe(false);
          return;
        }
        expect(got).toHaveLength(n);
        const row = l.rows.find((r) => r.cells.some((c) => c.kind === 'seat' && c.id === got[0]))!;
        const cells = got.map(
          (id) => row.cells.find((c) => c.kind === 'seat' && c.id === id) as LayoutSeat | undefined,
        );
        expect(cells.every(Boolean)).toBe(true); // same row
        const seats = cells as LayoutSeat[];
        seats.forEach((s, i) => i > 0 && expect(s.col).toBe(seats[i - 1]!.col + 1)); // side by side
        expect(seats.some((s) => s.blocked || taken.has(s.id))).toBe(false);
        expect(new Set(seats.map((s) => s.zone)).size).toBe(1);
        if (o.zone !== undefined) expect(seats[0]!.zone).toBe(o.zone);
        if (!o.wheelchair) expect(seats.some((s) => s.wheelchair || s.companion)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('the row is the best that has a block, and the block is the one nearest the row centre', () => {
    fc.assert(
      fc.property(input, ([l, taken, n, o]) => {
        const got = bestSeats(l, taken, n, o);
        fc.pre(got !== null);
        const first = rowPreference(l.rows.length).find((i) => blocks(l.rows[i]!.cells, taken, n, o).length > 0)!;
        const row = l.rows[first]!;
        expect(got![0]!.startsWith(row.row)).toBe(true);
        const centre = (row.cells.length - 1) / 2;
        const dist = (start: number) => Math.abs(start + (n - 1) / 2 - centre);
        const best = Math.min(...blocks(row.cells, taken, n, o).map((b) => dist(b.start)));
        const chosen = (row.cells.find((c) => c.kind === 'seat' && c.id === got![0]) as LayoutSeat).col;
        expect(dist(chosen)).toBe(best);
      }),
      { numRuns: 300 },
    );
  });
});

describe('rowPreference', () => {
  it('puts the row about two-thirds back first, then its neighbours', () => {
    expect(rowPreference(10).slice(0, 3)).toEqual([6, 5, 7]);
    expect(rowPreference(1)).toEqual([0]);
    expect([...rowPreference(7)].sort()).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });
});
