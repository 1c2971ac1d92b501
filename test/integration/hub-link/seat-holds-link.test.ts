// The counter's side of seat holds against a real Hub (PGlite in memory, HTTP on loopback), with the
// real Hub client: `hubSeatHolds` holds through the Hub (another counter is told "taken", before its
// customer is charged), releases (a settle "sold" changes nothing: the journal's paid sells), is
// refused with the Hub's words when the Hub does not accept a hold, and falls back to the counter's
// own knowledge with a reason in
// cashier words when the Hub is gone or does not answer within its bounded wait; `hubSeatTaken`
// reads the show's taken seats (this counter's own marked mine); the relay consumer hands the Hub's
// `seats` signal to its listener when another counter holds a seat. A hold the Hub refuses for rate
// (a live Hub with a tiny counter rate, its clock standing still) is asked again after a short
// retryAfterMs, else refused — the composed core's sale then fails unsent, never sold "unchecked".
import { mkdtempSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHubClient, createRelayConsumer, type HubConnection, type RelayConsumer } from '../../../core/hub-link';
import { HubCallError } from '../../../core/hub-link/link-client';
import {
  hubSeatHolds,
  hubSeatTaken,
  RATE_RETRY_MAX_MS,
  SEAT_HOLD_REASONS,
} from '../../../core/hub-link/link-seat-holds';
import { openJournalDb } from '../../../core/schema';
import { systemClock } from '../../../shared/clock';
import { memoryLogger } from '../../../shared/logger';
import { MAX_HOLD_SEATS } from '../../../shared/hub-seats-contract';
import { showKey } from '../../../shared/programme';
import type { SeatHoldRequest, SeatHolds, SeatMapView } from '../../../shared/seats';
import { call, programmeSale, seatCounter, stopSeatCounters } from '../../helpers/seat-counter';
import { CounterJournal } from '../../hub/helpers/dashboard-client';
import { enroll, startTestHub, type TestHub } from '../../hub/helpers/hub-harness';
import { programmeWithSeatMap, SEAT_SHOW, soldInJournal } from '../../hub/helpers/seat-show';
import { freePort } from '../../hub/helpers/pg-cluster';

const SHOW = SEAT_SHOW;
const KEY = showKey(SHOW);

