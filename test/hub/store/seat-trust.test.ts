// What a counter is trusted with for seats (docs/seat-maps.md): the Hub owns the seat truth and a
// counter only asks. Over a real Hub (HTTP on loopback) on PGlite and on a real PostgreSQL: a hold
// only for a show of the branch's programme with a seat map and only seats of that map; at most
// MAX_HELD_SEATS_PER_COUNTER seats held at once; a sale's hold never past its first hold + MAX_HOLD_MS;
// a settle never sells and cannot mint "sold twice"; a revoked counter's holds end at once; a hold
// that loses part of a race keeps nothing (PostgreSQL: another transaction commits one of its seats
// between its read and its insert); old rows pruned. The rogue counter of the third security review, measured.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MAX_HELD_SEATS_PER_COUNTER,
  MAX_HOLD_MS,
  type HubSeatMap,
  type SeatHoldResponse,
} from '../../../shared/hub-seats-contract';
import { showKey } from '../../../shared/programme';
import { addDays, lagosDate } from '../../../shared/time';
import { openHubDb } from '../../../hub/db/open';
import { sweepLapsedHolds } from '../../../hub/store/seat-holds';
import { SEAT_HISTORY_DAYS } from '../../../hub/store/seat-release';
import { countingDb, type CountingDb } from '../helpers/counting-db';
import { ADMIN_TOKEN, bearer, enroll, get, post, startTestHub, type TestHub } from '../helpers/hub-harness';
import { pgUnavailable, startPgCluster, type PgCluster } from '../helpers/pg-cluster';
import { programmeWithSeatMap, SEAT_SHOW, type SeatShow } from '../helpers/seat-show';
import { RelayClient } from '../helpers/sse-client';

const SHOW = SEAT_SHOW;
const KEY = showKey(SHOW);
const TYPED = { ...SEAT_SHOW, time: '21:00', screen: 'Screen 2' };
const LATE = { ...SEAT_SHOW, time: '22:30' };
const MIN = 60_000;

type Backend = { name: string; skip: string | null; url: () => Promise<string | null> };
let cluster: PgCluster | null = null;
const backends: Backend[] = [
  { name: 'PGlite', skip: null, url: async () => null },
  {
    name: 'PostgreSQL',
    skip: pgUnavailable,
    url: async () => {
      cluster = await startPgCluster();
      return cluster.createDatabase('seat_trust');
    },
  },
];

