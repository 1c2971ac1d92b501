// The seat race of bench:hub alone, on a Hub in this process (PGlite in memory): for a quick look.
// Usage: tsx test/bench/hub/seat-race-alone.ts
import { setProgramme } from '../../../hub/store/programme';
import { saveLayout } from '../../../hub/store/screen-layouts';
import { checkLayoutFile } from '../../../shared/seat-layout';
import { startTestHub } from '../../hub/helpers/hub-harness';
import { seatRaceBench } from './seat-race-bench';

void (async () => {
  const hub = await startTestHub({ rateLimits: { perCredential: 100_000, perAddress: 100_000 } });
  try {
    const f = await seatRaceBench(hub, {
      log: (s) => console.log(s),
      seatMap: async (branch, p, layout) => {
        await setProgramme(hub.db, branch, p, 'bench', Date.now());
        const l = checkLayoutFile(layout);
        if (l.kind !== 'ok') throw new Error('the race layout does not read');
        await saveLayout(hub.db, branch, l.layout, 'race.json', 'bench', Date.now());
      },
    });
    console.log(JSON.stringify(f));
  } finally {
    await hub.stop();
  }
})();
