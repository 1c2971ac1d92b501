// Issue 39's race through a real Hub (HTTP on loopback), on PGlite and on a real PostgreSQL: two
// composed counter cores (Demo profile, each its journal on a real SQLite file) enrolled in one
// branch, one show on Screen 1 with the example layout. Each counter holds a paid cash sale of two
// seats; twenty times both exchange their tickets into the very same two seats at once
// (`refunds.exchange`, the admin PIN, the same price: nothing to pay). The exchange's new seats are
// held through the Hub before anything changes: each time exactly one is made (its old seats moved
// to the new sale) and the other is refused with its sale unchanged (no undo, no refund, no link).
// At the end no seat is sold twice: the Hub's live seat rows and both counters' journals name the
// same seats, each sold once, by the sale that holds it now. Then twenty times a cancel frees two
// seats (Counter 1 and Counter 2 in turn sell them and cancel them with the admin PIN) and, once the
// Hub has taken the cancel in, both counters sell them at once: one sale paid, the other failed
// before any money was taken, and again the Hub and both journals agree. Each wait is for the Hub's
// state, asked again on each Hub link or seats event of the counters, never a sleep.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../../core/app-core';
import { openHubDb } from '../../../hub/db/open';
import { setProgramme } from '../../../hub/store/programme';
import { saveLayout } from '../../../hub/store/screen-layouts';
import type { HubLinkView } from '../../../shared/hub-link';
import type { OrderView } from '../../../shared/orders';
import { showKey, type NextShows, type Programme } from '../../../shared/programme';
import type { RefundView, SaleLinks } from '../../../shared/refunds';
import { checkLayoutFile } from '../../../shared/seat-layout';
import { issueCode, startTestHub, type TestHub } from '../../hub/helpers/hub-harness';
import { pgUnavailable, startPgCluster, type PgCluster } from '../../hub/helpers/pg-cluster';
import { call, LAYOUT, seatCounter, stopSeatCounters, type SeatEnv } from '../../helpers/seat-counter';

if (pgUnavailable) console.log(`the exchange race on real PostgreSQL skipped: ${pgUnavailable}`);

const ROUNDS = 20;
const PIN = '2468';
type Backend = { name: string; skip: string | null; url: () => Promise<string | null> };
let cluster: PgCluster | null = null;
const backends: Backend[] = [
  { name: 'PGlite', skip: null, url: async () => null },
  {
    name: 'PostgreSQL',
    skip: pgUnavailable,
    url: async () => {
      cluster = await startPgCluster();
      return cluster.createDatabase('exchangerace');
    },
  },
];

/** Resolves with the first event `name` whose payload passes `ok`, or at once when `now()` already does. */
function reaches<T>(core: Core, name: string, ok: (v: T) => boolean, now: () => Promise<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    let done = false;
    const finish = (v: T) => {
      if (done || !ok(v)) return;
      done = true;
      off();
      resolve(v);
    };
    const off = core.events.subscribe((n, payload) => {
      if (n === name) finish(payload as T);
    });
    now().then(finish, reject);
  });
}

/** Resolves once the core holds the branch's programme from the Hub. */
const hubProgramme = (env: SeatEnv) =>
  reaches<NextShows>(
    env.core,
    'programme.changed',
    (n) => n.source?.kind === 'hub',
    () => call(env.core, 'programme.next', {}),
  );

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

