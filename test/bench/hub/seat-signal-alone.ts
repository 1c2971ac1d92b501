// The seats signal under a burst of holds, on a Hub in this process (PGlite in memory) at the
// default rate per counter (600 a minute, bursts of 120): three counters hold 243 seats of one show
// (81 each, one seat a hold, one after another); a fourth counter of the branch follows its relay
// stream and reads the show's map as the counter app does — `--per-event`: once per `seats` event
// (the app before its re-read was debounced), else at most once per 250 ms at the window's end
// (renderer/src/stores/seat-map-store.ts). Prints the signals its stream got, its reads and the
// reads answered 429. Printed, not asserted (docs/seat-maps.md).
// Usage: tsx test/bench/hub/seat-signal-alone.ts [--per-event]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Programme } from '../../../shared/programme';
import { showKey } from '../../../shared/programme';
import { createManager } from '../../../hub/store/managers';
import { Manager } from '../../hub/helpers/dashboard-client';
import { bearer, enroll, get, post, startTestHub } from '../../hub/helpers/hub-harness';
import { RelayClient } from '../../hub/helpers/sse-client';

const PER_EVENT = process.argv.includes('--per-event');
const REREAD_MS = 250;
const SHOW = { filmName: 'Dune 2', filmTitle: 'DUNE: PART TWO', date: '2026-11-27', time: '19:30', screen: 'Screen 1' };
const KEY = showKey(SHOW);
const LAYOUT = readFileSync(join(__dirname, '../../../examples/layouts/screen-1.json'), 'utf8');
const programme: Programme = {
  films: [{ name: 'Dune 2', title: 'DUNE: PART TWO', rating: '12A' }],
  screens: ['Screen 1'],
  shows: [
    {
      film: 'Dune 2',
      screen: 'Screen 1',
      date: SHOW.date,
      time: SHOW.time,
      ticketTypes: [{ name: 'Adult', priceKobo: 450_000, bookingFeeKobo: 0 }],
    },
  ],
};
/** 243 seats of the example layout (rows A to P, it has no row I; not the blocked ones: the Hub holds only seats of the map). */
const SEATS = 'ABCDEFGHJKLMNOP'
  .split('')
  .flatMap((r) => Array.from({ length: 20 }, (_, i) => `${r}${i + 1}`))
  .filter((s) => !['H10', 'H11', 'P12'].includes(s))
  .slice(0, 243);

void (async () => {
  const hub = await startTestHub();
  const streams: RelayClient[] = [];
  try {
    await createManager(
      hub.db,
      { name: 'HO', password: 'manager password 1', role: 'head-office', branch: null },
      hub.ctx.now(),
    );
    const ho = new Manager(hub.url);
    await ho.login('HO', 'manager password 1');
    await ho.put('/programme', { branch: 'B1', programme });
    await ho.post('/screens/layout', { branch: 'B1', text: LAYOUT, fileName: 'screen-1.json' });
    const holders = await Promise.all(['Counter 1', 'Counter 2', 'Counter 3'].map((n) => enroll(hub, n, 'B1')));
    const victim = await enroll(hub, 'Counter 4', 'B1');
    const s = new RelayClient(hub.url, victim.credential);
    streams.push(s);
    await s.connect();
    let reads = 0;
    let limited = 0;
    let timer: NodeJS.Timeout | null = null;
    const read = async () => {
      reads += 1;
      const r = await get(`${hub.url}/api/v1/seats/map?showKey=${encodeURIComponent(KEY)}`, bearer(victim.credential));
      if (r.status === 429) limited += 1;
    };
    const pendingReads: Promise<void>[] = [];
    let seen = 0;
    const follow = () => {
      for (; seen < s.events.length; seen++) {
        if (s.events[seen]!.event !== 'seats') continue;
        if (PER_EVENT) pendingReads.push(read());
        else
          timer ??= setTimeout(() => {
            timer = null;
            pendingReads.push(read());
          }, REREAD_MS);
      }
    };
    const watching = (async () => {
      for (;;) {
        await s.until(() => s.events.length > seen);
        follow();
      }
    })();
    const t0 = performance.now();
    let held = 0;
    for (const [i, seat] of SEATS.entries()) {
      const who = holders[i % 3]!;
      const code = ['COU1', 'COU2', 'COU3'][i % 3]!;
      const r = await post(
        `${hub.url}/api/v1/seats/hold`,
        {
          orderKey: `${code}-261127-${String(i + 1).padStart(4, '0')}`,
          show: SHOW,
          seats: [seat],
          practice: false,
          holdMs: 600_000,
        },
        bearer(who.credential),
      );
      if (r.status === 200 && r.json.kind === 'held') held += 1;
    }
    const ms = performance.now() - t0;
    // A bench, not a test: the last window's signal and the last re-read come within 3 windows.
    await new Promise((r) => setTimeout(r, 3 * REREAD_MS));
    await Promise.all(pendingReads);
    const signals = s.events.filter((e) => e.event === 'seats').length;
    void watching;
    console.log(
      JSON.stringify({
        mode: PER_EVENT ? 'read per event' : 'read per 250 ms',
        holds: SEATS.length,
        held,
        holdMs: Math.round(ms),
        signals,
        reads,
        reads429: limited,
      }),
    );
  } finally {
    for (const c of streams) await c.disconnect();
    await hub.stop();
    process.exit(0);
  }
})();
