// Seat holds over a real Hub (HTTP on loopback), on PGlite (a data folder on disk) and on a real
// PostgreSQL: a hold, the race settled by the database (many counters at once for one seat: exactly
// one held), all-or-nothing per request, release on each final state (release call or journal
// sync), sold only when the journal syncs the order paid with the seat, expiry, a Hub restart with
// holds in place, a counter killed with a hold, the `seats` signal on the branch's relay streams,
// and hostile input (another counter's order, another branch, bad seats, too many). What a counter
// may not do (a show not in the programme, seats not in its map, past its cap or the sale's payment
// time, selling by a settle, minting "sold twice", holding on after a revoke) is in
// seat-trust.test.ts. The Hub's sweep is off here (an hour): each test ends lapsed holds itself, so
// a read before any sweep sees what the live-hold condition alone says.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HubSeatMap, SeatHoldResponse } from '../../../shared/hub-seats-contract';
import { showKey } from '../../../shared/programme';
import { openHubDb } from '../../../hub/db/open';
import { sweepLapsedHolds } from '../../../hub/store/seat-holds';
import { CounterJournal } from '../helpers/dashboard-client';
import { bearer, enroll, get, post, startTestHub, type TestHub } from '../helpers/hub-harness';
import { pgUnavailable, startPgCluster, type PgCluster } from '../helpers/pg-cluster';
import { programmeWithSeatMap, SEAT_SHOW, soldInJournal } from '../helpers/seat-show';
import { RelayClient } from '../helpers/sse-client';

if (pgUnavailable) console.log(`seat holds on real PostgreSQL skipped: ${pgUnavailable}`);

const SHOW = SEAT_SHOW;
const KEY = showKey(SHOW);

type Backend = { name: string; skip: string | null; open: () => Promise<{ url: string | null; dir: string | null }> };
let cluster: PgCluster | null = null;
const backends: Backend[] = [
  {
    name: 'PGlite',
    skip: null,
    open: async () => ({ url: null, dir: mkdtempSync(join(tmpdir(), 'hub-seats-')) }),
  },
  {
    name: 'PostgreSQL',
    skip: pgUnavailable,
    open: async () => {
      cluster = await startPgCluster();
      return { url: cluster.createDatabase('seats'), dir: null };
    },
  },
];

