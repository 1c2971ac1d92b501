// The seat race of bench:hub alone, on a Hub in this process (PGlite in memory): for a quick look.
// Usage: tsx test/bench/hub/seat-race-alone.ts
import { startTestHub } from '../../hub/helpers/hub-harness';
import { seatRaceBench } from './seat-race-bench';

void (async () => {
  const hub = await startTestHub({ rateLimits: { perCredential: 100_000, perAddress: 100_000 } });
  try {
    const f = await seatRaceBench(hub, { log: (s) => console.log(s) });
    console.log(JSON.stringify(f));
  } finally {
    await hub.stop();
  }
})();
