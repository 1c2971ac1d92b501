// The programme on a real Hub (PGlite in memory, HTTP on loopback): set as JSON or imported from a
// file by a manager, scoped by branch; read by the branch's counters with their credential and told
// on their relay streams (never another branch's); the seat check over the journal's projections
// (paid and open sales hold a seat, failed, cancelled and expired ones free it; practice apart; the
// other branch never counts); a day's shows with their fill.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderState } from '../../../shared/orders';
import { createManager } from '../../../hub/store/managers';
import { lagosDate, lagosDayStart } from '../../../shared/time';
import type {
  DashProgrammeView,
  HubProgramme,
  ImportProgrammeResult,
  SeatCheckResponse,
  ShowsView,
} from '../../../shared/hub-programme-contract';
import type { Programme } from '../../../shared/programme';
import { CounterJournal, Manager } from '../helpers/dashboard-client';
import { bearer, enroll, get, post, startTestHub, type TestHub } from '../helpers/hub-harness';
import { RelayClient } from '../helpers/sse-client';

const PW = 'manager password 1';
const H = 3_600_000;

describe('the programme on the Hub', () => {
  let hub: TestHub;
  let day: string;
  let T0: number;
  let HO: Manager;
  let M1: Manager;
  let M2: Manager;
  let a1: CounterJournal;
  let a2: CounterJournal;
  let z1: CounterJournal;
  const cred: Record<string, string> = {};
  const streams: RelayClient[] = [];

  const programme = (d: string, price = 450_000): Programme => ({
    films: [
      { name: 'Dune 2', title: 'DUNE: PART TWO', rating: '12A' },
      { name: 'Inside Out 2', title: 'INSIDE OUT 2', rating: 'PG' },
    ],
    screens: ['Screen 1', 'Screen 2'],
    shows: [
      {
        film: 'Dune 2',
        screen: 'Screen 1',
        date: d,
        time: '19:30',
        ticketTypes: [
          { name: 'Adult', priceKobo: price, bookingFeeKobo: 20_000 },
          { name: 'Child', priceKobo: 300_000, bookingFeeKobo: 20_000 },
        ],
      },
      {
        film: 'Inside Out 2',
        screen: 'Screen 2',
        date: d,
        time: '18:00',
        ticketTypes: [{ name: 'Adult', priceKobo: 350_000, bookingFeeKobo: 0 }],
      },
    ],
  });
  const sale = (seats: string, film = 'Dune 2') => ({
    filmName: film,
    filmTitle: 'DUNE: PART TWO',
    showDate: day,
    showTime: '19:30',
    seats,
    tickets: seats.split(',').length,
    priceKobo: 450_000,
    bookingFeeKobo: 20_000,
  });

  beforeAll(async () => {
    hub = await startTestHub();
    day = lagosDate(Date.now());
    T0 = lagosDayStart(day) + 15 * H;
    // The Hub's clock reads 15:10 of the same Lagos day: the sales below are minutes old whatever
    // the time of the run (an open sale keeps its seats only MAX_HOLD_MS from when it was made).
    hub.clock.offsetMs = T0 + 10 * 60_000 - Date.now();
    for (const [name, role, branch] of [
      ['HO', 'head-office', null],
      ['M1', 'branch', 'B1'],
      ['M2', 'branch', 'B2'],
    ] as const) {
      await createManager(hub.db, { name, password: PW, role, branch }, hub.ctx.now());
    }
    HO = new Manager(hub.url);
    M1 = new Manager(hub.url);
    M2 = new Manager(hub.url);
    for (const [m, n] of [
      [HO, 'HO'],
      [M1, 'M1'],
      [M2, 'M2'],
    ] as const)
      expect((await m.login(n, PW)).status).toBe(200);
    const e = {
      a1: await enroll(hub, 'Counter 1', 'B1'),
      a2: await enroll(hub, 'Counter 2', 'B1'),
      z1: await enroll(hub, 'Zed 1', 'B2'),
    };
    for (const [k, v] of Object.entries(e)) cred[k] = v.credential;
    a1 = new CounterJournal(hub.url, cred.a1!);
    a2 = new CounterJournal(hub.url, cred.a2!);
    z1 = new CounterJournal(hub.url, cred.z1!);
  });
  afterAll(async () => {
    for (const s of streams) await s.disconnect();
    await hub?.stop();
  });

  const stream = async (who: string) => {
    const s = new RelayClient(hub.url, cred[who]!);
    streams.push(s);
    await s.connect();
    return s;
  };
  const told = (s: RelayClient) =>
    s.events.filter((e) => e.event === 'programme').map((e) => (JSON.parse(e.data) as { version: number }).version);

  it('a manager sets the branch programme; its counters are told on their streams at once, another branch is not', async () => {
    const s1 = await stream('a1');
    const sz = await stream('z1');
    await s1.until(() => s1.heartbeats() > 0);
    expect(told(s1)).toEqual([]); // nothing set yet: nothing told

    const r = await M1.put('/programme', { programme: programme(day) });
    expect(r.status).toBe(200);
    const v = r.json as unknown as DashProgrammeView;
    expect(v).toMatchObject({
      branch: 'B1',
      version: 1,
      updatedBy: 'M1',
      films: 2,
      screens: 2,
      shows: 2,
      firstDate: day,
      lastDate: day,
    });
    await s1.until(() => told(s1).includes(1));

    // The counter reads it with its credential: exactly what was set.
    const got = (await get(`${hub.url}/api/v1/programme`, bearer(cred.a1!))).json as unknown as HubProgramme;
    expect(got).toMatchObject({ branch: 'B1', version: 1 });
    // The screens' layouts travel with it (none set here).
    expect(got.programme).toEqual({ ...programme(day), layouts: [] });
    // The other branch has none, and its stream was told nothing.
    expect((await get(`${hub.url}/api/v1/programme`, bearer(cred.z1!))).json).toMatchObject({
      branch: 'B2',
      version: 0,
      programme: null,
    });
    await sz.until(() => sz.heartbeats() >= 3);
    expect(told(sz)).toEqual([]);

    // A stream opened later is told the current version when it opens.
    const s2 = await stream('a2');
    await s2.until(() => told(s2).length > 0);
    expect(told(s2)).toEqual([1]);
  });

  it('scope: a branch manager sets only their branch; head office names one; writes need the CSRF header; JSON errors name the field', async () => {
    expect((await M2.put('/programme', { branch: 'B1', programme: programme(day) })).json).toMatchObject({
      code: 'HUB_FORBIDDEN',
    });
    expect((await M2.get('/programme?branch=B1')).status).toBe(403);
    const noBranch = await HO.put('/programme', { programme: programme(day) });
    expect(noBranch.status).toBe(400);
    expect(String(noBranch.json.message)).toContain('Name the branch');
    expect((await M1.put('/programme', { programme: programme(day) }, { 'x-csrf-token': 'nope' })).status).toBe(403);
    expect((await new Manager(hub.url).get('/programme')).status).toBe(401);

    const bad = programme(day);
    bad.shows[0]!.film = 'Dune 3';
    bad.shows[1]!.time = '25:00';
    const r = await M1.put('/programme', { programme: bad });
    expect(r.status).toBe(400);
    const issues = (r.json.details as { issues: { path: string; message: string }[] }).issues;
    expect(issues).toEqual(
      expect.arrayContaining([
        { path: 'programme.shows.0.film', message: expect.stringContaining('Dune 3, which is not in the programme') },
        { path: 'programme.shows.1.time', message: expect.stringContaining('HH:mm') },
      ]),
    );
    // Nothing was kept: still version 1.
    expect((await M1.get('/programme')).json).toMatchObject({ version: 1 });
    // Head office reads any branch it names.
    expect((await HO.get('/programme?branch=B1')).json).toMatchObject({ version: 1, shows: 2 });
  });

  it("a file is checked whole with the counter's rules: errors by line and column and nothing kept; a right file replaces it and is told", async () => {
    const s1 = await stream('a1');
    const tpl = await M1.get('/programme/template.csv');
    expect(tpl.status).toBe(200);
    expect(tpl.text.split('\r\n')[0]).toBe('film,title,rating,screen,date,time,ticketType,price,bookingFee');

    const wrong = [
      'film,title,rating,screen,date,time,ticketType,price,bookingFee',
      `Dune 2,DUNE: PART TWO,12A,Screen 1,${day},19:30,Adult,4500,200`,
      `Dune 2,DUNE: PART TWO,12A,Screen 1,31/03/2025,7pm,Adult,4,500,`,
      `Dune 2,DUNE,12A,Screen 1,${day},21:00,Adult,abc,`,
    ].join('\r\n');
    const r1 = (await M1.post('/programme/import', { csv: wrong, fileName: 'week.csv' }))
      .json as unknown as ImportProgrammeResult;
    expect(r1).toMatchObject({ imported: false, totalRows: 3, programme: { version: 1 } });
    expect(r1.errors.map((e) => [e.line, e.column])).toEqual([
      [3, ''],
      [4, 'price'],
    ]);
    expect(r1.errors[0]!.message).toContain('comma inside a value');

    const right = [
      'film,title,rating,screen,date,time,ticketType,price,bookingFee',
      `Dune 2,DUNE: PART TWO,12A,Screen 1,${day},19:30,Adult,4600,200`,
      `Dune 2,DUNE: PART TWO,12A,Screen 1,${day},19:30,Child,3000,200`,
      `Inside Out 2,INSIDE OUT 2,PG,Screen 2,${day},18:00,Adult,3500,`,
    ].join('\r\n');
    const r2 = (await M1.post('/programme/import', { csv: right, fileName: 'week.csv' }))
      .json as unknown as ImportProgrammeResult;
    expect(r2).toMatchObject({ imported: true, totalRows: 3, errorCount: 0, programme: { version: 2, shows: 2 } });
    await s1.until(() => told(s1).includes(2));
    const got = (await get(`${hub.url}/api/v1/programme`, bearer(cred.a2!))).json as unknown as HubProgramme;
    expect(got.programme!.shows[0]!.ticketTypes[0]).toEqual({
      name: 'Adult',
      priceKobo: 460_000,
      bookingFeeKobo: 20_000,
    });
  });

  it('the seat check: paid and open sales of the show on any counter of the branch hold a seat; failed, cancelled, expired free it; practice and the other branch apart', async () => {
    const created = (
      j: CounterJournal,
      ref: string,
      at: number,
      seats: string,
      o: { profile?: string; film?: string } = {},
    ) =>
      j.ev('order.created', at, {
        reference: ref,
        amountKobo: 470_000,
        sn: 'SN',
        cashier: 'Ada',
        profile: o.profile ?? 'production',
        sale: sale(seats, o.film),
      });
    const st = (j: CounterJournal, ref: string, at: number, status: string) =>
      j.ev('order.status', at, { reference: ref, status: status as OrderState });
    await a1.sync([
      created(a1, 'R1', T0, 'F7'),
      st(a1, 'R1', T0 + 1, 'waiting'),
      st(a1, 'R1', T0 + 2, 'paid'),
      created(a1, 'R2', T0 + 10, 'F9,F10'),
      st(a1, 'R2', T0 + 11, 'failed'),
      created(a1, 'R3', T0 + 20, 'F11'),
      st(a1, 'R3', T0 + 21, 'cancelled'),
      created(a1, 'R4', T0 + 30, 'F12'),
      st(a1, 'R4', T0 + 31, 'expired'),
      created(a1, 'R5', T0 + 40, 'G1', { profile: 'demo' }),
      st(a1, 'R5', T0 + 41, 'paid'),
      created(a1, 'R6', T0 + 50, 'G2', { film: 'Inside Out 2' }),
      st(a1, 'R6', T0 + 51, 'paid'),
    ]);
    await a2.sync([
      created(a2, 'S1', T0 + 60_000, 'f8 f13'),
      st(a2, 'S1', T0 + 60_001, 'waiting'),
      created(a2, 'S2', T0 + 70_000, 'F14'),
    ]);
    await z1.sync([created(z1, 'Z1', T0, 'G2,F9'), st(z1, 'Z1', T0 + 1, 'paid')]);

    const ask = async (who: string, seats: string[], extra: Record<string, unknown> = {}) => {
      const r = await post(
        `${hub.url}/api/v1/seats/check`,
        {
          show: { filmName: 'dune 2', filmTitle: 'DUNE: PART TWO', date: day, time: '19:30', screen: 'Screen 1' },
          seats,
          ...extra,
        },
        bearer(cred[who]!),
      );
      expect(r.status).toBe(200);
      return (r.json as unknown as SeatCheckResponse).conflicts;
    };
    const showNoScreen = { filmName: 'dune 2', filmTitle: 'DUNE: PART TWO', date: day, time: '19:30' };
    const c = await ask('a2', ['F7', 'F8', 'F9', 'F10', 'F11', 'F12', 'F13', 'F14', 'G1', 'G2']);
    expect(c.map((x) => [x.seat, x.counterName, x.state, x.at])).toEqual([
      ['F7', 'Counter 1', 'paid', T0],
      ['F8', 'Counter 2', 'waiting', T0 + 60_000],
      ['F13', 'Counter 2', 'waiting', T0 + 60_000],
      ['F14', 'Counter 2', 'waiting', T0 + 70_000], // created, not yet answered: still held
    ]);
    // Practice sales count only for a practising counter.
    expect((await ask('a1', ['G1', 'F7'], { practice: true })).map((x) => x.seat)).toEqual(['G1']);
    // Branch B2 sees only its own sale. It has no programme: its sale is of no screen's show, so only a
    // check without the screen (an older counter: the film at that time on every screen) finds it.
    expect(await ask('z1', ['F7', 'F9'])).toEqual([]);
    expect((await ask('z1', ['F7', 'F9'], { show: showNoScreen })).map((x) => [x.seat, x.counterName])).toEqual([
      ['F9', 'Zed 1'],
    ]);
    // A seat freed by a failure and sold again is held by the new sale.
    await a1.sync([created(a1, 'R7', T0 + 90_000, 'F9'), st(a1, 'R7', T0 + 90_001, 'paid')]);
    expect((await ask('a2', ['F9'])).map((x) => [x.seat, x.state, x.at])).toEqual([['F9', 'paid', T0 + 90_000]]);
    // A malformed question says what is wrong; no credential, no answer.
    const bad = await post(
      `${hub.url}/api/v1/seats/check`,
      { show: { filmName: 'Dune 2', filmTitle: '', date: '31/03', time: '19:30' }, seats: ['F 7'] },
      bearer(cred.a1!),
    );
    expect(bad.status).toBe(400);
    expect(String(bad.json.message)).toMatch(/show\.date.*seats\.0/s);
    expect((await post(`${hub.url}/api/v1/seats/check`, { show: {}, seats: [] })).status).toBe(401);
  });

  it("a day's shows: fill per show from paid sales (practice apart), programme shows with none sold too; scoped by branch", async () => {
    const v = (await M1.get(`/shows?day=${day}`)).json as unknown as ShowsView;
    expect(v.day).toBe(day);
    expect(
      v.shows.map((s) => [
        s.time,
        s.filmName,
        s.screen,
        s.inProgramme,
        s.seatsSold,
        s.paidCount,
        s.cardTotalKobo,
        s.seatsHeld,
      ]),
    ).toEqual([
      ['18:00', 'Inside Out 2', 'Screen 2', true, 0, 0, 0, 0],
      ['19:30', 'Dune 2', 'Screen 1', true, 2, 2, 940_000, 2],
      // Sold for a show not in the programme (hand-typed): listed, without a screen.
      ['19:30', 'Inside Out 2', null, false, 1, 1, 470_000, 0],
    ]);
    expect(v.totals).toEqual({ shows: 3, seatsSold: 3, cardTotalKobo: 1_410_000, seatsHeld: 2 });
    const all = (await HO.get(`/shows?day=${day}`)).json as unknown as ShowsView;
    expect(
      all.shows.filter((s) => s.branch === 'B2').map((s) => [s.filmName, s.seatsSold, s.inProgramme, s.screen]),
    ).toEqual([['Dune 2', 2, false, null]]);
    // A branch manager never sees another branch's shows, even when naming it.
    expect(((await M2.get(`/shows?day=${day}&branch=B1`)).json as unknown as ShowsView).shows).toEqual([]);
    expect(((await M2.get(`/shows?day=${day}`)).json as unknown as ShowsView).shows.map((s) => s.branch)).toEqual([
      'B2',
    ]);
  });
});
