// The `seats` signal on the relay streams, over a real Hub (HTTP on loopback, real SSE streams), on
// PGlite and on a real PostgreSQL: a show's changes are told to a branch's streams at most once per
// window, however many come (the window is made long here and ended by `flush`, so nothing depends
// on time); practice seat changes reach only the streams of counters showing practice maps, real
// ones only the others; an older instance's notice (no practice said) reaches both. The shows are
// in the branch's programme with the example layout, as a counter's sale would hold them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Programme } from '../../../shared/programme';
import { showKey } from '../../../shared/programme';
import { createManager } from '../../../hub/store/managers';
import { SEATS_CHANNEL } from '../../../hub/store/seat-holds';
import { Manager } from '../helpers/dashboard-client';
import { bearer, enroll, post, startTestHub, type TestHub } from '../helpers/hub-harness';
import { pgUnavailable, startPgCluster, type PgCluster } from '../helpers/pg-cluster';
import { RelayClient } from '../helpers/sse-client';
import { openHubDb } from '../../../hub/db/open';

if (pgUnavailable) console.log(`seat signal on real PostgreSQL skipped: ${pgUnavailable}`);

const PW = 'manager password 1';
const DAY = '2026-11-27';
const LAYOUT = readFileSync(join(__dirname, '../../../examples/layouts/screen-1.json'), 'utf8');
const TIMES = ['13:00', '16:00', '19:30', '22:00'];
const show = (time: string) => ({
  filmName: 'Dune 2',
  filmTitle: 'DUNE: PART TWO',
  date: DAY,
  time,
  screen: 'Screen 1',
});
const programme: Programme = {
  films: [{ name: 'Dune 2', title: 'DUNE: PART TWO', rating: '12A' }],
  screens: ['Screen 1'],
  shows: TIMES.map((time) => ({
    film: 'Dune 2',
    screen: 'Screen 1',
    date: DAY,
    time,
    ticketTypes: [{ name: 'Adult', priceKobo: 450_000, bookingFeeKobo: 0 }],
  })),
};

type Backend = { name: string; skip: string | null };
const backends: Backend[] = [
  { name: 'PGlite', skip: null },
  { name: 'PostgreSQL', skip: pgUnavailable },
];