describe.each(backends)('seat holds on $name', (b) => {
  let hub: TestHub;
  let where: { url: string | null; dir: string | null };
  const cred: Record<string, string> = {};
  const streams: RelayClient[] = [];
  let n = 0;
  const order = (who: 'c1' | 'c2' | 'c3' | 'z1') =>
    `${{ c1: 'COU1', c2: 'COU2', c3: 'COU3', z1: 'ZED1' }[who]}-261127-${String(++n).padStart(4, '0')}`;

  const start = async () => {
    const db = await openHubDb({ databaseUrl: where.url, dataDir: where.dir });
    hub = await startTestHub({ db, seatSweepMs: 3_600_000 });
  };
  beforeAll(async () => {
    if (b.skip) return;
    where = await b.open();
    await start();
    for (const [k, name, branch] of [
      ['c1', 'Counter 1', 'B1'],
      ['c2', 'Counter 2', 'B1'],
      ['c3', 'Counter 3', 'B1'],
      ['z1', 'Zed 1', 'B2'],
    ] as const)
      cred[k] = (await enroll(hub, name, branch)).credential;
    await programmeWithSeatMap(hub.db, 'B1');
    await programmeWithSeatMap(hub.db, 'B2');
  }, 120_000);
  afterAll(async () => {
    for (const s of streams) await s.disconnect();
    await hub?.stop();
    await hub?.db.close().catch(() => undefined);
    if (where?.dir) rmSync(where.dir, { recursive: true, force: true });
    cluster?.stop();
    cluster = null;
  });

  const hold = async (
    who: string,
    orderKey: string,
    seats: string[],
    o: { holdMs?: number; show?: typeof SHOW; practice?: boolean } = {},
  ) =>
    post(
      `${hub.url}/api/v1/seats/hold`,
      { orderKey, show: o.show ?? SHOW, seats, practice: o.practice ?? false, holdMs: o.holdMs ?? 120_000 },
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
  const seatsOf = (m: HubSeatMap) => m.taken.map((t) => `${t.seat}:${t.state}`).sort();
  const lastSeq = async (name: string) =>
    (await hub.db.query<{ last_seq: unknown }>('select last_seq from counters where name = $1', [name])).map((r) =>
      Number(r.last_seq),
    )[0] ?? 0;

  it.skipIf(!!b.skip)(
    'a hold is all or nothing: a seat another sale holds refuses the whole request and names who has it',
    async () => {
      expect(await held('c1', order('c1'), ['A1', 'A2'])).toMatchObject({ kind: 'held', showKey: KEY });
      const r = await held('c2', order('c2'), ['A2', 'A3']);
      expect(r).toEqual({
        kind: 'taken',
        showKey: KEY,
        taken: [expect.objectContaining({ seat: 'A2', state: 'held', counterName: 'Counter 1' })],
      });
      // A3 was not held by the refused request.
      expect(seatsOf(await map('c3'))).toEqual(['A1:held', 'A2:held']);
      // The same order asking again (a retry) keeps its seats.
      expect((await held('c3', order('c3'), ['A3'])).kind).toBe('held');
    },
  );

  it.skipIf(!!b.skip)('many counters at once for one seat: exactly one gets it', async () => {
    const tries = Array.from({ length: 24 }, (_, i) => {
      const who = (['c1', 'c2', 'c3'] as const)[i % 3]!;
      return held(who, order(who), ['K9', `${i % 2 ? 'J' : 'L'}${Math.floor(i / 2) + 1}`]);
    });
    const out = await Promise.all(tries);
    expect(out.filter((r) => r.kind === 'held')).toHaveLength(1);
    const m = await map('c1');
    // The winner's two seats and nothing of the 23 refused requests.
    expect(m.taken.filter((t) => t.seat === 'K9' || /^[JL]/.test(t.seat))).toHaveLength(2);
  });

  it.skipIf(!!b.skip)(
    'released frees the seats, only of the own order of the counter; a settle "sold" changes nothing, the journal\'s paid sells',
    async () => {
      const paid = order('c1');
      const freed = order('c1');
      await held('c1', paid, ['B1']);
      await held('c1', freed, ['B2']);
      // Another counter cannot settle (nor free) them.
      expect((await settle('c2', freed, 'released')).json).toEqual({ settled: 0 });
      const sold = (await settle('c1', paid, 'sold')).json;
      expect(sold).toMatchObject({ settled: 0, note: expect.stringContaining('journal syncs the order paid') });
      expect((await map('c2')).taken.find((t) => t.seat === 'B1')).toMatchObject({ state: 'held' });
      expect((await settle('c1', freed, 'released')).json).toEqual({ settled: 1 });
      const j = new CounterJournal(hub.url, cred.c1!);
      j.seq = await lastSeq('Counter 1');
      await j.sync(soldInJournal(j, paid, ['B1'], 'paid'));
      expect((await map('c2')).taken.find((t) => t.seat === 'B1')).toMatchObject({ state: 'sold' });
      expect((await held('c2', order('c2'), ['B2'])).kind).toBe('held');
      expect((await held('c2', order('c2'), ['B1'])).kind).toBe('taken');
    },
  );

  it.skipIf(!!b.skip)(
    'the journal sync settles: failed, cancelled and expired free the seats, paid sells them (a settle call lost)',
    async () => {
      const j = new CounterJournal(hub.url, cred.c1!);
      j.seq = await lastSeq('Counter 1');
      const states = ['failed', 'cancelled', 'expired', 'paid'] as const;
      const keys = states.map(() => order('c1'));
      for (const [i, k] of keys.entries()) await held('c1', k, [`C${i + 1}`]);
      await j.sync(keys.flatMap((k, i) => soldInJournal(j, k, [`C${i + 1}`], states[i]!)));
      expect(seatsOf(await map('c2')).filter((s) => s.startsWith('C'))).toEqual(['C4:sold']);
      for (const s of ['C1', 'C2', 'C3']) expect((await held('c2', order('c2'), [s])).kind).toBe('held');
    },
  );

  it.skipIf(!!b.skip)(
    'a failed or expired order never sells its seats: not when the counter settles it "sold", not when its hold lapses',
    async () => {
      const j = new CounterJournal(hub.url, cred.c1!);
      j.seq = await lastSeq('Counter 1');
      const failed = order('c1');
      const expired = order('c1');
      const lapsing = order('c1');
      const other = order('c1');
      await held('c1', failed, ['M1']);
      await held('c1', expired, ['M2']);
      await held('c1', lapsing, ['M3'], { holdMs: 1_000 });
      await held('c1', other, ['M4']);
      await settle('c1', failed, 'sold');
      await settle('c1', expired, 'sold');
      const [created] = soldInJournal(j, lapsing, ['M3'], 'expired');
      j.sent.pop();
      j.seq -= 1;
      await j.sync([
        ...soldInJournal(j, failed, ['M1'], 'failed'),
        ...soldInJournal(j, expired, ['M2'], 'expired'),
        // Journaled, not final yet: its hold lapses.
        created!,
        // Paid, but with another seat than the one it held.
        ...soldInJournal(j, other, ['M9'], 'paid'),
      ]);
      // Expired in the journal first, held after (a late retry): its hold lapses, not sold.
      const late = order('c1');
      await j.sync(soldInJournal(j, late, ['M5'], 'expired'));
      await held('c1', late, ['M5'], { holdMs: 1_000 });
      hub.clock.offsetMs += 1_500;
      try {
        await sweepLapsedHolds(hub.db, hub.ctx.now());
        // None is sold by a hold. The map reads the journal too: the sale journaled but not final
        // (M3) keeps its seat while it is open, the paid one (M9) is sold with the seat it names.
        expect(seatsOf(await map('c2')).filter((s) => s.startsWith('M'))).toEqual(['M3:held', 'M9:sold']);
        const rows = await hub.db.query<{ seat: string; state: string }>(
          `select seat, state from seat_holds where order_key = any($1::text[]) order by seat`,
          [[failed, expired, lapsing, other, late]],
        );
        expect(rows.map((r) => `${r.seat}:${r.state}`)).toEqual([
          'M1:released',
          'M2:released',
          'M3:lapsed',
          'M4:released',
          'M5:lapsed',
        ]);
      } finally {
        hub.clock.offsetMs -= 1_500;
      }
    },
  );

  it.skipIf(!!b.skip)(
    'a hold past its until is not live before any sweep: the map and another hold see the seat free',
    async () => {
      const k = order('c1');
      await held('c1', k, ['N1', 'N2'], { holdMs: 1_000 });
      expect(seatsOf(await map('c2')).filter((s) => s.startsWith('N'))).toEqual(['N1:held', 'N2:held']);
      hub.clock.offsetMs += 1_500;
      try {
        // No sweep has run (it is off): the rows are still 'held' in the table.
        const rows = await hub.db.query<{ state: string }>('select state from seat_holds where order_key = $1', [k]);
        expect(rows.map((r) => r.state)).toEqual(['held', 'held']);
        expect(seatsOf(await map('c2')).filter((s) => s.startsWith('N'))).toEqual([]);
        expect((await held('c2', order('c2'), ['N2'])).kind).toBe('held');
      } finally {
        hub.clock.offsetMs -= 1_500;
      }
    },
  );

  it.skipIf(!!b.skip)('a hold lapses at its until: the seat is free again and the counters are told', async () => {
    const s2 = new RelayClient(hub.url, cred.c2!);
    streams.push(s2);
    await s2.connect();
    const k = order('c1');
    await held('c1', k, ['D1'], { holdMs: 1_000 });
    await s2.until(() => s2.events.some((e) => e.event === 'seats' && e.data.includes(KEY)));
    const told = s2.events.filter((e) => e.event === 'seats').length;
    hub.clock.offsetMs += 1_500;
    try {
      // The sweep ends it and tells the branch's streams.
      expect(await sweepLapsedHolds(hub.db, hub.ctx.now())).toBeGreaterThanOrEqual(1);
      await s2.until(() => s2.events.filter((e) => e.event === 'seats').length > told);
      expect(seatsOf(await map('c2'))).not.toContain('D1:held');
      expect((await held('c2', order('c2'), ['D1'])).kind).toBe('held');
      // The counter that held it settles late: its seat is not taken back from the new hold.
      expect((await settle('c1', k, 'released')).json).toEqual({ settled: 0 });
    } finally {
      hub.clock.offsetMs -= 1_500;
    }
  });

  it.skipIf(!!b.skip)(
    'a counter killed with a hold: the hold lapses; its journal synced paid later sells the seat (or marks it sold twice)',
    async () => {
      const k = order('c3');
      await held('c3', k, ['E1', 'E2'], { holdMs: 1_000 });
      hub.clock.offsetMs += 1_500;
      try {
        await sweepLapsedHolds(hub.db, hub.ctx.now());
        // While it was gone, another counter sold E2.
        const other = order('c2');
        await held('c2', other, ['E2']);
        const j2 = new CounterJournal(hub.url, cred.c2!);
        j2.seq = await lastSeq('Counter 2');
        await j2.sync(soldInJournal(j2, other, ['E2'], 'paid'));
        // It comes back and syncs: the sale was paid.
        const j = new CounterJournal(hub.url, cred.c3!);
        j.seq = await lastSeq('Counter 3');
        await j.sync(soldInJournal(j, k, ['E1', 'E2'], 'paid'));
        const m = await map('c1');
        expect(m.taken.filter((t) => t.seat === 'E1')).toEqual([
          expect.objectContaining({ state: 'sold', counterName: 'Counter 3' }),
        ]);
        expect(m.taken.filter((t) => t.seat === 'E2')).toEqual([
          expect.objectContaining({ state: 'sold', counterName: 'Counter 2' }),
        ]);
        const twice = await hub.db.query("select order_key from seat_holds where state = 'double' and seat = 'E2'");
        expect(twice.map((r) => r.order_key)).toEqual([k]);
      } finally {
        hub.clock.offsetMs -= 1_500;
      }
    },
  );

  it.skipIf(!!b.skip)('a Hub restart keeps the holds (they are in the database)', async () => {
    const k = order('c1');
    await held('c1', k, ['F7', 'F8']);
    await hub.stop();
    await hub.db.close().catch(() => undefined);
    await start();
    expect(seatsOf(await map('c2')).filter((s) => s.startsWith('F'))).toEqual(['F7:held', 'F8:held']);
    expect((await held('c2', order('c2'), ['F8'])).kind).toBe('taken');
    expect((await settle('c1', k, 'released')).json).toEqual({ settled: 2 });
  });

  it.skipIf(!!b.skip)(
    "another branch and practice sales are apart; another counter's order, bad seats and too many are refused",
    async () => {
      await held('c1', order('c1'), ['G1']);
      // Branch B2's counter: its own map, G1 free there.
      expect((await map('z1')).taken).toEqual([]);
      expect((await held('z1', order('z1'), ['G1'])).kind).toBe('held');
      // A practice sale does not see real ones.
      expect((await held('c2', order('c2'), ['G1'], { practice: true })).kind).toBe('held');
      // Counter 2 cannot hold under Counter 1's sale number.
      const theirs = await hold('c2', order('c1'), ['G2']);
      expect(theirs.status).toBe(403);
      expect(String(theirs.json.message)).toMatch(/another counter's sale/);
      for (const bad of [
        ['g1'],
        ['G'],
        ['G1; drop table seat_holds'],
        Array.from({ length: 51 }, (_, i) => `H${i + 1}`),
      ]) {
        const r = await hold('c2', order('c2'), bad);
        expect(r.status, JSON.stringify(bad).slice(0, 40)).toBe(400);
      }
      expect((await hold('c2', order('c2'), ['G3'], { holdMs: 24 * 3_600_000 })).status).toBe(400);
      const noCred = await post(`${hub.url}/api/v1/seats/hold`, {
        orderKey: 'x',
        show: SHOW,
        seats: ['G4'],
        practice: false,
        holdMs: 60_000,
      });
      expect(noCred.status).toBe(401);
    },
  );
});
