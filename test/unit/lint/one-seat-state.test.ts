// One seat-state model (issue 37, "two seat truths"): a seat's state (free, held, sold, blocked),
// which of two sales of a seat a map shows (sold beats held), a seat's spoken name and the legend's
// words are written once, in shared/seat-state.ts, and both seat maps draw from it: the counter's
// (renderer/src) and the Hub dashboard's (hub/dashboard/src). This reads every source file of both
// UIs and fails on a seat-state type or a precedence written there again. The detector is itself
// tested on the copies that were there before.
import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from '../../helpers/import-graph';

const ROOT = resolve(__dirname, '../../..');
const UIS = ['renderer/src', 'hub/dashboard/src'];
const HOME = 'shared/seat-state.ts';

const RULES: { what: string; re: RegExp }[] = [
  // A type of its own: a union of the seat states ('free' | 'held' | 'sold' | 'blocked', any two of them).
  { what: 'a seat-state type', re: /'(?:free|held|sold|blocked)'\s*\|\s*'(?:free|held|sold|blocked)'/g },
  // The precedence: a seat's state compared with 'sold' ("sold beats held").
  { what: 'a seat-state precedence', re: /[!=]==\s*'sold'|'sold'\s*[!=]==/g },
  // The spoken name of a seat ("A1, wheelchair place, free").
  { what: "a seat's spoken name", re: /'(?:wheelchair place|companion seat)'/g },
];

export function seatStateCopies(src: string): string[] {
  return RULES.flatMap(({ what, re }) => [...src.matchAll(re)].map((m) => `${what}: ${m[0]}`));
}

describe('one seat-state model', () => {
  it.each([
    ['the counter’s SeatState', "export type SeatState = 'free' | 'held' | 'sold' | 'blocked';"],
    ['the dashboard’s row type', "  state: 'held' | 'sold';"],
    [
      'the counter’s sold beats held',
      "if (!before || (before.state === 'held' && t.state === 'sold')) out.set(t.seat, t);",
    ],
    [
      'the dashboard’s sold beats held',
      "for (const t of taken) if (!byId.has(t.seat) || t.state === 'sold') byId.set(t.seat, t);",
    ],
    [
      'a spoken name',
      "const kind = [seat.wheelchair ? 'wheelchair place' : null, seat.companion ? 'companion seat' : null]",
    ],
  ])('the detector finds %s', (_name, code) => {
    expect(seatStateCopies(code)).not.toEqual([]);
  });

  it.each([
    ['a seat held by this counter', "look.state === 'free' || (look.mine && look.state === 'held')"],
    ['the holds to release', "taken.filter((t) => t.state === 'held')"],
    ['a paid order said as sold', "{c.state === 'paid' ? 'sold' : 'being paid for'}"],
    ['the legend drawn', '{seatLegend(layout).map((e) => e.label)}'],
  ])('and leaves alone %s', (_name, code) => {
    expect(seatStateCopies(code)).toEqual([]);
  });

  it(`no file of either UI writes a seat state, its precedence or a seat's spoken name (${HOME} does)`, () => {
    const offenders: string[] = [];
    for (const ui of UIS)
      for (const file of sourceFiles(join(ROOT, ui)))
        for (const hit of seatStateCopies(readFileSync(file, 'utf8')))
          offenders.push(`${relative(ROOT, file)}: ${hit}`);
    expect(offenders, `Draw the seats with seatLook, seatName, takenBySeat, seatLegend of ${HOME}`).toEqual([]);
  });

  it(`${HOME} itself is what the detector looks for`, () => {
    expect(seatStateCopies(readFileSync(join(ROOT, HOME), 'utf8'))).not.toEqual([]);
  });
});