describe.each(backends)('the seats signal on $name', (b) => {
  let cluster: PgCluster | null = null;
  let hub: TestHub;
  const cred: Record<string, string> = {};
  const streams: RelayClient[] = [];
  let n = 0;

  beforeAll(async () => {
    if (b.skip) return;
    cluster = b.name === 'PostgreSQL' ? await startPgCluster() : null;
    const db = await openHubDb({ databaseUrl: cluster ? cluster.createDatabase('seatsig') : null, dataDir: null });
    hub = await startTestHub({
      db,
      // Long, so the test ends each window itself (flush): nothing here waits on time.
      seatSignalWindowMs: 600_000,
      rateLimits: { perCredential: 1_000_000, perAddress: 1_000_000 },
    });
    await createManager(hub.db, { name: 'HO', password: PW, role: 'head-office', branch: null }, hub.ctx.now());
    const ho = new Manager(hub.url);
    expect((await ho.login('HO', PW)).status).toBe(200);
    for (const [k, name, branch] of [
      ['c1', 'Counter 1', 'B1'],
      ['c2', 'Counter 2', 'B1'],
      ['p1', 'Practice 1', 'B1'],
      ['z1', 'Zed 1', 'B2'],
    ] as const)
      cred[k] = (await enroll(hub, name, branch)).credential;
    expect((await ho.put('/programme', { branch: 'B1', programme })).status).toBe(200);
    const up = await ho.post('/screens/layout', { branch: 'B1', text: LAYOUT, fileName: 'screen-1.json' });
    expect(JSON.stringify(up.json)).toContain('"imported"');
  }, 120_000);
  afterAll(async () => {
    for (const s of streams) await s.disconnect();
    await hub?.stop();
    await hub?.db.close().catch(() => undefined);
    cluster?.stop();
  });

  const open = async (who: string, query = '') => {
    const s = new RelayClient(hub.url, cred[who]!, query);
    streams.push(s);
    await s.connect();
    expect(s.status).toBe(200);
    return s;
  };
  const seatsTold = (s: RelayClient, key: string, practice?: boolean) =>
    s.events.filter((e) => {
      if (e.event !== 'seats') return false;
      const d = JSON.parse(e.data) as { showKey: string; practice?: boolean };
      return d.showKey === key && (practice === undefined || d.practice === practice);
    }).length;
  const hold = async (who: string, time: string, seats: string[], practice = false) => {
    const orderKey = `${who === 'c1' ? 'COU1' : 'COU2'}-261127-${String(++n).padStart(4, '0')}`;
    const r = await post(
      `${hub.url}/api/v1/seats/hold`,
      { orderKey, show: show(time), seats, practice, holdMs: 120_000 },
      bearer(cred[who]!),
    );
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    expect(r.json.kind).toBe('held');
    return orderKey;
  };
  const release = async (who: string, orderKey: string) => {
    const r = await post(`${hub.url}/api/v1/seats/settle`, { orderKey, outcome: 'released' }, bearer(cred[who]!));
    expect(r.status).toBe(200);
  };

  it.skipIf(!!b.skip)(
    "243 holds of a show (each released after): the branch's other counter is told once at the first, once more when the window ends — not 486 times",
    async () => {
      const c2 = await open('c2');
      const z1 = await open('z1');
      const key = showKey(show('13:00'));
      const marker = showKey(show('16:00'));
      const before = hub.seatSignal.signals;
      for (let i = 0; i < 243; i++) await release('c1', await hold('c1', '13:00', [`B${1 + (i % 4)}`]));
      // A change of another show after them all: when its signal is in, every notice before it was read.
      await release('c1', await hold('c1', '16:00', ['C1']));
      await c2.until(() => seatsTold(c2, marker) >= 1);
      expect(seatsTold(c2, key)).toBe(1);
      // The window ends: the changes in it are told once.
      hub.seatSignal.flush();
      await c2.until(() => seatsTold(c2, key) >= 2);
      await release('c1', await hold('c1', '19:30', ['D1']));
      await c2.until(() => seatsTold(c2, showKey(show('19:30'))) >= 1);
      expect(seatsTold(c2, key)).toBe(2);
      // 487 changes of two shows, then one of a third: 2 + 2 + 1 signals in all.
      expect(hub.seatSignal.signals - before).toBe(5);
      expect(z1.events.filter((e) => e.event === 'seats')).toEqual([]);
    },
  );

  it.skipIf(!!b.skip)(
    'a practice hold tells only the streams showing practice maps; a real one only the others',
    async () => {
      hub.seatSignal.flush();
      const real = await open('c2');
      const practice = await open('p1', '?practice=true');
      const key = showKey(show('22:00'));
      await hold('c1', '22:00', ['E1'], true);
      await practice.until(() => seatsTold(practice, key, true) >= 1);
      await hold('c1', '22:00', ['E1'], false);
      await real.until(() => seatsTold(real, key, false) >= 1);
      // Each stream's events are in order: the practice change came first, and never reached the real stream.
      expect(seatsTold(real, key)).toBe(1);
      expect(seatsTold(practice, key)).toBe(1);
      // Nor the real one the practice stream: a later practice change is the next it is told of that show.
      hub.seatSignal.flush();
      await hold('c1', '22:00', ['E2'], true);
      await practice.until(() => seatsTold(practice, key) >= 2);
      expect(seatsTold(practice, key, false)).toBe(0);
    },
  );

  it.skipIf(!!b.skip)(
    "an older instance's notice (practice not said) reaches both kinds of streams; a stream's query is checked",
    async () => {
      hub.seatSignal.flush();
      const real = await open('c2');
      const practice = await open('p1', '?practice=true');
      await hub.db.query('select pg_notify($1, $2)', [SEATS_CHANNEL, JSON.stringify(['B1', 'legacy show'])]);
      await real.until(() => seatsTold(real, 'legacy show', false) >= 1);
      await practice.until(() => seatsTold(practice, 'legacy show', true) >= 1);
      const bad = new RelayClient(hub.url, cred.c2!, '?practice=maybe');
      streams.push(bad);
      await bad.connect();
      expect(bad.status).toBe(400);
      expect(bad.events[0]!.data).toContain('practice');
    },
  );
});
