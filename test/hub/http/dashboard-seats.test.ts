// The dashboard's seat API on a real Hub (PGlite in memory, HTTP on loopback): head office uploads a
// screen's layout (refused with errors by row and seat when wrong; a branch manager may not), the
// branch's counters are told and fetch it with the programme; occupancy per show counted by the Hub
// (sold / held / free of the layout's capacity, practice apart); one show's seats; a seat sold twice
// (a paid sale made offline for a seat another sale had) in Needs attention with both sales, seen
// only within the manager's scope.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AttentionView } from '../../../shared/hub-dashboard-contract';
import type { HubProgramme } from '../../../shared/hub-programme-contract';
import {
  SOLD_TWICE_PER_BRANCH,
  type OccupancyView,
  type ScreensView,
  type ShowSeatsView,
  type SoldTwiceView,
  type UploadLayoutResult,
} from '../../../shared/hub-seats-contract';
import { showKey, type Programme } from '../../../shared/programme';
import { checkLayoutFile, parseLayout } from '../../../shared/seat-layout';
import { createManager } from '../../../hub/store/managers';
import { CounterJournal, Manager } from '../helpers/dashboard-client';
import { bearer, enroll, get, post, startTestHub, type TestHub } from '../helpers/hub-harness';
import { soldInJournal } from '../helpers/seat-show';
import { RelayClient } from '../helpers/sse-client';

const PW = 'manager password 1';
const DAY = '2026-11-27';
const SCREEN_1 = readFileSync(join(__dirname, '../../../examples/layouts/screen-1.json'), 'utf8');
const SHOW = { filmName: 'Dune 2', filmTitle: 'DUNE: PART TWO', date: DAY, time: '19:30', screen: 'Screen 1' };
const KEY = showKey(SHOW);
const SEAT_SHOW_B1 = SHOW;

const programme: Programme = {
  films: [{ name: 'Dune 2', title: 'DUNE: PART TWO', rating: '12A' }],
  screens: ['Screen 1', 'Screen 2'],
  shows: [
    {
      film: 'Dune 2',
      screen: 'Screen 1',
      date: DAY,
      time: '19:30',
      ticketTypes: [{ name: 'Adult', priceKobo: 450_000, bookingFeeKobo: 0 }],
    },
  ],
};