describe.each(backends)('twenty exchanges into the same seats from two counters, through a Hub on $name', (b) => {
  let hub: TestHub;
  let A: SeatEnv;
  let B: SeatEnv;
  let key: string;

  beforeAll(async () => {
    if (b.skip) return;
    const db = await openHubDb({ databaseUrl: await b.url(), dataDir: null });
    hub = await startTestHub({ db });
    A = await seatCounter();
    B = await seatCounter();
    // Both sell the very same show (the helper's show is an hour ahead, to the minute: make B's A's).
    const csv = [
      'film,title,rating,screen,date,time,ticketType,price,bookingFee',
      `Dune 2,DUNE: PART TWO,12A,Screen 1,${A.date},${A.time},Adult,1500,500`,
      `Dune 2,DUNE: PART TWO,12A,Screen 1,${A.date},${A.time},VIP,3000,500`,
    ].join('\n');
    await call(B.core, 'programme.import', { csv, fileName: 'week.csv', by: 'Ada' });
    B.date = A.date;
    B.time = A.time;
    key = showKey({ date: A.date, time: A.time, screen: 'Screen 1' });
    const demo = await call<{ settings: { merchantId: string } }>(A.core, 'settings.getProfile', { profile: 'demo' });
    const branch = demo.settings.merchantId;
    await setProgramme(hub.db, branch, programmeOfShow(A.date, A.time), 'Head office', Date.now());
    const layout = checkLayoutFile(JSON.parse(LAYOUT) as unknown);
    if (layout.kind !== 'ok') throw new Error('the example layout does not read');
    await saveLayout(hub.db, branch, layout.layout, 'screen-1.json', 'Head office', Date.now());
    for (const [env, name] of [
      [A, 'Counter 1'],
      [B, 'Counter 2'],
    ] as const) {
      const p = await call<{ settings: Record<string, unknown> }>(env.core, 'settings.getProfile', { profile: 'demo' });
      await call(env.core, 'settings.saveProfile', { profile: 'demo', settings: { ...p.settings, counterName: name } });
      const fromHub = hubProgramme(env);
      const v = await call<HubLinkView>(env.core, 'hub.enroll', { hubUrl: hub.url, code: await issueCode(hub) });
      expect(v.branch).toBe(branch);
      await fromHub;
    }
  }, 180_000);
  afterAll(async () => {
    await stopSeatCounters();
    await hub?.stop();
    await hub?.db.close().catch(() => undefined);
    cluster?.stop();
    cluster = null;
  });

  const tickets = (env: SeatEnv, seats: string[]) => ({
    filmName: 'Dune 2',
    filmTitle: 'DUNE: PART TWO',
    showDate: env.date,
    showTime: env.time,
    seats: seats.map((seat) => ({ seat, ticketType: 'Adult' })),
  });
  /** A paid cash sale of two Adult tickets (₦4,000.00). */
  const paidSale = async (env: SeatEnv, seats: string[]) => {
    const o = await call<OrderView>(env.core, 'sale.sellBasket', {
      tickets: tickets(env, seats),
      concessions: [],
      tender: { kind: 'cash', tenderedKobo: 400_000 },
    });
    expect(o.state).toBe('paid');
    return o;
  };
  type Exchanged = { from: OrderView; to: OrderView; refunds: RefundView[] };
  const exchange = (env: SeatEnv, orderId: number, into: string[]) =>
    env.core.dispatch(
      'refunds.exchange',
      {
        orderId,
        seats: [],
        to: tickets(env, into),
        reason: 'wrong-show-or-seats',
        approval: { pin: PIN },
        cashier: 'Ngozi',
      },
      { trusted: true, sender: 'test' },
    );
  const ofOrder = (env: SeatEnv, orderId: number) =>
    call<{ refunds: RefundView[]; links: SaleLinks }>(env.core, 'refunds.ofOrder', { orderId });
  /** The counter's own sold seats of the show, as its journal says: seat → the sale's number. */
  const journalSold = (env: SeatEnv) =>
    env.core.checkout
      .ownSeats(key)
      .filter((s) => s.state === 'sold')
      .map((s) => `${s.seat}:${s.outOrderNo}`)
      .sort();

  /**
   * Once both journals have reached the Hub: the Hub's live seat rows of the show are the seats both
   * journals say are sold, each by the same sale, none twice. Returns them ("F7:COU1-…", sorted).
   */
  async function hubAndJournalsAgree(): Promise<string[]> {
    const journals = [...journalSold(A), ...journalSold(B)].sort();
    const live = async () =>
      (
        await hub.db.query<{ seat: string; order_key: string; state: string }>(
          `select seat, order_key, state from seat_holds where show_key = $1 and state in ('held', 'sold', 'double')`,
          [key],
        )
      )
        .map((r) => `${r.seat}:${r.order_key}:${r.state}`)
        .sort();
    const want = journals.map((s) => `${s}:sold`);
    await until(async () => JSON.stringify(await live()) === JSON.stringify(want));
    expect(await live()).toEqual(want);
    const seats = journals.map((s) => s.split(':')[0]);
    expect(new Set(seats).size, 'no seat sold twice').toBe(seats.length);
    return journals;
  }

  /** Resolves once `ok()` holds: asked at once, and again on each Hub link or seats event of either counter (a sync answered, the Hub's signal). */
  function until(ok: () => Promise<boolean>): Promise<void> {
    return new Promise((resolve, reject) => {
      let done = false;
      let busy = false;
      let again = false;
      const offs: (() => void)[] = [];
      const end = () => {
        done = true;
        for (const off of offs) off();
      };
      const check = (): void => {
        if (done) return;
        if (busy) {
          again = true;
          return;
        }
        busy = true;
        ok().then(
          (yes) => {
            busy = false;
            if (yes) {
              end();
              resolve();
            } else if (again) {
              again = false;
              check();
            }
          },
          (err: unknown) => {
            end();
            reject(err instanceof Error ? err : new Error(String(err)));
          },
        );
      };
      for (const env of [A, B])
        offs.push(
          env.core.events.subscribe((name) => {
            if (name === 'hub.changed' || name === 'seats.changed') check();
          }),
        );
      check();
    });
  }

  it.skipIf(!!b.skip)(
    'each time one is made and the other refused with its sale unchanged; no seat sold twice, the Hub and both journals agree',
    async () => {
      // Pairs of free seats side by side: the sales' own in rows B, J, K, L; the exchanges' in rows E to G.
      const pairs = (rows: string[]) =>
        rows.flatMap((row) => [1, 3, 5, 7, 9, 11, 13, 15, 17, 19].map((n) => [`${row}${n}`, `${row}${n + 1}`]));
      const sources = pairs(['B', 'J', 'K', 'L']);
      const targets = pairs(['E', 'F', 'G']).slice(0, ROUNDS);
      const envs = { A, B };
      const cur: Record<'A' | 'B', OrderView> = {
        A: await paidSale(A, sources.shift()!),
        B: await paidSale(B, sources.shift()!),
      };
      /** What each seat should end as: sold by which sale. */
      const expected: string[] = [];
      const wins = { A: 0, B: 0 };
      for (const [round, into] of targets.entries()) {
        const before = { A: await ofOrder(A, cur.A.id), B: await ofOrder(B, cur.B.id) };
        const answers = await Promise.all([exchange(A, cur.A.id, into), exchange(B, cur.B.id, into)]);
        const made = answers.flatMap((r, i) => (r.ok ? [i === 0 ? 'A' : 'B'] : [])) as ('A' | 'B')[];
        expect(made, `round ${round + 1} (${into.join(', ')}): exactly one exchange made`).toHaveLength(1);
        const winner = made[0]!;
        const loser = winner === 'A' ? 'B' : 'A';
        const won = answers[winner === 'A' ? 0 : 1]!;
        const lost = answers[winner === 'A' ? 1 : 0]!;
        if (!won.ok || lost.ok) throw new Error('unreachable');
        // The winner: the new sale paid with the two seats, the old sale's seats moved to it.
        const to = (won.value as Exchanged).to;
        expect(to.state).toBe('paid');
        expect(to.seatHold).toMatchObject({ outcome: 'held', seats: into });
        const links = (await ofOrder(envs[winner], cur[winner].id)).links;
        expect(links.exchangedTo.map((l) => l.orderId)).toEqual([to.id]);
        expect(links.cancelledSeats.sort()).toEqual([...cur[winner].seatHold!.seats].sort());
        // The loser: refused in words the cashier reads, its sale as it was.
        expect(lost.error.code).toBe('CONFLICT');
        expect(lost.error.message).toMatch(
          new RegExp(
            `^The exchange was not made: .*just taken at Counter ${winner === 'A' ? 1 : 2}.*Sale ${cur[loser].outOrderNo} is unchanged\\.$`,
          ),
        );
        expect(await ofOrder(envs[loser], cur[loser].id)).toEqual(before[loser]);
        wins[winner] += 1;
        expected.push(...into.map((s) => `${s}:${to.outOrderNo}`));
        // The winner's customer has gone with the new seats: its next customer brings another paid sale.
        cur[winner] = await paidSale(envs[winner], sources.shift()!);
      }
      for (const k of ['A', 'B'] as const)
        expected.push(...cur[k].seatHold!.seats.map((s) => `${s}:${cur[k].outOrderNo}`));
      expect(wins.A + wins.B).toBe(ROUNDS);

      const journals = await hubAndJournalsAgree();
      // Each seat sold once, by the sale that holds it now: the twenty exchanges' new sales and the two sales left.
      expect(journals).toEqual(expected.sort());
      expect(journals).toHaveLength(2 * (ROUNDS + 2));
    },
    240_000,
  );

  it.skipIf(!!b.skip)(
    'twenty times a cancel frees two seats and both counters sell them at once: one sale paid, the other failed before any money, none sold twice',
    async () => {
      const before = await hubAndJournalsAgree();
      const envs = { A, B };
      const pairs = ['C', 'D'].flatMap((row) =>
        [1, 3, 5, 7, 9, 11, 13, 15, 17, 19].map((n) => [`${row}${n}`, `${row}${n + 1}`]),
      );
      const expected: string[] = [];
      for (const [round, seats] of pairs.entries()) {
        // Counter 1 and Counter 2 in turn sell the two seats, paid, and cancel them (the admin PIN).
        const who = round % 2 === 0 ? 'A' : 'B';
        const sale = await paidSale(envs[who], seats);
        await call(envs[who].core, 'refunds.cancel', {
          orderId: sale.id,
          seats,
          reason: 'customer-request',
          approval: { pin: PIN },
          cashier: 'Ngozi',
        });
        // The Hub has taken in the cancel: no live row of the two seats.
        await until(
          async () =>
            (
              await hub.db.query(
                `select 1 from seat_holds where show_key = $1 and seat = any($2::text[]) and state in ('held', 'sold', 'double')`,
                [key, seats],
              )
            ).length === 0,
        );
        // Right after: both sell them at once, in cash.
        const sell = (env: SeatEnv) =>
          call<OrderView>(env.core, 'sale.sellBasket', {
            tickets: tickets(env, seats),
            concessions: [],
            tender: { kind: 'cash', tenderedKobo: 400_000 },
          });
        const [a, b2] = await Promise.all([sell(A), sell(B)]);
        const states = [a.state, b2.state];
        expect(states.sort(), `round ${round + 1} (${seats.join(', ')}): one paid, one failed`).toEqual([
          'failed',
          'paid',
        ]);
        const won = a.state === 'paid' ? a : b2;
        const lost = a.state === 'paid' ? b2 : a;
        expect(won.seatHold).toMatchObject({ outcome: 'held', seats });
        expect(lost.seatHold).toMatchObject({ outcome: 'taken' });
        expect(lost.reason).toMatch(new RegExp(`just taken at Counter ${won === a ? 1 : 2}`));
        expected.push(...seats.map((s) => `${s}:${won.outOrderNo}`));
      }
      const after = await hubAndJournalsAgree();
      expect(after).toEqual([...before, ...expected].sort());
    },
    240_000,
  );
});