describe('seat holds through the Hub, from the counter', () => {
  let hub: TestHub;
  const conn: Record<string, HubConnection> = {};
  const client = createHubClient();
  const logger = memoryLogger();
  let relay: RelayConsumer;
  const told: string[] = [];
  const toldWaiters: (() => void)[] = [];
  let silent: Server;
  const sockets: Socket[] = [];
  let n = 0;

  const req = (who: 'c1' | 'c2', seats: string[]): SeatHoldRequest => ({
    orderKey: `${who === 'c1' ? 'COU1' : 'COU2'}-261127-${String(++n).padStart(4, '0')}`,
    showKey: KEY,
    show: SHOW,
    seats,
    practice: false,
  });
  const holds = (who: string, o: { local?: SeatHolds; waitMs?: number; conn?: HubConnection | null } = {}) =>
    hubSeatHolds({
      connection: () => (o.conn === undefined ? conn[who]! : o.conn),
      client,
      logger,
      holdMs: () => 360_000,
      local: o.local,
      waitMs: o.waitMs,
    });

  beforeAll(async () => {
    hub = await startTestHub();
    await programmeWithSeatMap(
      hub.db,
      'B1',
      ['19:30', '20:00', '20:30', '21:00'].map((time) => ({ ...SHOW, time })),
    );
    for (const [k, name] of [
      ['c1', 'Counter 1'],
      ['c2', 'Counter 2'],
    ] as const) {
      const e = await enroll(hub, name, 'B1');
      conn[k] = { url: hub.url, counterId: e.counterId, credential: e.credential, branch: e.branch };
    }
    relay = createRelayConsumer({
      db: openJournalDb(join(mkdtempSync(join(tmpdir(), 'seat-link-')), 'journal.sqlite')),
      connection: () => conn.c2!,
      client,
      clock: systemClock,
      logger,
      ingest: () => 'recorded',
      onSeats: (k) => {
        told.push(k);
        for (const w of toldWaiters.splice(0)) w();
      },
    });
    await new Promise<void>((resolve) => {
      const off = relay.onChange((h) => {
        if (!h) return;
        off();
        resolve();
      });
      relay.start();
    });
    // A Hub that takes the connection and never answers.
    silent = createServer((s) => sockets.push(s));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  });
  afterAll(async () => {
    await relay?.stop();
    for (const s of sockets) s.destroy();
    await new Promise((r) => silent?.close(r));
    await hub?.stop();
  });

  it("holds through the Hub; the other counter is told the seat is taken (and by whom) and its stream says the show's seats changed", async () => {
    const signalled = new Promise<void>((r) => toldWaiters.push(r));
    expect(await holds('c1').hold(req('c1', ['A1', 'A2']))).toEqual({ kind: 'held' });
    await signalled;
    expect(told).toContain(KEY);
    expect(await holds('c2').hold(req('c2', ['A2', 'A3']))).toEqual({
      kind: 'taken',
      taken: [{ seat: 'A2', state: 'held', counterName: 'Counter 1', mine: false }],
    });
    const seen2 = await hubSeatTaken({ connection: () => conn.c2!, client }).taken(KEY, false);
    expect(seen2.taken.map((t) => [t.seat, t.state, t.mine])).toEqual([
      ['A1', 'held', false],
      ['A2', 'held', false],
    ]);
    const seen1 = await hubSeatTaken({ connection: () => conn.c1!, client }).taken(KEY, false);
    expect(seen1.taken[0]).toMatchObject({ mine: true, counterName: 'Counter 1 (this counter)' });
  });

  it('a settle "sold" changes nothing on the Hub; the journal synced paid sells the seat for everyone', async () => {
    const r = req('c1', ['B5']);
    const h = holds('c1');
    expect(await h.hold(r)).toEqual({ kind: 'held' });
    h.settle(r.orderKey, 'sold');
    const j = new CounterJournal(hub.url, conn.c1!.credential);
    const signalled = new Promise<void>((res) => toldWaiters.push(res));
    await j.sync(soldInJournal(j, r.orderKey, ['B5'], 'paid'));
    await signalled;
    const seen = await hubSeatTaken({ connection: () => conn.c2!, client }).taken(KEY, false);
    expect(seen.taken.find((t) => t.seat === 'B5')).toMatchObject({ state: 'sold' });
  });

  it('a hold the Hub does not accept (a show not in its programme, a seat not in the map) is refused, saying why', async () => {
    const r = await holds('c1').hold({ ...req('c1', ['ZZZ999']), show: { ...SHOW, date: '2099-01-01' } });
    expect(r.kind === 'refused' && r.reason).toMatch(
      /^The Hub would not hold these seats: The show 2099-01-01 19:30 on Screen 1 is not in this branch's programme/,
    );
    const seat = await holds('c1').hold(req('c1', ['A30']));
    expect(seat.kind === 'refused' && seat.reason).toMatch(/A30 is not in the seat map of Screen 1/);
  });

  it("without a Hub, or when it is gone or silent, the sale goes on the counter's own knowledge and says why", async () => {
    const ownTaken: SeatHolds = {
      hold: async () => ({
        kind: 'taken',
        taken: [{ seat: 'C1', state: 'sold', counterName: 'Counter 2 (this counter)', mine: true }],
      }),
      settle: () => {},
    };
    const ownFree: SeatHolds = { hold: async () => ({ kind: 'held' }), settle: () => {} };
    expect(await holds('c2', { conn: null }).hold(req('c2', ['C1']))).toEqual({
      kind: 'unchecked',
      reason: SEAT_HOLD_REASONS.noHub,
    });
    expect(await holds('c2', { conn: null, local: ownFree }).hold(req('c2', ['C1']))).toEqual({ kind: 'held' });
    const gone = { ...conn.c2!, url: `http://127.0.0.1:${await freePort()}` };
    expect(await holds('c2', { conn: gone, local: ownFree }).hold(req('c2', ['C1']))).toEqual({
      kind: 'unchecked',
      reason: SEAT_HOLD_REASONS.unreachable,
    });
    // The counter's own sale of the seat still refuses it.
    expect((await holds('c2', { conn: gone, local: ownTaken }).hold(req('c2', ['C1']))).kind).toBe('taken');
    const a = silent.address();
    const mute = { ...conn.c2!, url: `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}` };
    expect(await holds('c2', { conn: mute, local: ownFree, waitMs: 300 }).hold(req('c2', ['C1']))).toEqual({
      kind: 'unchecked',
      reason: SEAT_HOLD_REASONS.slow,
    });
  });

  it('a counter showing practice maps (Demo, Sandbox) asks its stream for practice seat changes: told of practice holds, not of real ones', async () => {
    const toldPractice: string[] = [];
    const practiceRelay = createRelayConsumer({
      db: openJournalDb(join(mkdtempSync(join(tmpdir(), 'seat-link-')), 'journal.sqlite')),
      connection: () => conn.c1!,
      client,
      clock: systemClock,
      logger,
      ingest: () => 'recorded',
      practice: () => true,
      onSeats: (k) => {
        toldPractice.push(k);
        for (const w of toldWaiters.splice(0)) w();
      },
    });
    await new Promise<void>((resolve) => {
      const off = practiceRelay.onChange((h) => {
        if (!h) return;
        off();
        resolve();
      });
      practiceRelay.start();
    });
    const until = async (cond: () => boolean) => {
      while (!cond()) await new Promise<void>((r) => toldWaiters.push(r));
    };
    try {
      const at = (time: string) => ({ ...SHOW, time });
      const hold = (time: string, practice: boolean) =>
        holds('c2').hold({ ...req('c2', ['A9']), show: at(time), showKey: showKey(at(time)), practice });
      // Real first, then practice, then real again: each stream's events come in that order.
      expect(await hold('20:00', false)).toEqual({ kind: 'held' });
      expect(await hold('20:30', true)).toEqual({ kind: 'held' });
      expect(await hold('21:00', false)).toEqual({ kind: 'held' });
      await until(() => toldPractice.includes(showKey(at('20:30'))) && told.includes(showKey(at('21:00'))));
      expect(told).toContain(showKey(at('20:00')));
      expect(told).not.toContain(showKey(at('20:30')));
      expect(toldPractice).toEqual([showKey(at('20:30'))]);
    } finally {
      await practiceRelay.stop();
    }
  });

  it('a hold the Hub cannot take as asked (a seat it cannot name, too many seats) is refused, never sent unchecked', async () => {
    expect(await holds('c1').hold(req('c1', ['f7']))).toEqual({
      kind: 'refused',
      reason: SEAT_HOLD_REASONS.unholdable,
    });
    const many = Array.from({ length: MAX_HOLD_SEATS + 1 }, (_, i) => `A${i + 1}`);
    expect(await holds('c1').hold(req('c1', many))).toEqual({ kind: 'refused', reason: SEAT_HOLD_REASONS.unholdable });
  });
});