describe("the dashboard's seats on the Hub", () => {
  let hub: TestHub;
  const HO = { m: null as unknown as Manager };
  let M1: Manager;
  let M2: Manager;
  const cred: Record<string, string> = {};
  const streams: RelayClient[] = [];
  let n = 0;

  beforeAll(async () => {
    hub = await startTestHub();
    for (const [name, role, branch] of [
      ['HO', 'head-office', null],
      ['M1', 'branch', 'B1'],
      ['M2', 'branch', 'B2'],
    ] as const)
      await createManager(hub.db, { name, password: PW, role, branch }, hub.ctx.now());
    HO.m = new Manager(hub.url);
    M1 = new Manager(hub.url);
    M2 = new Manager(hub.url);
    expect((await HO.m.login('HO', PW)).status).toBe(200);
    expect((await M1.login('M1', PW)).status).toBe(200);
    expect((await M2.login('M2', PW)).status).toBe(200);
    cred.c1 = (await enroll(hub, 'Counter 1', 'B1')).credential;
    cred.c2 = (await enroll(hub, 'Counter 2', 'B1')).credential;
    expect((await HO.m.put('/programme', { branch: 'B1', programme })).status).toBe(200);
  });
  afterAll(async () => {
    for (const s of streams) await s.disconnect();
    await hub?.stop();
  });

  const hold = (who: 'c1' | 'c2', seats: string[], practice = false) => {
    const orderKey = `${who === 'c1' ? 'COU1' : 'COU2'}-261127-${String(++n).padStart(4, '0')}`;
    return post(
      `${hub.url}/api/v1/seats/hold`,
      { orderKey, show: SHOW, seats, practice, holdMs: 600_000 },
      bearer(cred[who]!),
    ).then((r) => {
      expect(r.status, JSON.stringify(r.json)).toBe(200);
      return { orderKey, kind: String(r.json.kind) };
    });
  };

  const journals: Record<string, CounterJournal> = {};
  const journal = (who: 'c1' | 'c2') => (journals[who] ??= new CounterJournal(hub.url, cred[who]!));
  /** The counter's journal syncs the sale paid with these seats: the only way a seat becomes sold. */
  const paid = (who: 'c1' | 'c2', orderKey: string, seats: string[]) => {
    const j = journal(who);
    return j.sync(soldInJournal(j, orderKey, seats, 'paid', SEAT_SHOW_B1));
  };

  it('head office uploads a layout: refused with errors by row and seat when wrong, never by a branch manager', async () => {
    const bad = JSON.stringify({
      format: 'counterpay-seat-layout/1',
      screen: 'Screen 1',
      rows: [{ row: 'A', seats: '1-4 9q' }],
    });
    const r = await HO.m.post('/screens/layout', { branch: 'B1', text: bad, fileName: 'screen-1.json' });
    expect(r.status).toBe(200);
    const v = r.json as unknown as UploadLayoutResult;
    expect(v.result.kind).toBe('refused');
    expect(v.result.kind === 'refused' && v.result.errors[0]).toMatchObject({ row: 'A', cell: '9q' });
    expect(v.screens.screens.map((s) => [s.screen, s.inProgramme, s.layout])).toEqual([
      ['Screen 1', true, null],
      ['Screen 2', true, null],
    ]);
    const m1 = await M1.post('/screens/layout', { branch: 'B1', text: SCREEN_1, fileName: 'screen-1.json' });
    expect(m1.status).toBe(403);
    const big = await HO.m.post('/screens/layout', { branch: 'B1', text: 'x'.repeat(200_001) });
    expect(big.status).toBe(400);
    expect(JSON.stringify(big.json)).toContain('too large');
  });

  it("a layout uploaded reaches the branch's counters with the programme (its version moves on, the stream says so)", async () => {
    const s = new RelayClient(hub.url, cred.c1!);
    streams.push(s);
    await s.connect();
    const before = (await get(`${hub.url}/api/v1/programme`, bearer(cred.c1!))).json as unknown as HubProgramme;
    await s.until(() => s.events.some((e) => e.event === 'programme'));
    const r = await HO.m.post('/screens/layout', { branch: 'B1', text: SCREEN_1, fileName: 'screen-1.json' });
    const v = r.json as unknown as UploadLayoutResult;
    const want = parseLayout(SCREEN_1, 'screen-1.json');
    if (want.kind !== 'ok') throw new Error('the example layout does not parse');
    expect(v.result).toEqual({ kind: 'imported', screen: 'Screen 1', capacity: want.layout.capacity });
    expect(v.screens.screens[0]).toMatchObject({ screen: 'Screen 1', fileName: 'screen-1.json', updatedBy: 'HO' });
    expect(v.screens.screens[0]!.layout).toEqual(want.layout);
    await s.until(() => s.events.some((e) => e.event === 'programme' && e.data.includes(`${before.version + 1}`)));
    const after = (await get(`${hub.url}/api/v1/programme`, bearer(cred.c1!))).json as unknown as HubProgramme;
    expect(after.version).toBe(before.version + 1);
    expect(after.programme?.layouts).toHaveLength(1);
    // The file the counters get reads back to the very layout the Hub checked.
    const back = checkLayoutFile(after.programme!.layouts![0]);
    expect(back.kind === 'ok' && back.layout).toEqual(want.layout);
    // Another branch's manager sees nothing of it.
    expect((await M2.get('/screens?branch=B1')).status).toBe(403);
    expect(((await M1.get('/screens')).json as unknown as ScreensView).screens[0]!.layout?.capacity).toBe(
      want.layout.capacity,
    );
  });

  it('occupancy per show: sold, held and free of the capacity, counted by the Hub (practice apart)', async () => {
    const a = await hold('c1', ['A1', 'A2']);
    const b = await hold('c2', ['A3']);
    await hold('c2', ['A4'], true);
    await paid('c2', b.orderKey, ['A3']);
    expect(a.kind).toBe('held');
    const o = (await M1.get(`/seats/occupancy?day=${DAY}`)).json as unknown as OccupancyView;
    const cap = ((await M1.get('/screens')).json as unknown as ScreensView).screens[0]!.layout!.capacity;
    expect(o.shows).toEqual([
      expect.objectContaining({
        showKey: KEY,
        screen: 'Screen 1',
        filmName: 'Dune 2',
        capacity: cap,
        sold: 1,
        held: 2,
        free: cap - 3,
        soldTwice: 0,
      }),
    ]);
    const one = (await M1.get(`/seats/show?showKey=${encodeURIComponent(KEY)}`)).json as unknown as ShowSeatsView;
    expect(one.taken.map((t) => [t.seat, t.state, t.counterName])).toEqual([
      ['A1', 'held', 'Counter 1'],
      ['A2', 'held', 'Counter 1'],
      ['A3', 'sold', 'Counter 2'],
    ]);
    expect(one.layout?.capacity).toBe(cap);
    expect((await M2.get(`/seats/show?branch=B1&showKey=${encodeURIComponent(KEY)}`)).status).toBe(403);
    expect(
      (await M1.get(`/seats/show?showKey=${encodeURIComponent("2026-11-27 19:30 x' or 1=1 --".repeat(4))}`)).status,
    ).toBe(400);
  });

  it('a seat sold twice (a paid sale made offline for a seat already sold) is in Needs attention with both sales', async () => {
    const first = await hold('c1', ['B7']);
    await paid('c1', first.orderKey, ['B7']);
    // Counter 2 sold B7 and B8 while it could not reach the Hub; its journal syncs now.
    const offline = `COU2-261127-${String(++n).padStart(4, '0')}`;
    await paid('c2', offline, ['B7', 'B8']);
    const twice = (await M1.get('/seats/sold-twice')).json as unknown as SoldTwiceView;
    expect(twice.counts).toEqual([{ branch: 'B1', seats: 1 }]);
    expect(twice.lines).toEqual([
      {
        branch: 'B1',
        practice: false,
        showKey: KEY,
        seat: 'B7',
        sales: [
          expect.objectContaining({ reference: first.orderKey, counterName: 'Counter 1' }),
          expect.objectContaining({ reference: offline, counterName: 'Counter 2' }),
        ],
      },
    ]);
    const seats = (await M1.get(`/seats/show?showKey=${encodeURIComponent(KEY)}`)).json as unknown as ShowSeatsView;
    expect(seats.taken.find((t) => t.seat === 'B8')).toMatchObject({ state: 'sold', reference: offline });
    expect(seats.occupancy.soldTwice).toBe(1);
    const att = (await M1.get('/attention')).json as unknown as AttentionView;
    const line = att.lines.find((l) => l.kind === 'seat-sold-twice');
    expect(line?.subject).toContain(first.orderKey);
    expect(line?.subject).toContain(offline);
    const other = (await M2.get('/attention')).json as unknown as AttentionView;
    expect(other.lines.some((l) => l.kind === 'seat-sold-twice')).toBe(false);
  });

  it('sold twice: the newest first in each branch, at most SOLD_TWICE_PER_BRANCH listed, with the count; another branch is not crowded out', async () => {
    // Branch B1 gets many seats sold twice (offline sales of seats already sold), then B2 gets one.
    const j1 = journal('c1');
    const j2 = journal('c2');
    const rows = 'CDEFG'.split('');
    const seats = rows
      .flatMap((r) => Array.from({ length: 12 }, (_, i) => `${r}${i + 1}`))
      .slice(0, SOLD_TWICE_PER_BRANCH + 5);
    const base = Date.now() - 60_000;
    await j1.sync(soldInJournal(j1, `COU1-261127-${String(++n).padStart(4, '0')}`, seats, 'paid', SEAT_SHOW_B1, base));
    await j2.sync(
      soldInJournal(j2, `COU2-261127-${String(++n).padStart(4, '0')}`, seats, 'paid', SEAT_SHOW_B1, base + 1),
    );
    const b2 = await enroll(hub, 'Zed 1', 'B2');
    await HO.m.put('/programme', { branch: 'B2', programme });
    const z1 = new CounterJournal(hub.url, b2.credential);
    const z2 = new CounterJournal(hub.url, (await enroll(hub, 'Zed 2', 'B2')).credential);
    await z1.sync(soldInJournal(z1, 'ZED1-261127-0001', ['A9'], 'paid', SEAT_SHOW_B1));
    await z2.sync(soldInJournal(z2, 'ZED2-261127-0001', ['A9'], 'paid', SEAT_SHOW_B1));
    const all = (await HO.m.get('/seats/sold-twice')).json as unknown as SoldTwiceView;
    expect(all.counts).toEqual([
      { branch: 'B1', seats: SOLD_TWICE_PER_BRANCH + 6 },
      { branch: 'B2', seats: 1 },
    ]);
    expect(all.lines.filter((l) => l.branch === 'B1')).toHaveLength(SOLD_TWICE_PER_BRANCH);
    expect(all.lines.filter((l) => l.branch === 'B2').map((l) => l.seat)).toEqual(['A9']);
    // Newest first: B7 (the first test's) is the oldest of B1, not listed.
    const b1 = all.lines.filter((l) => l.branch === 'B1');
    expect(b1.some((l) => l.seat === 'B7')).toBe(false);
    const at = b1.map((l) => l.sales.at(-1)!.at);
    expect([...at].sort((x, y) => y - x)).toEqual(at);
    const att = ((await HO.m.get('/attention')).json as unknown as AttentionView).lines.filter(
      (l) => l.kind === 'seat-sold-twice',
    );
    expect(att.filter((l) => l.branch === 'B2')).toHaveLength(1);
    const more = att.filter((l) => l.branch === 'B1' && l.counterId === null);
    expect(more).toHaveLength(1);
    expect(more[0]!.subject).toBe(
      `${SOLD_TWICE_PER_BRANCH + 6} seats were sold twice in this branch: the newest ${SOLD_TWICE_PER_BRANCH} are listed above, 6 older ones are not`,
    );
  });

  it("head office releases a show's or a counter's held seats (audited); a branch manager may not; sold seats stay", async () => {
    await hold('c1', ['J1', 'J2']);
    const c2 = await hold('c2', ['J3']);
    const sold = await hold('c2', ['J4']);
    await paid('c2', sold.orderKey, ['J4']);
    const ids = ((await HO.m.get('/counters')).json as unknown as { counters: { id: string; name: string }[] })
      .counters;
    const c1Id = ids.find((c) => c.name === 'Counter 1')!.id;
    const show = async () =>
      (await M1.get(`/seats/show?showKey=${encodeURIComponent(KEY)}`)).json as unknown as ShowSeatsView;
    expect((await show()).taken.find((t) => t.seat === 'J1')).toMatchObject({ counterId: c1Id, state: 'held' });
    expect((await M1.post('/seats/release', { branch: 'B1', showKey: KEY })).status).toBe(403);
    const bad = await HO.m.post('/seats/release', { branch: 'B1' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.json)).toContain('Name the show (showKey) or the counter (counterId)');
    const c1Held = (await show()).taken.filter((t) => t.counterId === c1Id && t.state === 'held').length;
    expect(c1Held).toBeGreaterThanOrEqual(2);
    const one = await HO.m.post('/seats/release', { branch: 'B1', counterId: c1Id });
    expect(one.json).toEqual({ released: c1Held });
    expect((await show()).taken.filter((t) => /^J/.test(t.seat)).map((t) => `${t.seat}:${t.state}`)).toEqual([
      'J3:held',
      'J4:sold',
    ]);
    const all = await HO.m.post('/seats/release', { branch: 'B1', showKey: KEY });
    expect((all.json as { released: number }).released).toBeGreaterThanOrEqual(1);
    expect((await show()).taken.filter((t) => t.state === 'held')).toEqual([]);
    expect((await show()).taken.find((t) => t.seat === 'J4')).toMatchObject({ state: 'sold' });
    // The counter's hold is gone: its seat is free for another sale.
    expect((await hold('c1', ['J3'])).kind).toBe('held');
    expect(c2.kind).toBe('held');
    const audit = (await HO.m.get('/audit')).json as unknown as {
      entries: { action: string; target: string; detail: string }[];
    };
    expect(audit.entries.filter((e) => e.action === 'programme.seats-released').map((e) => e.detail)).toEqual([
      expect.stringMatching(/ held seats? of show /),
      `${c1Held} held seats of counter ${c1Id}`,
    ]);
  });

  it('head office removes a layout: the screen is sold with typed seats again', async () => {
    const r = await HO.m.req(
      'DELETE',
      `/api/v1/dashboard/screens/layout?branch=B1&screen=${encodeURIComponent('screen 1')}`,
      undefined,
      {
        'x-csrf-token': HO.m.csrf!,
      },
    );
    expect(r.status).toBe(200);
    expect((r.json as unknown as ScreensView).screens[0]!.layout).toBeNull();
    const p = (await get(`${hub.url}/api/v1/programme`, bearer(cred.c1!))).json as unknown as HubProgramme;
    expect(p.programme?.layouts).toEqual([]);
  });

  it('the worst layout the limits allow (60 rows of 1-999 1-999 …) is refused at the range that passes the seat limit, before its seats are made', async () => {
    const rowName = (i: number) => String.fromCharCode(65 + (i % 26)).repeat(1 + Math.floor(i / 26));
    const seats = Array.from({ length: 333 }, () => '1-999').join(' ');
    const rows = Array.from({ length: 60 }, (_, i) => ({ row: rowName(i), seats }));
    const text = JSON.stringify({ format: 'counterpay-seat-layout/1', screen: 'Screen 2', zones: [], rows });
    const r = await HO.m.post('/screens/layout', { branch: 'B1', text, fileName: 'screen-2.json' });
    expect(r.status).toBe(200);
    const v = r.json as unknown as UploadLayoutResult;
    expect(v.result.kind === 'refused' && v.result.errors.map((e) => [e.row, e.cell])).toEqual([
      ['A', '1-999'],
      [null, null],
    ]);
    expect(v.screens.screens.find((s) => s.screen === 'Screen 2')!.layout).toBeNull();
  });
});
