// seats.holdP95Ms: a sale's seat hold through the Hub, as the checkout asks it (the counter link's
// hubSeatHolds over its real Hub client, loopback HTTP, a Hub on PGlite in this process), one hold
// of 2 seats per sale of a programme show with a seat map, one after the other (each released after,
// unmeasured: a counter holds at most 100 seats at once). Its floor, same run, same Hub, same client: the counter's
// authenticated `GET /me` (the credential check and one committed write), so the figure is also
// stated as a ratio to what any counter call to this Hub costs here.
import { createHubClient, type HubConnection } from '../../core/hub-link';
import { hubSeatHolds } from '../../core/hub-link/link-seat-holds';
import { memoryLogger } from '../../shared/logger';
import { showKey } from '../../shared/programme';
import { z } from 'zod';
import { HUB_SEATS_SETTLE_PATH, SeatSettleResponseSchema } from '../../shared/hub-seats-contract';
import { enroll, startTestHub } from '../hub/helpers/hub-harness';
import { plainLayout, programmeWithSeatMap } from '../hub/helpers/seat-show';
import { percentile, round } from './bench-stats';

export interface SeatHoldFigures {
  holds: number;
  holdP50Ms: number;
  holdP95Ms: number;
  /** The floor: a counter's GET /me to the same Hub (p95). */
  floorP95Ms: number;
  /** Holds the Hub did not answer `held` (must be 0: every sale asks for free seats). */
  notHeld: number;
}

const SHOW = { filmName: 'Bench', filmTitle: 'BENCH', date: '2026-11-27', time: '18:00', screen: 'Bench' };
const ROWS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

export async function runSeatHoldBench(o: { holds: number; warmup?: number }): Promise<SeatHoldFigures> {
  const hub = await startTestHub({ rateLimits: { perCredential: 1_000_000, perAddress: 1_000_000 } });
  try {
    const e = await enroll(hub, 'Counter 1', 'BENCH');
    // A hold names a programme show with a seat map (26 rows of 50) and seats of it.
    await programmeWithSeatMap(hub.db, 'BENCH', [SHOW], Date.now(), plainLayout(SHOW.screen, 26, 50));
    const conn: HubConnection = { url: hub.url, counterId: e.counterId, credential: e.credential, branch: e.branch };
    const client = createHubClient();
    const holds = hubSeatHolds({ connection: () => conn, client, logger: memoryLogger(), holdMs: () => 420_000 });
    const seat = (i: number) => `${ROWS[Math.floor(i / 50) % 26]!}${(i % 50) + 1}`;
    const me = z.object({ counterId: z.string() });
    const lat: number[] = [];
    const floor: number[] = [];
    let notHeld = 0;
    const warm = o.warmup ?? 20;
    for (let i = 0; i < warm + o.holds; i++) {
      // Alternated, so a busy moment of the machine hits both alike.
      const f0 = performance.now();
      await client.call(conn, 'GET', '/me', undefined, me);
      const f = performance.now() - f0;
      const t0 = performance.now();
      const r = await holds.hold({
        orderKey: `COU1-261127-${String(i + 1).padStart(4, '0')}`,
        showKey: showKey(SHOW),
        show: SHOW,
        seats: [seat(2 * i), seat(2 * i + 1)],
        practice: false,
      });
      const t = performance.now() - t0;
      // Released before the next one (not measured): a counter holds at most 100 seats at once.
      await client.call(
        conn,
        'POST',
        HUB_SEATS_SETTLE_PATH,
        { orderKey: `COU1-261127-${String(i + 1).padStart(4, '0')}`, outcome: 'released' },
        SeatSettleResponseSchema,
      );
      if (i < warm) continue;
      floor.push(f);
      lat.push(t);
      if (r.kind !== 'held') notHeld += 1;
    }
    return {
      holds: lat.length,
      holdP50Ms: round(percentile(lat, 50)),
      holdP95Ms: round(percentile(lat, 95)),
      floorP95Ms: round(percentile(floor, 95)),
      notHeld,
    };
  } finally {
    await hub.stop();
  }
}
