// Two composed counter cores (Demo profile: each its embedded sandbox over real loopback HTTP, its
// journal on a real SQLite file) enrolled on one real Hub (PGlite in memory, HTTP on loopback), both
// selling one show on Screen 1 with the example layout: a sale on one holds its seats through the
// Hub before its customer is charged, the other is told by its relay stream (seats.changed) and its
// seat map shows them held at Counter 1, then sold once paid; the other counter's sale of a held
// seat ends failed before the provider is asked (its sandbox never gets the order).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HubLinkView } from '../../../shared/hub-link';
import type { NextShows } from '../../../shared/programme';
import type { SeatMapView } from '../../../shared/seats';
import { issueCode, startTestHub, type TestHub } from '../../hub/helpers/hub-harness';
import { orderReaches } from '../../helpers/core-events';
import {
  attempt,
  call,
  pay,
  programmeSale,
  seatCounter,
  stopSeatCounters,
  type SeatEnv,
} from '../../helpers/seat-counter';

const seatMap = (env: SeatEnv) => call<SeatMapView>(env.core, 'seats.map', { showId: env.showId });

/** Resolves once the core's seat map of its show passes `ok`, asked again on each seats.changed. */
function mapReaches(env: SeatEnv, ok: (m: SeatMapView) => boolean): Promise<SeatMapView> {
  return new Promise((resolve, reject) => {
    let done = false;
    const check = () =>
      void seatMap(env).then((m) => {
        if (done || !ok(m)) return;
        done = true;
        off();
        resolve(m);
      }, reject);
    const off = env.core.events.subscribe((name) => {
      if (name === 'seats.changed') check();
    });
    check();
  });
}

describe('two counters, one Hub, one screen', () => {
  let hub: TestHub;
  let A: SeatEnv;
  let B: SeatEnv;

  beforeAll(async () => {
    hub = await startTestHub();
    A = await seatCounter();
    B = await seatCounter();
    // Both sell the very same show (the helper's show is an hour ahead, to the minute: make B's A's).
    const csv = [
      'film,title,rating,screen,date,time,ticketType,price,bookingFee',
      `Dune 2,DUNE: PART TWO,12A,Screen 1,${A.date},${A.time},Adult,1500,500`,
      `Dune 2,DUNE: PART TWO,12A,Screen 1,${A.date},${A.time},VIP,3000,500`,
    ].join('\n');
    await call(B.core, 'programme.import', { csv, fileName: 'week.csv', by: 'Ada' });
    B.showId = (await call<NextShows>(B.core, 'programme.next', {})).shows[0]!.id;
    const branches = new Set<string>();
    for (const [env, name] of [
      [A, 'Counter 1'],
      [B, 'Counter 2'],
    ] as const) {
      const p = await call<{ settings: Record<string, unknown> }>(env.core, 'settings.getProfile', { profile: 'demo' });
      await call(env.core, 'settings.saveProfile', { profile: 'demo', settings: { ...p.settings, counterName: name } });
      const v = await call<HubLinkView>(env.core, 'hub.enroll', { hubUrl: hub.url, code: await issueCode(hub) });
      branches.add(v.branch!);
    }
    expect(branches.size).toBe(1);
  }, 120_000);
  afterAll(async () => {
    await stopSeatCounters();
    await hub?.stop();
  });

  it('a seat held at one counter shows held at the other, and its sale there fails before the provider is asked', async () => {
    const a = await attempt(() => programmeSale(A, ['F7', 'F8']));
    if (!('order' in a)) throw new Error(`Counter 1's sale was refused: ${a.message}`);
    const seen = await mapReaches(B, (m) => m.taken.some((t) => t.seat === 'F7'));
    expect(seen.source.kind).toBe('hub');
    expect(seen.taken.filter((t) => ['F7', 'F8'].includes(t.seat))).toEqual([
      { seat: 'F7', state: 'held', counterName: 'Counter 1', mine: false },
      { seat: 'F8', state: 'held', counterName: 'Counter 1', mine: false },
    ]);
    // Counter 2's sale of F8 is recorded and ends failed, its customer never charged.
    const b = await programmeSale(B, ['F8', 'F9']);
    // The hold is answered before the charge call returns: the sale comes back failed already.
    const failed = b.state === 'failed' ? b : await orderReaches(B.core, b.id, 'failed');
    expect(failed.seatHold).toMatchObject({ outcome: 'taken', seats: ['F8', 'F9'] });
    expect(failed.reason).toMatch(/F8 was just taken at Counter 1/);
    expect([...B.created.keys()]).toEqual([]);
    // Paid at Counter 1: sold, at Counter 2 too.
    await pay(A, a.order);
    const sold = await mapReaches(B, (m) => m.taken.some((t) => t.seat === 'F7' && t.state === 'sold'));
    expect(sold.taken.find((t) => t.seat === 'F8')).toMatchObject({ state: 'sold', counterName: 'Counter 1' });
    // F9 was not held by the refused sale.
    expect(sold.taken.some((t) => t.seat === 'F9')).toBe(false);
  });
});
