// The dashboard's query tables equal the journal they come from, after batches sent as counters
// really send them (repeated, overlapping, refused for a gap and resent) — each order's ledger columns
// (shared/ledger-row.ts) included, whichever batch brought its outcome — on PGlite and on a
// throwaway real PostgreSQL; and the order search on PostgreSQL answers what a plain filter of the
// journal answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HubDb } from '../../../hub/db/adapter';
import { num } from '../../../hub/db/adapter';
import { openHubDb } from '../../../hub/db/open';
import { enrollCounter, issueEnrollCode } from '../../../hub/store/counters';
import { searchOrders } from '../../../hub/store/dashboard-orders';
import { readJournal, storeSyncBatch } from '../../../hub/store/journal';
import type { SyncEvent } from '../../../shared/hub-contract';
import { ledgerRow, type LedgerRow } from '../../../shared/ledger-row';
import type { OrderState } from '../../../shared/orders';
import { pgUnavailable, startPgCluster, type PgCluster } from '../helpers/pg-cluster';

if (pgUnavailable) console.log(`dashboard projections on real PostgreSQL skipped: ${pgUnavailable}`);

/** A deterministic pseudo-random journal: sales with their state changes, top-ups, shifts and Z reports. */
function journal(seed: number, n: number, t0: number): SyncEvent[] {
  let x = seed;
  const rnd = (k: number) => {
    x = (x * 1_103_515_245 + 12_345) % 2 ** 31;
    return x % k;
  };
  const out: SyncEvent[] = [];
  const push = (kind: SyncEvent['kind'], at: number, payload: unknown) =>
    out.push({ seq: out.length + 1, kind, at, payload } as SyncEvent);
  const open: string[] = [];
  let shift = 0;
  push('shift.opened', t0, { shiftId: `S${seed}-0`, cashier: 'Ada', floatKobo: 1000, profile: 'production' });
  for (let i = 0; out.length < n; i++) {
    const at = t0 + i * 37_000 + rnd(5000);
    const r = rnd(10);
    if (r < 4) {
      const ref = `R${seed}-${i}`;
      push('order.created', at, {
        reference: ref,
        amountKobo: 1000 * (1 + rnd(50)),
        sn: 'SN',
        cashier: ['Ada', 'Bola', 'Chi'][rnd(3)],
        profile: rnd(8) === 0 ? 'demo' : 'production',
        sale: {
          filmName: ['Dune', 'Up', 'Heat'][rnd(3)]!,
          filmTitle: 'T',
          showDate: '2026-01-01',
          showTime: '19:30',
          seats: `F${rnd(20)},G${rnd(20)}`,
          tickets: 2,
          priceKobo: 500,
          bookingFeeKobo: 0,
        },
      });
      open.push(ref);
    } else if (r < 8 && open.length) {
      const ref = open[rnd(open.length)]!;
      const st = ['creating', 'waiting', 'paid', 'failed', 'unknown', 'expired', 'cancelled'][rnd(7)]!;
      push('order.status', at - rnd(3000), {
        reference: ref,
        status: st,
        ...(rnd(2) ? { orderNo: `24${seed}${i}` } : {}),
        ...(st === 'paid' ? { payNo: `P${i}` } : {}),
      });
    } else if (r === 8) {
      const ref = `T${seed}-${i}`;
      push('topup.submitted', at, {
        reference: ref,
        kind: 'airtime',
        amountKobo: 5000,
        provider: 'MTN',
        customerId: '0803',
        profile: 'production',
      });
      push('topup.status', at + 1, { reference: ref, status: ['success', 'fail'][rnd(2)]!, orderNo: `TU${i}` });
    } else {
      push('shift.closed', at, { shiftId: `S${seed}-${shift}`, cashier: 'Ada', cardTotalKobo: 1000 * rnd(100) });
      push('zreport', at, {
        shiftId: `S${seed}-${shift}`,
        reportNo: shift + 1,
        from: t0,
        to: at,
        totalKobo: 7,
        count: 1,
        lines: [{ label: 'Card', kobo: 7, count: 1 }],
      });
      shift++;
      push('shift.opened', at + 1, { shiftId: `S${seed}-${shift}`, cashier: 'Bola', profile: 'production' });
    }
  }
  return out.slice(0, n);
}

interface Expected {
  orders: Map<
    string,
    {
      state: string;
      orderNo: string | null;
      payNo: string | null;
      amount: number;
      createdAt: number;
      updatedAt: number;
      practice: boolean;
      cashier: string;
      seats: string;
      film: string;
      /** What it contributes to the ledger (shared/ledger-row.ts), from its facts. */
      ledger: LedgerRow;
    }
  >;
  events: number;
  topups: Map<string, { state: string; orderNo: string | null }>;
  shifts: Map<string, { closedAt: number | null; takings: number | null }>;
  zreports: number;
}

