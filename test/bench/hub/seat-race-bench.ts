// Seat holds under a race (issue 30): 20 counters of one branch race for a 50-seat show through the
// Hub, each asking for 1 to 4 random seats again and again until every seat is sold (its journal
// synced paid: the only way a seat is sold). A seat the Hub
// answered `held` to two sales is sold twice (raceDoubleSold: must be 0); every seat must end
// sold (the race ran to its end), and the Hub's map must agree with the sales it held.
import type { HubSeatMap, SeatHoldResponse } from '../../../shared/hub-seats-contract';
import type { Programme } from '../../../shared/programme';
import type { LayoutFile } from '../../../shared/seats';
import { CounterJournal } from '../../hub/helpers/dashboard-client';
import { plainLayout, programmeOf, soldInJournal } from '../../hub/helpers/seat-show';
import { ADMIN_TOKEN, bearer, get, post } from '../../hub/helpers/hub-harness';
import { percentile, round } from '../bench-stats';

export interface SeatRaceFigures {
  /** Seats the Hub held for two sales: must be 0. */
  raceDoubleSold: number;
  raceSold: number;
  raceTries: number;
  /** A hold's round trip under the race (p95, ms): for the record, not a target. */
  raceHoldP95Ms: number;
}

const SHOW = { filmName: 'Race', filmTitle: 'RACE', date: '2026-11-27', time: '20:00', screen: 'Race' };
const SEATS = ['A', 'B', 'C', 'D', 'E'].flatMap((r) => Array.from({ length: 10 }, (_, i) => `${r}${i + 1}`));

/** The show's programme and the Race screen's layout (5 rows of 10), as its branch SEATS has them: a hold names a programme show with a seat map. */
export const RACE_PROGRAMME: Programme = programmeOf([SHOW]);
export const RACE_LAYOUT: LayoutFile = plainLayout(SHOW.screen, 5, 10);

export async function seatRaceBench(
  hub: { url: string },
  o: {
    counters?: number;
    log: (s: string) => void;
    /** Sets the branch's programme and layout on the Hub under test (its database, or head office's dashboard). */
    seatMap: (branch: string, p: Programme, layout: LayoutFile) => Promise<void>;
  },
): Promise<SeatRaceFigures> {
  const n = o.counters ?? 20;
  o.log(`seats: ${n} counters racing for ${SEATS.length} seats ...`);
  await o.seatMap('SEATS', RACE_PROGRAMME, RACE_LAYOUT);
  const creds: string[] = [];
  for (let i = 0; i < n; i++) {
    const code = await post(
      `${hub.url}/api/v1/admin/enroll-codes`,
      { ttlMinutes: 60, branch: 'SEATS' },
      bearer(ADMIN_TOKEN),
    );
    const e = await post(`${hub.url}/api/v1/enroll`, {
      code: code.json.code,
      counterName: `Seat Racer ${i + 1}`,
      branch: 'SEATS',
      appVersion: '0.1.0',
    });
    if (e.status !== 200) throw new Error(`enroll: ${JSON.stringify(e.json)}`);
    creds.push(String(e.json.credential));
  }
  const journals = creds.map((c) => new CounterJournal(hub.url, c));
  const heldBy = new Map<string, string[]>();
  const lat: number[] = [];
  let tries = 0;
  let k = 0;
  const left = () => SEATS.filter((s) => !heldBy.has(s));
  await Promise.all(
    creds.map(async (cred, i) => {
      // Each counter goes on while it sees free seats (its own view may be stale: the Hub decides).
      for (let misses = 0; left().length && misses < 200;) {
        const free = left();
        const want = 1 + ((i + tries) % 4);
        const start = (i * 7 + tries * 13) % free.length;
        const seats = [...new Set(Array.from({ length: want }, (_, j) => free[(start + j) % free.length]!))];
        const orderKey = `RACE-${i + 1}-${++k}`;
        tries += 1;
        const t0 = performance.now();
        const r = await post(
          `${hub.url}/api/v1/seats/hold`,
          { orderKey, show: SHOW, seats, practice: false, holdMs: 600_000 },
          bearer(cred),
        );
        lat.push(performance.now() - t0);
        if (r.status === 429) continue;
        if (r.status !== 200) throw new Error(`hold: ${r.status} ${JSON.stringify(r.json)}`);
        const a = r.json as unknown as SeatHoldResponse;
        if (a.kind !== 'held') {
          misses += 1;
          continue;
        }
        for (const s of seats) heldBy.set(s, [...(heldBy.get(s) ?? []), orderKey]);
        // Paid: the counter's journal syncs it, which sells the seats (a settle never does).
        const j = journals[i]!;
        await j.sync(soldInJournal(j, orderKey, seats, 'paid', SHOW));
      }
    }),
  );
  const map = (
    await get(
      `${hub.url}/api/v1/seats/map?showKey=${encodeURIComponent(`${SHOW.date} ${SHOW.time} race`)}`,
      bearer(creds[0]!),
    )
  ).json as unknown as HubSeatMap;
  const twice = [...heldBy.values()].filter((orders) => orders.length > 1).length;
  const sold = map.taken.filter((t) => t.state === 'sold').length;
  if (sold !== heldBy.size) o.log(`seats: the Hub's map has ${sold} sold, the race was held ${heldBy.size}`);
  return {
    raceDoubleSold: twice + Math.abs(sold - heldBy.size),
    raceSold: sold,
    raceTries: tries,
    raceHoldP95Ms: round(percentile(lat, 95)),
  };
}
