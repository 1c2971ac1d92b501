// Two composed counter cores (Demo profile: each its embedded sandbox over real loopback HTTP, its
// journal on a real SQLite file) enrolled on one real Hub (PGlite in memory, HTTP on loopback), both
// selling one show on Screen 1 with the example layout: a sale on one holds its seats through the
// Hub before its customer is charged, the other is told by its relay stream (seats.changed) and its
// seat map shows them held at Counter 1, then sold once paid; the other counter's sale of a held
// seat ends failed before the provider is asked (its sandbox never gets the order).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HubLinkView } from '../../../shared/hub-link';
import type { NextShows, Programme } from '../../../shared/programme';
import { setProgramme } from '../../../hub/store/programme';
import { saveLayout } from '../../../hub/store/screen-layouts';
import { checkLayoutFile } from '../../../shared/seat-layout';
import type { SeatMapView } from '../../../shared/seats';
import { issueCode, startTestHub, type TestHub } from '../../hub/helpers/hub-harness';
import { orderReaches } from '../../helpers/core-events';
import {
  attempt,
  call,
  LAYOUT,
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

/** Resolves once the core holds the branch's programme from the Hub. */
function hubProgrammeArrives(env: SeatEnv): Promise<void> {
  return new Promise((resolve) => {
    const off = env.core.events.subscribe((name) => {
      if (name !== 'programme.changed') return;
      void call<NextShows>(env.core, 'programme.next', {}).then((n) => {
        if (n.source?.kind !== 'hub') return;
        off();
        resolve();
      });
    });
  });
}

/** The show of the counters' CSV, as head office publishes it on the Hub. */
function programmeOfShow(date: string, time: string): Programme {
  return {
    films: [{ name: 'Dune 2', title: 'DUNE: PART TWO', rating: '12A' }],
    screens: ['Screen 1'],
    shows: [
      {
        film: 'Dune 2',
        screen: 'Screen 1',
        date,
        time,
        ticketTypes: [
          { name: 'Adult', priceKobo: 150_000, bookingFeeKobo: 50_000 },
          { name: 'VIP', priceKobo: 300_000, bookingFeeKobo: 50_000 },
        ],
      },
    ],
  };
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
    // The Hub owns the seat truth: a hold names a show of the branch's programme with a seat map
    // (hub/store/seat-rules.ts). Head office's programme is this show, so each counter takes it from
    // the Hub when its relay stream opens; the show ids are read again once it has.
    const demo = await call<{ settings: { merchantId: string } }>(A.core, 'settings.getProfile', { profile: 'demo' });
    const branch = demo.settings.merchantId;
    await setProgramme(hub.db, branch, programmeOfShow(A.date, A.time), 'Head office', Date.now());
    const layout = checkLayoutFile(JSON.parse(LAYOUT) as unknown);
    if (layout.kind !== 'ok') throw new Error('the example layout does not read');
    await saveLayout(hub.db, branch, layout.layout, 'screen-1.json', 'Head office', Date.now());
    const branches = new Set<string>();
    for (const [env, name] of [
      [A, 'Counter 1'],
      [B, 'Counter 2'],
    ] as const) {
      const p = await call<{ settings: Record<string, unknown> }>(env.core, 'settings.getProfile', { profile: 'demo' });
      await call(env.core, 'settings.saveProfile', { profile: 'demo', settings: { ...p.settings, counterName: name } });
      const fromHub = hubProgrammeArrives(env);
      const v = await call<HubLinkView>(env.core, 'hub.enroll', { hubUrl: hub.url, code: await issueCode(hub) });
      branches.add(v.branch!);
      await fromHub;
      env.showId = (await call<NextShows>(env.core, 'programme.next', {})).shows[0]!.id;
    }
    expect([...branches]).toEqual([branch]);
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
