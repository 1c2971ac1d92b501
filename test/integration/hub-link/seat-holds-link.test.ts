// The counter's side of seat holds against a real Hub (PGlite in memory, HTTP on loopback), with the
// real Hub client: `hubSeatHolds` holds through the Hub (another counter is told "taken", before its
// customer is charged), releases (a settle "sold" changes nothing: the journal's paid sells), is
// refused in cashier words a hold the Hub does not accept, and falls back to the counter's own knowledge with a reason in
// cashier words when the Hub is gone or does not answer within its bounded wait; `hubSeatTaken`
// reads the show's taken seats (this counter's own marked mine); the relay consumer hands the Hub's
// `seats` signal to its listener when another counter holds a seat.
import { mkdtempSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHubClient, createRelayConsumer, type HubConnection, type RelayConsumer } from '../../../core/hub-link';
import { hubSeatHolds, hubSeatTaken, SEAT_HOLD_REASONS } from '../../../core/hub-link/link-seat-holds';
import { openJournalDb } from '../../../core/schema';
import { systemClock } from '../../../shared/clock';
import { memoryLogger } from '../../../shared/logger';
import { showKey } from '../../../shared/programme';
import type { SeatHoldRequest, SeatHolds } from '../../../shared/seats';
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
    await programmeWithSeatMap(hub.db, 'B1');
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

  it('a hold the Hub does not accept (a show not in its programme, a seat not in the map) is not checked, and says why', async () => {
    const r = await holds('c1').hold({ ...req('c1', ['ZZZ999']), show: { ...SHOW, date: '2099-01-01' } });
    expect(r.kind === 'unchecked' && r.reason).toMatch(
      /would not hold these seats \(The show 2099-01-01 19:30 on Screen 1 is not in this branch's programme/,
    );
    const seat = await holds('c1').hold(req('c1', ['A30']));
    expect(seat.kind === 'unchecked' && seat.reason).toMatch(/A30 is not in the seat map of Screen 1/);
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

  it('a seat name the Hub cannot hold is not sent; the sale says so', async () => {
    const r = await holds('c1').hold(req('c1', ['f7']));
    expect(r).toMatchObject({ kind: 'unchecked' });
    expect(r.kind === 'unchecked' && r.reason).toMatch(/would not hold these seats/);
  });
});
