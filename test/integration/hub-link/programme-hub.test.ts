// The programme and the seat check between a real Hub (PGlite in memory, HTTP on loopback) and two
// composed counter cores (Demo profile: the embedded sandbox, real SQLite files), each following the
// Hub's real relay stream: a manager's programme reaches both; a counter that was off gets the newer
// one when it connects again; a sale on one counter is seen by the other's seat check; a Hub that
// is gone or does not answer makes the check "skipped" at the deadline.
import { mkdtempSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confStore } from '../../../browser-shell/boot';
import { createCore, type Core } from '../../../core/app-core';
import { systemClock } from '../../../shared/clock';
import { memoryLogger } from '../../../shared/logger';
import { fileVault } from '../../../core/settings/secret-vault';
import { createManager } from '../../../hub/store/managers';
import type { HubLinkView } from '../../../shared/hub-link';
import type { OrderView } from '../../../shared/orders';
import type { NextShows, Programme, ProgrammeSummary, SeatCheckResult } from '../../../shared/programme';
import { lagosDate, lagosHm } from '../../../shared/time';
import { orderReaches } from '../../helpers/core-events';
import { Manager } from '../../hub/helpers/dashboard-client';
import { issueCode, startTestHub, type TestHub } from '../../hub/helpers/hub-harness';
import { ensureShift } from '../../helpers/ensure-shift';

const ctx = { trusted: true, sender: 'test' };
const PIN = '2468';
const MIN = 60_000;
/** The journal sync (helper A's pusher) is what tells the Hub of a sale; on a branch without it the cross-counter sale tests cannot run. */

const live: Core[] = [];
async function boot(dir: string, name: string): Promise<Core> {
  const core = await createCore({
    shell: 'browser',
    version: 't',
    dataDir: dir,
    store: confStore(dir),
    vault: fileVault(join(dir, 'secrets.json')),
    logger: memoryLogger(),
    clock: systemClock,
  });
  live.push(core);
  await call(core, 'settings.setPin', { newPin: PIN }).catch(() => call(core, 'settings.unlock', { pin: PIN }));
  const p = await call<{ settings: Record<string, unknown> }>(core, 'settings.getProfile', { profile: 'demo' });
  if (p.settings.counterName !== name)
    await call(core, 'settings.saveProfile', { profile: 'demo', settings: { ...p.settings, counterName: name } });
  await ensureShift((n, a) => call(core, n, a));
  return core;
}
async function stop(core: Core): Promise<void> {
  live.splice(live.indexOf(core), 1);
  await core.stop();
}
async function call<T>(core: Core, name: string, args: unknown = {}): Promise<T> {
  const r = await core.dispatch(name, args, ctx);
  if (!r.ok) throw Object.assign(new Error(`${name}: ${r.error.code} ${r.error.message}`), { code: r.error.code });
  return r.value as T;
}
/** Resolves with the first event `name` whose payload passes `ok`, or at once when `now()` already does. */
function reaches<T>(core: Core, name: string, ok: (v: T) => boolean, now?: () => Promise<T>): Promise<T> {
  return new Promise((resolve) => {
    const off = core.events.subscribe((n, payload) => {
      if (n === name && ok(payload as T)) {
        off();
        resolve(payload as T);
      }
    });
    void now?.().then((v) => {
      if (ok(v)) {
        off();
        resolve(v);
      }
    });
  });
}
const hubCopy = (core: Core, version: number) =>
  reaches<ProgrammeSummary>(
    core,
    'programme.changed',
    (s) => s.source?.kind === 'hub' && s.source.version >= version,
    () => call(core, 'programme.summary'),
  );
/** The Hub holds everything the counter wrote up to `since` (a sync answered after it, nothing left to send). */
const synced = (core: Core, since: number) =>
  reaches<HubLinkView>(
    core,
    'hub.changed',
    (v) => v.toSync === 0 && v.sync === 'synced' && (v.lastSyncAt ?? 0) >= since,
    () => call(core, 'hub.status'),
  );

