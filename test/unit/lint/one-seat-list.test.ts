// One seat-list reading (issue 37, "two seat truths"): how seats are separated and what a seat's
// name looks like are written once, in shared/seat-list.ts. This reads every source file of the
// counter, its screens, the Hub and its dashboard and fails on a seat separator (a character class
// with white space and a comma or semicolon, as in /[\s,;]+/), a seat-name pattern written again, or
// a sale's seats split by hand (`seats.split(',')`).
// The detector is itself tested on the copies that were there before.
import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from '../../helpers/import-graph';

const ROOT = resolve(__dirname, '../../..');
const ROOMS = ['shared', 'core', 'hub', 'renderer/src', 'electron', 'browser-shell', 'integrations', 'sandbox'];
const HOME = 'shared/seat-list.ts';

const RULES: { what: string; re: RegExp }[] = [
  // A class (not negated) of white space with a comma or a semicolon: [\s,], [,\s;], [\\s,;] in SQL text.
  {
    what: 'a seat separator',
    re: /\[(?!\^)(?=[^\]\s'"]*\\{1,2}s)(?=[^\]\s'"]*[,;])[^\]\s'"]*\]/g,
  },
  { what: 'a seat-name pattern', re: /\[A-Z\]\{1,3\}\s*(?:\[0-9\]|\\d)\{1,3\}|\[A-Z0-9\]\{1,8\}/g },
  // A list of seats split by hand ("F7,F8".split(',')): seatList reads it.
  { what: 'a seat list split by hand', re: /\b(?:seats|picked)\s*\.split\(/gi },
];

export function seatListCopies(src: string): string[] {
  return RULES.flatMap(({ what, re }) => [...src.matchAll(re)].map((m) => `${what}: ${m[0]}`));
}

describe('one seat-list reading', () => {
  it.each([
    ['hub/store/programme.ts seatList', '.split(/[\\s,;]+/)'],
    ['shared/programme.ts tidySeats', '.split(/[\\s,]+/)'],
    ['the seat map’s typed seats', "typed.toUpperCase().replace(/\\s*-\\s*/g, '-').split(/[\\s,]+/)"],
    ['the Hub’s SQL', "regexp_split_to_array(upper(o.seats), '[\\\\s,;]+')"],
    ['the order swapped', '.split(/[,\\s]+/)'],
    ['a seat id pattern', 'const SEAT_ID_RE = /^[A-Z]{1,3}[0-9]{1,3}$/;'],
    ['a seat label pattern', 'const SEAT_RE = /^[A-Z0-9]{1,8}$/;'],
    ['the order detail’s seats', "['Seats', s.seats.split(',').join(', ')],"],
    ['the seat map’s picked seats', "picked={picked.split(',').filter(Boolean)}"],
  ])('the detector finds %s', (_name, code) => {
    expect(seatListCopies(code)).not.toEqual([]);
  });

  it.each([
    ['words split at spaces', 'query.toLowerCase().split(/\\s+/)'],
    ['a negated class', String.raw`([^\s"'\\,;&)}\]]+)`],
    ['an array of a regex and a string', "[/₦\\s?/g, 'N'],"],
    ['a range of seats', '/^([A-Z]{1,3})(\\d{1,3})-(?:([A-Z]{1,3}))?(\\d{1,3})$/'],
    ['a list of counters', "counterIds: ids.split(',')"],
  ])('and leaves alone %s', (_name, code) => {
    expect(seatListCopies(code)).toEqual([]);
  });

  it(`no source file but ${HOME} writes how seats are separated or named`, () => {
    const offenders: string[] = [];
    for (const room of ROOMS) {
      for (const file of sourceFiles(join(ROOT, room))) {
        if (relative(ROOT, file) === HOME) continue;
        for (const hit of seatListCopies(readFileSync(file, 'utf8'))) offenders.push(`${relative(ROOT, file)}: ${hit}`);
      }
    }
    expect(offenders, `Use seatList, tidySeats, splitSeats, SEAT_ID_RE or SEAT_LABEL_RE of ${HOME}`).toEqual([]);
  });
});