/** The projection computed from the journal by a plain fold, event by event. */
function fold(events: SyncEvent[]): Expected {
  const e: Expected = { orders: new Map(), events: 0, topups: new Map(), shifts: new Map(), zreports: 0 };
  /** When each order first turned paid (the earliest of its paid events). */
  const paidAt = new Map<string, number>();
  for (const ev of events) {
    if (ev.kind === 'order.created') {
      const p = ev.payload;
      if (!e.orders.has(p.reference)) {
        e.orders.set(p.reference, {
          state: 'queued',
          orderNo: p.orderNo ?? null,
          payNo: null,
          amount: p.amountKobo,
          createdAt: ev.at,
          updatedAt: ev.at,
          practice: p.profile === 'demo',
          cashier: p.cashier!,
          seats: p.sale!.seats,
          film: p.sale!.filmName,
          ledger: ledgerRow({ createdAt: ev.at, state: 'queued', amountKobo: p.amountKobo, paidAt: null }, null),
        });
      }
      e.events++;
    } else if (ev.kind === 'order.status') {
      const o = e.orders.get(ev.payload.reference);
      if (o) {
        o.state = ev.payload.status;
        o.updatedAt = Math.max(o.updatedAt, ev.at);
        o.orderNo = ev.payload.orderNo ?? o.orderNo;
        o.payNo = ev.payload.payNo ?? o.payNo;
        if (ev.payload.status === 'paid')
          paidAt.set(ev.payload.reference, Math.min(paidAt.get(ev.payload.reference) ?? ev.at, ev.at));
        e.events++;
      }
    } else if (ev.kind === 'topup.submitted') e.topups.set(ev.payload.reference, { state: 'queued', orderNo: null });
    else if (ev.kind === 'topup.status') {
      const t = e.topups.get(ev.payload.reference)!;
      t.state = ev.payload.status;
      t.orderNo = ev.payload.orderNo ?? t.orderNo;
    } else if (ev.kind === 'shift.opened') e.shifts.set(ev.payload.shiftId, { closedAt: null, takings: null });
    else if (ev.kind === 'shift.closed') {
      const s = e.shifts.get(ev.payload.shiftId);
      if (s) Object.assign(s, { closedAt: ev.at, takings: ev.payload.cardTotalKobo });
    } else if (ev.kind === 'zreport') e.zreports++;
  }
  for (const [ref, o] of e.orders)
    o.ledger = ledgerRow(
      { createdAt: o.createdAt, state: o.state as OrderState, amountKobo: o.amount, paidAt: paidAt.get(ref) ?? null },
      null,
    );
  return e;
}

async function actual(db: HubDb, counterId: string): Promise<Expected> {
  const orders = await db.query<Record<string, unknown>>('select * from dash_orders where counter_id = $1', [
    counterId,
  ]);
  const topups = await db.query<Record<string, unknown>>('select * from dash_topups where counter_id = $1', [
    counterId,
  ]);
  const shifts = await db.query<Record<string, unknown>>('select * from dash_shifts where counter_id = $1', [
    counterId,
  ]);
  const ev = await db.query<{ n: unknown }>('select count(*) as n from dash_order_events where counter_id = $1', [
    counterId,
  ]);
  const z = await db.query<{ n: unknown }>('select count(*) as n from dash_zreports where counter_id = $1', [
    counterId,
  ]);
  return {
    orders: new Map(
      orders.map((o) => [
        String(o.reference),
        {
          state: String(o.state),
          orderNo: (o.order_no as string | null) ?? null,
          payNo: (o.pay_no as string | null) ?? null,
          amount: num(o.amount_kobo),
          createdAt: num(o.created_at),
          updatedAt: num(o.updated_at),
          practice: o.practice === true,
          cashier: String(o.cashier),
          seats: String(o.seats),
          film: String(o.film_name),
          ledger: {
            outcome: String(o.outcome) as LedgerRow['outcome'],
            countedAt: num(o.counted_at),
            outcomeKobo: num(o.outcome_kobo),
            cardKobo: num(o.card_kobo),
            inCard: o.in_card === true,
          },
        },
      ]),
    ),
    events: num(ev[0]!.n),
    topups: new Map(
      topups.map((t) => [
        String(t.reference),
        { state: String(t.state), orderNo: (t.order_no as string | null) ?? null },
      ]),
    ),
    shifts: new Map(
      shifts.map((s) => [
        String(s.shift_id),
        {
          closedAt: s.closed_at === null ? null : num(s.closed_at),
          takings: s.card_total_kobo === null ? null : num(s.card_total_kobo),
        },
      ]),
    ),
    zreports: num(z[0]!.n),
  };
}

