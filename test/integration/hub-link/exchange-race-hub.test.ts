// Issue 39's race through a real Hub (HTTP on loopback), on PGlite and on a real PostgreSQL: two
// composed counter cores (Demo profile, each its journal on a real SQLite file) enrolled in one
// branch, one show on Screen 1 with the example layout. Each counter holds a paid cash sale of two
// seats; twenty times both exchange their tickets into the very same two seats at once
// (`refunds.exchange`, the admin PIN, the same price: nothing to pay). The exchange's new seats are
// held through the Hub before anything changes: each time exactly one is made (its old seats moved
// to the new sale) and the other is refused with its sale unchanged (no undo, no refund, no link).
// At the end no seat is sold twice: the Hub's live seat rows and both counters' journals name the
// same seats, each sold once, by the sale that holds it now.
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

/** The Hub holds everything the counter wrote up to `since` (a sync answered after it, nothing left to send). */
const synced = (env: SeatEnv, since: number) =>
  reaches<HubLinkView>(
    env.core,
    'hub.changed',
    (v) => v.toSync === 0 && v.sync === 'synced' && (v.lastSyncAt ?? 0) >= since,
    () => call(env.core, 'hub.status', {}),
  );

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

      // Both journals reach the Hub; then the Hub's seat rows and the journals name the same seats.
      const since = Date.now();
      await Promise.all([synced(A, since), synced(B, since)]);
      const rows = await hub.db.query<{ seat: string; order_key: string; state: string }>(
        `select seat, order_key, state from seat_holds where show_key = $1 and state in ('held', 'sold', 'double')`,
        [key],
      );
      const hubSold = rows.map((r) => `${r.seat}:${r.order_key}:${r.state}`).sort();
      const journals = [...journalSold(A), ...journalSold(B)];
      expect(hubSold).toEqual(journals.map((s) => `${s}:sold`).sort());
      // Each seat sold once, by the sale that holds it now: the twenty exchanges' new sales and the two sales left.
      const seatsSold = journals.map((s) => s.split(':')[0]);
      expect(new Set(seatsSold).size).toBe(seatsSold.length);
      expect(journals.sort()).toEqual(expected.sort());
      expect(journals).toHaveLength(2 * (ROUNDS + 2));
    },
    240_000,
  );
});
