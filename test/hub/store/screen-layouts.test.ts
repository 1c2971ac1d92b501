// The Hub keeps an uploaded layout as the layout file it pushes to counters (layoutFileOf): for any
// layout the rules accept, that file reads back to the very same layout, whether it came as JSON or
// as the CSV shorthand (blocked seats, wheelchair places, companion seats, zones, gaps, leftward
// numbering and a zone after a flag included).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { layoutFileOf } from '../../../hub/store/screen-layouts';
import { checkLayoutFile, parseLayout } from '../../../shared/seat-layout';

const example = (f: string) => readFileSync(join(__dirname, '../../../examples/layouts', f), 'utf8');

const FLAGS = JSON.stringify({
  format: 'counterpay-seat-layout/1',
  screen: 'Hall 3',
  zones: [
    { id: 'vip', name: 'VIP', ticketType: 'VIP' },
    { id: 'sofa', name: 'Sofa', ticketType: 'Sofa' },
  ],
  rows: [
    { row: 'A', seats: '1w 2c _ 3-6 _ 7c:vip 8w:vip' },
    { row: 'B', seats: '10-1' },
    { row: 'C', seats: '1-3 4x 5x _ _ 6-8:sofa' },
  ],
});

describe('a layout kept by the Hub reads back the same', () => {
  it.each([
    ['screen-1.json', example('screen-1.json')],
    ['screen-2.csv', example('screen-2.csv')],
    ['hall-3.json', FLAGS],
  ])('%s', (fileName, text) => {
    const parsed = parseLayout(text, fileName);
    if (parsed.kind !== 'ok') throw new Error(JSON.stringify(parsed.errors.slice(0, 3)));
    const back = checkLayoutFile(JSON.parse(JSON.stringify(layoutFileOf(parsed.layout))));
    expect(back).toEqual({ kind: 'ok', layout: parsed.layout });
  });
});