function suite(name: string, open: () => Promise<HubDb>, withSearch: boolean) {
  describe(name, () => {
    let db: HubDb;
    beforeAll(async () => {
      db = await open();
    });
    afterAll(async () => db?.close());

    it('projections equal the journal after repeated, overlapping, gapped and resent batches', async () => {
      const t0 = Date.UTC(2026, 0, 10, 9);
      for (const [seed, branch] of [
        [1, 'B1'],
        [2, 'B2'],
      ] as const) {
        const { code } = await issueEnrollCode(db, Date.now(), 10);
        const c = await enrollCounter(db, { code, counterName: `C${seed}`, branch, appVersion: '1' }, Date.now());
        const all = journal(seed, 1500, t0);
        let x = seed;
        let next = 0;
        while (next < all.length) {
          x = (x * 48_271) % 2_147_483_647;
          const size = 1 + (x % 180);
          const back = x % 3 === 0 ? Math.min(next, x % 40) : 0; // overlap: resend some already held
          const batch = all.slice(next - back, next + size);
          const r = await storeSyncBatch(db, c.counterId, batch, Date.now());
          if (x % 5 === 0)
            expect(await storeSyncBatch(db, c.counterId, batch, Date.now())).toMatchObject({
              lastSeq: r.lastSeq,
              stored: 0,
            }); // a repeated batch
          if (x % 7 === 0 && next + size + 5 < all.length) {
            // A gap is refused and changes nothing.
            await expect(
              storeSyncBatch(db, c.counterId, all.slice(next + size + 3, next + size + 5), Date.now()),
            ).rejects.toMatchObject({ code: 'HUB_SYNC_GAP' });
          }
          next = r.lastSeq;
        }
        const held = await readJournal(db, c.counterId);
        expect(held).toEqual(all);
        const want = fold(held);
        const got = await actual(db, c.counterId);
        expect(got.orders.size).toBeGreaterThan(300);
        expect([...got.orders.entries()].sort()).toEqual([...want.orders.entries()].sort());
        expect(got.events).toBe(want.events);
        expect([...got.topups.entries()].sort()).toEqual([...want.topups.entries()].sort());
        expect([...got.shifts.entries()].sort()).toEqual([...want.shifts.entries()].sort());
        expect(got.zreports).toBe(want.zreports);
      }
    });

    it.skipIf(!withSearch)(
      'the order search answers what a filter of the journal answers, page after page',
      async () => {
        const ids = await db.query<{ id: string; branch: string }>(
          `select id, branch from counters where name in ('C1', 'C2') order by name`,
        );
        const want = new Map<string, NonNullable<ReturnType<Expected['orders']['get']>> & { reference: string }>();
        for (const c of ids) {
          for (const [ref, o] of fold(await readJournal(db, c.id)).orders) want.set(ref, { ...o, reference: ref });
        }
        const cases: [
          Record<string, unknown>,
          (o: {
            state: string;
            orderNo: string | null;
            film: string;
            seats: string;
            cashier: string;
            amount: number;
            practice: boolean;
          }) => boolean,
        ][] = [
          [{ state: 'paid' }, (o) => o.state === 'paid'],
          [{ film: 'dune' }, (o) => o.film === 'Dune'],
          [{ seat: 'F7' }, (o) => o.seats.split(',').includes('F7')],
          [{ cashier: 'Bola', amountKobo: 7000 }, (o) => o.cashier === 'Bola' && o.amount === 7000],
          [{ orderNo: '2412' }, (o) => o.orderNo !== null && o.orderNo.endsWith('2412')],
        ];
        for (const [filters, pred] of cases) {
          const expected = [...want.values()]
            .filter((o) => !o.practice && pred(o))
            .map((o) => o.reference)
            .sort();
          const got: string[] = [];
          let cursor: string | undefined;
          do {
            const page = await searchOrders(db, { kind: 'all' }, { practice: 'exclude', ...filters, cursor }, 50);
            got.push(...page.orders.map((o) => o.reference));
            cursor = page.nextCursor ?? undefined;
          } while (cursor);
          expect(got.sort(), JSON.stringify(filters)).toEqual(expected);
          const scoped = await searchOrders(
            db,
            { kind: 'branch', branch: 'B2' },
            { practice: 'exclude', ...filters },
            50,
          );
          expect(scoped.orders.every((o) => o.branch === 'B2')).toBe(true);
        }
      },
    );
  });
}

suite('projections on PGlite', () => openHubDb({ dataDir: null }), true);

describe.skipIf(Boolean(pgUnavailable))('on a real PostgreSQL server', () => {
  let cluster: PgCluster;
  beforeAll(async () => {
    cluster = await startPgCluster();
  });
  afterAll(() => cluster?.stop());
  suite(
    'projections on PostgreSQL',
    () => openHubDb({ databaseUrl: cluster.createDatabase('dash_proj'), dataDir: null }),
    true,
  );
});