describe('a hold the Hub refuses for rate (a live Hub with a tiny --counter-rate)', () => {
  // The Hub's clock stands still unless a test moves it: its token buckets refill only then.
  let t = Date.now();
  let k = 0;
  const hubs: TestHub[] = [];
  const client = createHubClient();
  const logger = memoryLogger();
  afterAll(async () => {
    await stopSeatCounters();
    for (const h of hubs) await h.stop();
  });

  /** A Hub at `perMinute` for each counter, and a counter of it whose bucket is empty now. */
  async function exhausted(perMinute: number): Promise<HubConnection> {
    const hub = await startTestHub({ now: () => t, rateLimits: { perCredential: perMinute } });
    hubs.push(hub);
    await programmeWithSeatMap(hub.db, 'B1');
    const e = await enroll(hub, 'Counter 1', 'B1');
    const conn = { url: hub.url, counterId: e.counterId, credential: e.credential, branch: e.branch };
    const maps = hubSeatTaken({ connection: () => conn, client });
    for (;;) {
      const r = await maps.taken(KEY, false).catch((err: unknown) => err);
      if (r instanceof HubCallError && r.code === 'HUB_RATE_LIMITED') return conn;
    }
  }
  const request = (seats: string[]): SeatHoldRequest => ({
    orderKey: `COU1-261127-${String(++k).padStart(4, '0')}`,
    showKey: KEY,
    show: SHOW,
    seats,
    practice: false,
  });

  it('refused, never "unchecked", when the wait the Hub asks is long (10 a minute: 6 s); with the own sales as fallback too', async () => {
    const conn = await exhausted(10);
    const slept: number[] = [];
    const ownFree: SeatHolds = { hold: async () => ({ kind: 'held' }), settle: () => {} };
    const holds = hubSeatHolds({
      connection: () => conn,
      client,
      logger,
      holdMs: () => 360_000,
      local: ownFree,
      sleep: async (ms) => void slept.push(ms),
    });
    expect(await holds.hold(request(['A1']))).toEqual({ kind: 'refused', reason: SEAT_HOLD_REASONS.busy(6_000) });
    expect(SEAT_HOLD_REASONS.busy(6_000)).toBe(
      'The Hub is answering too many requests from this counter: sell these seats again in 6 s.',
    );
    expect(slept).toEqual([]);
  });

  it('asked again after the Hub’s retryAfterMs when it is short (600 a minute: 100 ms), and held', async () => {
    const conn = await exhausted(600);
    const slept: number[] = [];
    const holds = hubSeatHolds({
      connection: () => conn,
      client,
      logger,
      holdMs: () => 360_000,
      sleep: async (ms) => {
        slept.push(ms);
        t += ms;
      },
    });
    expect(await holds.hold(request(['A2']))).toEqual({ kind: 'held' });
    expect(slept).toEqual([100]);
    expect(slept[0]).toBeLessThanOrEqual(RATE_RETRY_MAX_MS);
  });

  it('the composed core: a sale whose hold the Hub refuses for rate fails before the provider is asked, the reason on it', async () => {
    const conn = await exhausted(10);
    const env = await seatCounter();
    env.hub.holds = hubSeatHolds({ connection: () => conn, client, logger, holdMs: () => 360_000 });
    const o = await programmeSale(env, ['F7']);
    expect(o).toMatchObject({
      state: 'failed',
      reason: `${SEAT_HOLD_REASONS.busy(6_000)} (the customer was not charged)`,
      seatHold: { seats: ['F7'], outcome: 'refused', note: SEAT_HOLD_REASONS.busy(6_000) },
    });
    expect(env.created.get(o.outOrderNo) ?? 0).toBe(0);
    // Its seat is free on this counter's map (the sale failed).
    const map = await call<SeatMapView>(env.core, 'seats.map', { showId: env.showId });
    expect(map.taken.filter((s) => s.seat === 'F7')).toEqual([]);
  });
});
