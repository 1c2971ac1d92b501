// The Demo programme: a programme the counter accepts, whose Screen 1 is the example layout of the
// repository (one file, one truth: examples/layouts/screen-1.json).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_SCREEN_1_LAYOUT, demoProgramme } from '../../../shared/demo-programme';
import { ProgrammeSchema } from '../../../shared/programme';
import { checkLayoutFile } from '../../../shared/seat-layout';

describe('the Demo programme', () => {
  it('Screen 1 is examples/layouts/screen-1.json', () => {
    const file: unknown = JSON.parse(readFileSync(join(__dirname, '../../../examples/layouts/screen-1.json'), 'utf8'));
    expect(DEMO_SCREEN_1_LAYOUT).toEqual(file);
  });

  it('is a programme the counter accepts, with a layout for Screen 1 and a VIP ticket type for its VIP zone', () => {
    const p = demoProgramme('2026-11-27', '2026-11-28');
    expect(ProgrammeSchema.safeParse(p).success).toBe(true);
    const layout = checkLayoutFile(p.layouts![0]);
    expect(layout).toMatchObject({ kind: 'ok', layout: { screen: 'Screen 1' } });
    for (const s of p.shows.filter((x) => x.screen === 'Screen 1'))
      expect(s.ticketTypes.map((t) => t.name)).toContain('VIP');
  });
});