function slot(offsetMin: number) {
  const t = Math.floor((Date.now() + offsetMin * MIN) / MIN) * MIN;
  return { date: lagosDate(t), time: lagosHm(t) };
}
function programme(price: number): Programme {
  const a = slot(60);
  const b = slot(150);
  return {
    films: [
      { name: 'Dune 2', title: 'DUNE: PART TWO', rating: '12A' },
      { name: 'Inside Out 2', title: 'INSIDE OUT 2', rating: 'PG' },
    ],
    screens: ['Screen 1', 'Screen 2'],
    shows: [
      {
        film: 'Dune 2',
        screen: 'Screen 1',
        date: a.date,
        time: a.time,
        ticketTypes: [{ name: 'Adult', priceKobo: price, bookingFeeKobo: 20_000 }],
      },
      {
        film: 'Inside Out 2',
        screen: 'Screen 2',
        date: b.date,
        time: b.time,
        ticketTypes: [{ name: 'Adult', priceKobo: 350_000, bookingFeeKobo: 0 }],
      },
    ],
  };
}

describe('the programme and the seat check through the Hub', () => {
  let hub: TestHub;
  let manager: Manager;
  const dirs = {
    a: mkdtempSync(join(tmpdir(), 'counterpay-prog-a-')),
    b: mkdtempSync(join(tmpdir(), 'counterpay-prog-b-')),
  };
  let A: Core;
  let B: Core;
  let branch: string;

  beforeAll(async () => {
    hub = await startTestHub();
    A = await boot(dirs.a, 'Counter 1');
    B = await boot(dirs.b, 'Counter 2');
    for (const core of [A, B]) {
      const v = await call<HubLinkView>(core, 'hub.enroll', { hubUrl: hub.url, code: await issueCode(hub) });
      branch = v.branch!;
    }
    await createManager(
      hub.db,
      { name: 'Manager', password: 'manager password 1', role: 'branch', branch },
      hub.ctx.now(),
    );
    manager = new Manager(hub.url);
    expect((await manager.login('Manager', 'manager password 1')).status).toBe(200);
  });
  afterAll(async () => {
    while (live.length) await live.pop()!.stop();
    await hub?.stop();
  });

  it('a programme set on the Hub reaches both counters over their relay streams; one that was off gets the newer one when it is back', async () => {
    const t0 = Date.now();
    const both = Promise.all([hubCopy(A, 1), hubCopy(B, 1)]);
    expect((await manager.put('/programme', { programme: programme(450_000) })).status).toBe(200);
    const [sa, sb] = await both;
    console.info(`programme v1 on both counters ${Date.now() - t0} ms after the manager's save`);
    expect(sa).toMatchObject({ films: 2, shows: 2, source: { kind: 'hub', version: 1 } });
    expect(sb).toMatchObject({ films: 2, shows: 2, source: { kind: 'hub', version: 1 } });
    const shows = await call<NextShows>(B, 'programme.next');
    expect(shows.shows.map((s) => [s.filmName, s.ticketTypes[0]!.priceKobo])).toEqual([
      ['Dune 2', 450_000],
      ['Inside Out 2', 350_000],
    ]);

    // B is off while the manager changes the price; A follows at once.
    await stop(B);
    const a2 = hubCopy(A, 2);
    expect((await manager.put('/programme', { programme: programme(500_000) })).status).toBe(200);
    await a2;
    // B starts again from its own files: its last copy first, then the newer one on connecting.
    B = await boot(dirs.b, 'Counter 2');
    const before = await call<ProgrammeSummary>(B, 'programme.summary');
    expect(before.source).toMatchObject({ kind: 'hub' });
    await hubCopy(B, 2);
    expect((await call<NextShows>(B, 'programme.next')).shows[0]!.ticketTypes[0]!.priceKobo).toBe(500_000);
  });

  it("a sale on one counter is seen by the other counter's seat check: waiting, then paid; a failed sale frees its seats", async () => {
    const showA = (await call<NextShows>(A, 'programme.next')).shows[0]!;
    const showB = (await call<NextShows>(B, 'programme.next')).shows[0]!;
    expect(await call<SeatCheckResult>(B, 'programme.checkSeats', { showId: showB.id, seats: 'F7 F8' })).toEqual({
      kind: 'checked',
      conflicts: [],
    });

    const t0 = Date.now();
    const sold = await call<OrderView>(A, 'programme.charge', {
      showId: showA.id,
      ticketType: 'Adult',
      seats: 'f7 f8',
      sn: 'DEMO-POS-0001',
    });
    await synced(A, Date.now());
    console.info(`sale on A held by the Hub ${Date.now() - t0} ms after the charge call`);
    const waiting = await call<SeatCheckResult>(B, 'programme.checkSeats', { showId: showB.id, seats: 'F7 F9' });
    expect(waiting).toMatchObject({
      kind: 'checked',
      conflicts: [{ seat: 'F7', counterName: 'Counter 1', state: 'waiting' }],
    });

    const paid = orderReaches(A, sold.id, 'paid');
    await call(A, 'demo.present', { outcome: 'SUCCESS' });
    await paid;
    await synced(A, Date.now());
    const after = await call<SeatCheckResult>(B, 'programme.checkSeats', { showId: showB.id, seats: 'F8' });
    expect(after).toMatchObject({
      kind: 'checked',
      conflicts: [{ seat: 'F8', counterName: 'Counter 1', state: 'paid' }],
    });

    // A sale that fails leaves its seats free again.
    const second = await call<OrderView>(B, 'programme.charge', {
      showId: showB.id,
      ticketType: 'Adult',
      seats: 'G1',
      sn: 'DEMO-POS-0001',
    });
    await orderReaches(B, second.id, 'waiting');
    const failed = orderReaches(B, second.id, 'failed');
    await call(B, 'demo.present', { outcome: 'FAIL' });
    await failed;
    await synced(B, Date.now());
    expect(await call<SeatCheckResult>(A, 'programme.checkSeats', { showId: showA.id, seats: 'G1' })).toEqual({
      kind: 'checked',
      conflicts: [],
    });
  });

  it('a Hub that does not answer, or is gone, makes the check "skipped" at the deadline; the counter keeps its copy', async () => {
    const show = (await call<NextShows>(A, 'programme.next')).shows[0]!;
    const port = hub.port;
    await hub.stop();
    // Gone: nothing listens at the address.
    let t = performance.now();
    const gone = await call<SeatCheckResult>(A, 'programme.checkSeats', { showId: show.id, seats: 'F7' });
    const goneMs = performance.now() - t;
    expect(gone).toMatchObject({ kind: 'skipped' });
    // Silent: the address takes the connection and never answers.
    const held: Socket[] = [];
    const silent: Server = createServer((s) => held.push(s));
    await new Promise<void>((ok, fail) => silent.once('error', fail).listen(port, '127.0.0.1', () => ok()));
    try {
      t = performance.now();
      const late = await call<SeatCheckResult>(A, 'programme.checkSeats', { showId: show.id, seats: 'F7' });
      const lateMs = performance.now() - t;
      expect(late).toEqual({ kind: 'skipped', reason: expect.stringContaining('did not answer in time') });
      console.info(
        `seat check skipped: Hub gone ${goneMs.toFixed(0)} ms, Hub silent ${lateMs.toFixed(0)} ms (deadline 300 ms)`,
      );
    } finally {
      for (const s of held) s.destroy();
      await new Promise((r) => silent.close(r));
    }
    // The copy stays and sells.
    expect((await call<NextShows>(A, 'programme.next')).shows.length).toBe(2);
  });
});
