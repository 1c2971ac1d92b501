// The worst seat layout the limits allow, uploaded to a Hub in this process (PGlite in memory) by
// head office: how long the upload takes (the layout is checked on the Hub's event loop, so nothing
// else is answered meanwhile) and how long parseLayout alone takes, for a few files of 60 rows of
// 2,000 characters each (`1-999 1-999 …` and its kin). Printed, not asserted (docs/seat-maps.md).
// Usage: tsx test/bench/hub/layout-worst-alone.ts
import { parseLayout } from '../../../shared/seat-layout';
import { createManager } from '../../../hub/store/managers';
import { Manager } from '../../hub/helpers/dashboard-client';
import { startTestHub } from '../../hub/helpers/hub-harness';

const rowName = (i: number) => String.fromCharCode(65 + (i % 26)).repeat(1 + Math.floor(i / 26));
const worst = (cell: string) => {
  const seats = Array.from({ length: Math.floor(2_000 / (cell.length + 1)) }, () => cell).join(' ');
  const rows = Array.from({ length: 60 }, (_, i) => ({ row: rowName(i), seats }));
  return JSON.stringify({ format: 'counterpay-seat-layout/1', screen: 'Screen 1', zones: [], rows });
};

void (async () => {
  const hub = await startTestHub();
  try {
    await createManager(
      hub.db,
      { name: 'HO', password: 'manager password 1', role: 'head-office', branch: null },
      hub.ctx.now(),
    );
    const ho = new Manager(hub.url);
    await ho.login('HO', 'manager password 1');
    for (const cell of ['1-999', '999-1', '1-750', '1-500', '1']) {
      const text = worst(cell);
      const parse: number[] = [];
      const upload: number[] = [];
      for (let i = 0; i < 3; i++) {
        let t0 = performance.now();
        parseLayout(text, 'worst.json');
        parse.push(performance.now() - t0);
        t0 = performance.now();
        const r = await ho.post('/screens/layout', { branch: 'B1', text, fileName: 'worst.json' });
        upload.push(performance.now() - t0);
        if (r.status !== 200) throw new Error(`upload answered ${r.status}`);
      }
      const ms = (a: number[]) => a.map((v) => v.toFixed(0)).join(' / ');
      console.log(`${cell.padEnd(5)} ${text.length} chars: parse ${ms(parse)} ms, upload ${ms(upload)} ms`);
    }
  } finally {
    await hub.stop();
  }
})();