describe.each(backends)('what a counter is trusted with for seats, on $name', (b) => {
  let hub: TestHub;
  let db: CountingDb;
  const cred: Record<string, string> = {};
  const ids: Record<string, string> = {};
  const streams: RelayClient[] = [];
  let n = 0;
  const order = (who: 'c1' | 'c2' | 'r9') =>
    `${{ c1: 'COU1', c2: 'COU2', r9: 'ROG9' }[who]}-261127-${String(++n).padStart(4, '0')}`;

  beforeAll(async () => {
    if (b.skip) return;
    db = countingDb(await openHubDb({ databaseUrl: await b.url(), dataDir: null }));
    hub = await startTestHub({ db, seatSweepMs: 3_600_000 });
    for (const [k, name] of [
      ['c1', 'Counter 1'],
      ['c2', 'Counter 2'],
      ['r9', 'Rogue 9'],
    ] as const) {
      const e = await enroll(hub, name, 'B1');
      cred[k] = e.credential;
      ids[k] = e.counterId;
    }
    await programmeWithSeatMap(hub.db, 'B1', [SHOW, TYPED, LATE]);
  }, 120_000);
  afterAll(async () => {
    for (const s of streams) await s.disconnect();
    await hub?.stop();
    await db?.close().catch(() => undefined);
    cluster?.stop();
    cluster = null;
  });

  const hold = (
    who: string,
    orderKey: string,
    seats: string[],
    o: { holdMs?: number; show?: SeatShow; practice?: boolean } = {},
  ) =>
    post(
      `${hub.url}/api/v1/seats/hold`,
      { orderKey, show: o.show ?? SHOW, seats, practice: o.practice ?? false, holdMs: o.holdMs ?? 10 * MIN },
      bearer(cred[who]!),
    );
  const held = async (...a: Parameters<typeof hold>) => {
    const r = await hold(...a);
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    return r.json as unknown as SeatHoldResponse;
  };
  const settle = (who: string, orderKey: string, outcome: 'sold' | 'released') =>
    post(`${hub.url}/api/v1/seats/settle`, { orderKey, outcome }, bearer(cred[who]!));
  const map = async (who: string, key = KEY) => {
    const r = await get(`${hub.url}/api/v1/seats/map?showKey=${encodeURIComponent(key)}`, bearer(cred[who]!));
    expect(r.status).toBe(200);
    return r.json as unknown as HubSeatMap;
  };
  const rowSeats = (row: string, from: number, count: number) =>
    Array.from({ length: count }, (_, i) => `${row}${from + i}`);

  it.skipIf(!!b.skip)(
    "a hold names a show of the branch's programme with a seat map, and seats of that map: else 422 saying what is wrong",
    async () => {
      const far = await hold('c1', order('c1'), ['ZZZ999'], { show: { ...SHOW, date: '2099-12-31' } });
      expect(far.status).toBe(422);
      expect(far.json).toMatchObject({ code: 'HUB_SEATS_UNKNOWN', details: { reason: 'show' } });
      expect(String(far.json.message)).toMatch(/2099-12-31 19:30 on Screen 1 is not in this branch's programme/);
      const typed = await hold('c1', order('c1'), ['A5'], { show: TYPED });
      expect(typed.status).toBe(422);
      expect(typed.json).toMatchObject({ code: 'HUB_SEATS_UNKNOWN', details: { reason: 'layout' } });
      const seats = await hold('c1', order('c1'), ['A5', 'ZZZ999', 'A30', 'H10']);
      expect(seats.status).toBe(422);
      expect(seats.json).toMatchObject({
        code: 'HUB_SEATS_UNKNOWN',
        details: { reason: 'seats', unknown: ['A30', 'ZZZ999'], blocked: ['H10'] },
      });
      expect(String(seats.json.message)).toContain('A30, ZZZ999 are not in the seat map of Screen 1; H10 is blocked');
      // Nothing of the refused requests was held; the screen's name in any case is the programme's show.
      expect((await map('c2')).taken).toEqual([]);
      expect((await held('c1', order('c1'), ['A5'], { show: { ...SHOW, screen: 'SCREEN 1' } })).kind).toBe('held');
    },
  );

  it.skipIf(!!b.skip)(
    "a practice hold may also name a show of the Demo programme (today's Screen 1); a real one may not",
    async () => {
      const demo = {
        filmName: 'Dune 2',
        filmTitle: 'DUNE: PART TWO',
        date: lagosDate(hub.ctx.now()),
        time: '13:00',
        screen: 'Screen 1',
      };
      expect((await held('c1', order('c1'), ['B5'], { show: demo, practice: true })).kind).toBe('held');
      const real = await hold('c1', order('c1'), ['B5'], { show: demo });
      expect(real.status).toBe(422);
    },
  );

  it.skipIf(!!b.skip)(
    `a counter holds at most ${MAX_HELD_SEATS_PER_COUNTER} seats at once: more is 409 HUB_HOLD_LIMIT until a sale ends`,
    async () => {
      const a = order('c2');
      const c = order('c2');
      expect(
        (await held('c2', a, [...rowSeats('C', 1, 20), ...rowSeats('D', 1, 20), ...rowSeats('E', 1, 10)])).kind,
      ).toBe('held');
      expect(
        (await held('c2', c, [...rowSeats('E', 11, 10), ...rowSeats('F', 1, 20), ...rowSeats('G', 1, 20)])).kind,
      ).toBe('held');
      const more = await hold('c2', order('c2'), ['J1']);
      expect(more.status).toBe(409);
      expect(more.json).toMatchObject({
        code: 'HUB_HOLD_LIMIT',
        details: { reason: 'counter', held: MAX_HELD_SEATS_PER_COUNTER, limit: MAX_HELD_SEATS_PER_COUNTER },
      });
      // A retry of a sale already held is not more seats.
      expect((await held('c2', a, ['C1'])).kind).toBe('held');
      // Another counter is not held up by it.
      expect((await held('c1', order('c1'), ['J1'])).kind).toBe('held');
      expect((await settle('c2', a, 'released')).json).toEqual({ settled: 50 });
      expect((await held('c2', order('c2'), ['J2'])).kind).toBe('held');
      await settle('c2', c, 'released');
    },
  );

  it.skipIf(!!b.skip)(
    "a sale's hold never lasts past its first hold + MAX_HOLD_MS, renewals included; then it is refused",
    async () => {
      const k = order('c1');
      const r1 = await held('c1', k, ['K1'], { holdMs: MAX_HOLD_MS });
      const [row] = await hub.db.query<{ created_at: unknown }>(
        'select created_at from seat_holds where order_key = $1',
        [k],
      );
      const first = Number(row!.created_at);
      expect(r1.kind === 'held' && r1.until).toBe(first + MAX_HOLD_MS);
      hub.clock.offsetMs += 50 * MIN;
      try {
        const r2 = await held('c1', k, ['K1', 'K2'], { holdMs: MAX_HOLD_MS });
        expect(r2.kind === 'held' && r2.until).toBe(first + MAX_HOLD_MS);
        hub.clock.offsetMs += 13 * MIN;
        const r3 = await hold('c1', k, ['K1'], { holdMs: MAX_HOLD_MS });
        expect(r3.status).toBe(409);
        expect(r3.json).toMatchObject({ code: 'HUB_HOLD_LIMIT', details: { reason: 'expired' } });
        // Released and asked again under the same sale: still its first hold's bound.
        await settle('c1', k, 'released');
        expect((await hold('c1', k, ['K3'])).status).toBe(409);
      } finally {
        hub.clock.offsetMs -= 63 * MIN;
      }
    },
  );

  it.skipIf(!!b.skip)(
    'a settle never sells, so hold, release, hold again and settle "sold" mints no "sold twice" row',
    async () => {
      const x = order('r9');
      const y = order('r9');
      await held('r9', x, rowSeats('L', 1, 10));
      await settle('r9', x, 'released');
      await held('r9', y, rowSeats('L', 1, 10));
      expect((await settle('r9', x, 'sold')).json).toMatchObject({ settled: 0 });
      expect((await settle('r9', y, 'sold')).json).toMatchObject({ settled: 0 });
      const rows = await hub.db.query<{ state: string; n: unknown }>(
        `select state, count(*) as n from seat_holds where order_key = any($1::text[]) group by state order by state`,
        [[x, y]],
      );
      expect(rows.map((r) => `${r.state}:${Number(r.n)}`)).toEqual(['held:10', 'released:10']);
      await settle('r9', y, 'released');
    },
  );

  it.skipIf(!!b.skip)(
    "a revoked counter's holds end at once: its seats are free, the branch's streams told; a hold it kept in a race is not taken",
    async () => {
      const rogue = await enroll(hub, 'Rogue 8', 'B1');
      cred.r8 = rogue.credential;
      const s2 = new RelayClient(hub.url, cred.c2!);
      streams.push(s2);
      await s2.connect();
      const k = `ROG8-261127-${String(++n).padStart(4, '0')}`;
      expect((await held('r8', k, ['A10', 'A11'])).kind).toBe('held');
      await s2.until(() => s2.events.some((e) => e.event === 'seats'));
      const told = s2.events.filter((e) => e.event === 'seats').length;
      expect(
        (await post(`${hub.url}/api/v1/admin/counters/${rogue.counterId}/revoke`, {}, bearer(ADMIN_TOKEN))).status,
      ).toBe(200);
      await s2.until(() => s2.events.filter((e) => e.event === 'seats').length > told);
      expect((await map('c2')).taken.filter((t) => t.seat === 'A10' || t.seat === 'A11')).toEqual([]);
      expect((await held('c2', order('c2'), ['A10'])).kind).toBe('held');
      expect((await hold('r8', order('c1'), ['A12'])).status).toBeGreaterThanOrEqual(401);
      // A hold that committed beside the revoke (played: the row stays 'held') is not taken either,
      // and the next hold of its seat or the sweep ends it.
      await hub.db.query(
        `insert into seat_holds (branch, practice, show_key, seat, order_key, counter_id, film_name, state, until_at, created_at)
         values ('B1', false, $1, 'A13', $2, $3, 'Dune 2', 'held', $4, $5)`,
        [KEY, k, rogue.counterId, hub.ctx.now() + 10 * MIN, hub.ctx.now()],
      );
      expect((await map('c2')).taken.filter((t) => t.seat === 'A13')).toEqual([]);
      expect((await held('c2', order('c2'), ['A13'])).kind).toBe('held');
      const left = await hub.db.query(`select state from seat_holds where counter_id = $1 and state = 'held'`, [
        rogue.counterId,
      ]);
      expect(left).toEqual([]);
      expect(await sweepLapsedHolds(hub.db, hub.ctx.now())).toBe(0);
    },
  );

  it.skipIf(!!b.skip)(
    'the pruner deletes holds ended a day ago and every row of shows past SEAT_HISTORY_DAYS, and keeps the rest',
    async () => {
      const now = hub.ctx.now();
      const old = `${addDays(lagosDate(now), -(SEAT_HISTORY_DAYS + 1))} 19:30 screen 1`;
      const row = (key: string, seat: string, state: string, settled: number | null) =>
        hub.db.query(
          `insert into seat_holds (branch, practice, show_key, seat, order_key, counter_id, film_name, state, until_at, created_at, settled_at)
           values ('B1', false, $1, $2, $3, $4, 'Dune 2', $5, $6, $6, $7)`,
          [key, seat, `PRUNE-${seat}-${state}`, ids.c1, state, now - 3 * 86_400_000, settled],
        );
      await row(KEY, 'O1', 'released', now - 2 * 86_400_000);
      await row(KEY, 'O2', 'lapsed', now - 2 * 86_400_000);
      await row(KEY, 'O3', 'released', now - 60_000);
      await row(old, 'O4', 'sold', now - 40 * 86_400_000);
      await row(old, 'O5', 'double', now - 40 * 86_400_000);
      await hub.prune();
      const left = await hub.db.query<{ seat: string }>(
        `select seat from seat_holds where order_key like 'PRUNE-%' order by seat`,
      );
      expect(left.map((r) => r.seat)).toEqual(['O3']);
    },
  );

  it.skipIf(!!b.skip || b.name !== 'PostgreSQL')(
    'a hold that loses one seat to a hold committed between its read and its insert keeps none of its seats',
    async () => {
      const mine = order('c1');
      const gate = db.hold(/insert into seat_holds[\s\S]*'held'/);
      const first = held('c1', mine, ['P1', 'P2', 'P3']);
      await gate.hit;
      // Counter 2's hold of P2 commits while Counter 1's insert waits.
      expect((await held('c2', order('c2'), ['P2'])).kind).toBe('held');
      gate.release();
      expect(await first).toEqual({
        kind: 'taken',
        showKey: KEY,
        taken: [expect.objectContaining({ seat: 'P2', state: 'held', counterName: 'Counter 2' })],
      });
      const p = (await map('c2')).taken.filter((t) => t.seat.startsWith('P'));
      expect(p.map((t) => `${t.seat}:${t.counterName}`)).toEqual(['P2:Counter 2']);
      expect(await hub.db.query('select 1 from seat_holds where order_key = $1', [mine])).toEqual([]);
    },
  );

  it.skipIf(!!b.skip)(
    'the rogue counter of the review: 12 calls of 50 seats and a settle "sold" each, a show in 2099, sold-twice minting',
    async () => {
      const rows = 'BCDEFGJKLMNO'.split('');
      const answers: Record<string, number> = {};
      const keys: string[] = [];
      const t0 = Date.now();
      for (let i = 0; i < 12; i++) {
        const k = order('r9');
        keys.push(k);
        // 50 seats a call, 600 in all: rows B to O, seats 1 to 50 (past the map's 20 after a while).
        const seats = Array.from({ length: 50 }, (_, j) => `${rows[i]!}${j + 1}`).slice(0, 50);
        const r = await hold('r9', k, seats);
        const a = r.status === 200 ? String(r.json.kind) : `${r.status} ${String(r.json.code)}`;
        answers[a] = (answers[a] ?? 0) + 1;
        await settle('r9', k, 'sold');
      }
      const ms = Date.now() - t0;
      // The same with seats of the map only (rows B to O, 1 to 20) of another show.
      const realKeys: string[] = [];
      const realAnswers: Record<string, number> = {};
      for (let i = 0; i < 12; i++) {
        const k = order('r9');
        realKeys.push(k);
        const r = await hold('r9', k, rowSeats(rows[i]!, 1, 20), { show: LATE });
        const a = r.status === 200 ? String(r.json.kind) : `${r.status} ${String(r.json.code)}`;
        realAnswers[a] = (realAnswers[a] ?? 0) + 1;
        await settle('r9', k, 'sold');
      }
      const late = await hub.db.query<{ state: string; n: unknown }>(
        `select state, count(*) as n from seat_holds where order_key = any($1::text[]) group by state order by state`,
        [realKeys],
      );
      const lateFigures = Object.fromEntries(late.map((r) => [r.state, Number(r.n)]));
      const far = await hold('r9', order('r9'), ['ZZZ999'], { show: { ...SHOW, date: '2099-01-01' } });
      const live = await hub.db.query<{ state: string; n: unknown }>(
        `select state, count(*) as n from seat_holds where order_key = any($1::text[]) group by state order by state`,
        [keys],
      );
      const figures = Object.fromEntries(live.map((r) => [r.state, Number(r.n)]));
      // Sold twice by itself: hold X, release X, hold the same seats under Y, settle X "sold" (4 calls).
      const x = order('r9');
      const y = order('r9');
      const seats = rowSeats('P', 1, 20);
      await hold('r9', x, seats);
      await settle('r9', x, 'released');
      await hold('r9', y, seats);
      await settle('r9', x, 'sold');
      const minted = await hub.db.query(`select 1 from seat_holds where state = 'double' and order_key = $1`, [x]);
      console.log(
        `rogue counter (${b.name}): 12 hold calls of 50 seats in ${ms} ms → ${figures.held ?? 0} held, ${figures.sold ?? 0} sold (answers ${JSON.stringify(answers)}); ` +
          `12 calls of 20 seats of the map → ${lateFigures.held ?? 0} held, ${lateFigures.sold ?? 0} sold (answers ${JSON.stringify(realAnswers)}); ` +
          `2099 show, seat ZZZ999 → ${far.status}; hold/release/hold/settle "sold" of 20 seats → ${minted.length} "sold twice" rows`,
      );
      expect(lateFigures.sold ?? 0).toBe(0);
      expect(lateFigures.held ?? 0).toBeLessThanOrEqual(MAX_HELD_SEATS_PER_COUNTER);
      expect(figures.sold ?? 0).toBe(0);
      expect(figures.held ?? 0).toBeLessThanOrEqual(MAX_HELD_SEATS_PER_COUNTER);
      expect(far.status).toBe(422);
      expect(minted).toEqual([]);
      for (const k of [...keys, ...realKeys, x, y]) await settle('r9', k, 'released');
    },
  );
});
