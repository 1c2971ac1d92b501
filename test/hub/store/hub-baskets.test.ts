// The basket on the Hub (issue 38), on PGlite and on a real PostgreSQL, over HTTP on loopback: a
// counter's day of baskets (several ticket types, items, a combo with a choice; card, cash and split;
// a sale from before baskets; a failed card; a Demo sale) synced as its journal; the projection's
// lines are the baskets' lines, and Today's and the shift's sales by category and by tender equal
// what the counter's own model makes of the same sales (the basket lines, and `tenderLines` of
// shared/tender-lines.ts over the ledger's sales); the items export per branch and day; a branch's
// catalogue uploaded (errors by line and column, nothing kept; another branch's manager refused),
// pulled by its counters; stock across counters below zero in Needs attention; hostile baskets
// refused with a 400 and nothing stored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openHubDb } from '../../../hub/db/open';
import type { HubDb } from '../../../hub/db/adapter';
import { attention, DEFAULT_ATTENTION } from '../../../hub/store/attention';
import { shifts, today } from '../../../hub/store/dashboard';
import { searchOrders } from '../../../hub/store/dashboard-orders';
import { createManager } from '../../../hub/store/managers';
import { checkBasket } from '../../../shared/basket-check';
import type { BasketInput, BasketLine } from '../../../shared/basket';
import { soldBasketOf } from '../../../shared/basket-sale';
import { catalogueCsv } from '../../../shared/catalogue-csv';
import { DEMO_CATALOGUE, type Catalogue } from '../../../shared/catalogue';
import type { SyncEvent } from '../../../shared/hub-contract';
import { ITEMS_CSV_COLUMNS, type DashCatalogueView, type SalesMix } from '../../../shared/hub-sales-contract';
import type { LedgerSale } from '../../../shared/ledger';
import { koboToNairaString } from '../../../shared/money';
import type { OrderState } from '../../../shared/orders';
import type { SoldBasket } from '../../../shared/basket-sale';
import { tenderLines, type SaleTender } from '../../../shared/tender-lines';
import { addDays, lagosDate, lagosDayStart } from '../../../shared/time';
import { CounterJournal, Manager } from '../helpers/dashboard-client';
import { bearer, enroll, get, post, startTestHub, type TestHub } from '../helpers/hub-harness';
import { pgUnavailable, startPgCluster, type PgCluster } from '../helpers/pg-cluster';

const MIN = 60_000;
const H = 60 * MIN;
const PW = 'manager password 1';
const D = addDays(lagosDate(Date.now()), -3);
const at = (h: number, m = 0) => lagosDayStart(D) + h * H + m * MIN;
const SHOW = { filmName: 'dune-2', filmTitle: 'Dune: Part Two', showDate: D, showTime: '19:30' };
const TYPES = [
  { name: 'Adult', priceKobo: 450_000, bookingFeeKobo: 20_000 },
  { name: 'Child', priceKobo: 300_000, bookingFeeKobo: 20_000 },
];

/** A basket priced by the counter's own rules (checkBasket), as the engine records it. */
function sold(input: BasketInput): SoldBasket {
  const c = checkBasket(input, { ticketTypes: TYPES, catalogue: DEMO_CATALOGUE });
  if (!c.ok) throw new Error(JSON.stringify(c.problems));
  return { lines: c.lines, tender: c.basket.tender, amounts: c.amounts };
}
const seats = (types: string[], row = 'F', from = 7) =>
  types.map((ticketType, i) => ({ seat: `${row}${from + i}`, ticketType }));

interface Sale {
  ref: string;
  createdAt: number;
  end: { state: OrderState; at: number };
  demo?: boolean;
  basket?: SoldBasket;
  /** A sale from before baskets (one type, by card). */
  old?: { tickets: number; priceKobo: number; bookingFeeKobo: number };
}
const SALES: Sale[] = [
  // 2 Adult + 1 Child, a popcorn combo with a Fanta, 2 water; ₦5,000 cash, the rest by card.
  {
    ref: 'COU1-B1',
    createdAt: at(10),
    end: { state: 'paid', at: at(10, 2) },
    basket: sold({
      tickets: { ...SHOW, seats: seats(['Adult', 'Adult', 'Child']) },
      concessions: [
        { code: 'CMB1', quantity: 1, choices: { Drink: 'FANTA' } },
        { code: 'WATER', quantity: 2 },
      ],
      tender: { kind: 'split', cashKobo: 500_000 },
    }),
  },
  // Concessions only, cash with change.
  {
    ref: 'COU1-B2',
    createdAt: at(11),
    end: { state: 'paid', at: at(11) },
    basket: sold({
      concessions: [
        { code: 'POPS', quantity: 3 },
        { code: 'NACHO', quantity: 1 },
      ],
      tender: { kind: 'cash', tenderedKobo: 1_000_000 },
    }),
  },
  // A sale from before baskets: one Ticket line by card.
  {
    ref: 'COU1-B3',
    createdAt: at(12),
    end: { state: 'paid', at: at(12, 1) },
    old: { tickets: 2, priceKobo: 250_000, bookingFeeKobo: 20_000 },
  },
  // Tickets and water by card, the card failed: counted nowhere.
  {
    ref: 'COU1-B4',
    createdAt: at(13),
    end: { state: 'failed', at: at(13, 3) },
    basket: sold({
      tickets: { ...SHOW, seats: seats(['Adult'], 'G') },
      concessions: [{ code: 'WATER', quantity: 1 }],
      tender: { kind: 'card' },
    }),
  },
  // A Demo sale: practice, never in the figures.
  {
    ref: 'COU1-B5',
    createdAt: at(14),
    end: { state: 'paid', at: at(14) },
    demo: true,
    basket: sold({ concessions: [{ code: 'POPL', quantity: 1 }], tender: { kind: 'cash', tenderedKobo: 250_000 } }),
  },
  // A card basket: two combos (Coke and water).
  {
    ref: 'COU1-B6',
    createdAt: at(15),
    end: { state: 'paid', at: at(15, 1) },
    basket: sold({
      concessions: [
        { code: 'CMB1', quantity: 2, choices: { Drink: 'COKE' } },
        { code: 'CMB1', quantity: 1, choices: { Drink: 'water' } },
      ],
      tender: { kind: 'card' },
    }),
  },
];
const basketOf = (s: Sale): SoldBasket =>
  s.basket ??
  soldBasketOf({
    sale: {
      seats: 'A1,A2',
      tickets: s.old!.tickets,
      priceKobo: s.old!.priceKobo,
      bookingFeeKobo: s.old!.bookingFeeKobo,
    },
  });
const SHIFT = { id: 'S1', openedAt: at(9), closedAt: at(22) };

function journal(j: CounterJournal, sales: Sale[]): SyncEvent[] {
  const ev: SyncEvent[] = [
    j.ev('shift.opened', SHIFT.openedAt, {
      shiftId: SHIFT.id,
      cashier: 'Ada',
      floatKobo: 1_000_000,
      profile: 'production',
    }),
  ];
  ev.push(...orderEvents(j, sales));
  ev.push(j.ev('shift.closed', SHIFT.closedAt, { shiftId: SHIFT.id, cashier: 'Ada', cardTotalKobo: 0 }));
  return ev;
}

function orderEvents(j: CounterJournal, sales: Sale[]): SyncEvent[] {
  const ev: SyncEvent[] = [];
  for (const s of sales) {
    const b = basketOf(s);
    const film = s.old
      ? { ...SHOW, seats: 'A1,A2', ...s.old }
      : { ...SHOW, seats: '', tickets: 0, priceKobo: 0, bookingFeeKobo: b.amounts.bookingFeeKobo };
    ev.push(
      j.ev('order.created', s.createdAt, {
        reference: s.ref,
        amountKobo: b.amounts.cardKobo,
        sn: 'SN-1',
        cashier: 'Ada',
        profile: s.demo ? 'demo' : 'production',
        sale: film,
        ...(s.basket ? { basket: s.basket } : {}),
      }),
      j.ev('order.status', s.end.at, { reference: s.ref, status: s.end.state }),
    );
  }
  return ev;
}

// ---- what the counter's own model makes of the same sales ----------------------------------------

const counted = (sales: Sale[]) => sales.filter((s) => !s.demo && s.end.state === 'paid');
function expectedMix(sales: Sale[], from: number, to: number): SalesMix {
  const inDay = counted(sales).filter((s) => s.end.at >= from && s.end.at < to);
  const lines: BasketLine[] = inDay.flatMap((s) => basketOf(s).lines);
  const cats = new Map<
    string,
    { kind: 'tickets' | 'fees' | 'concessions'; category: string; quantity: number; amountKobo: number }
  >();
  const bump = (kind: 'tickets' | 'fees' | 'concessions', category: string, q: number, a: number) => {
    const k = `${kind}|${category}`;
    const c = cats.get(k) ?? { kind, category, quantity: 0, amountKobo: 0 };
    cats.set(k, { ...c, quantity: c.quantity + q, amountKobo: c.amountKobo + a });
  };
  for (const l of lines) {
    if (l.kind === 'tickets') {
      bump('tickets', 'Tickets', l.quantity, l.amountKobo);
      bump('fees', 'Booking fees', 0, l.bookingFeeKobo);
    } else bump('concessions', l.category, l.quantity, l.amountKobo);
  }
  const order = ['tickets', 'fees', 'concessions'];
  const categories = [...cats.values()].sort(
    (a, b) => order.indexOf(a.kind) - order.indexOf(b.kind) || a.category.localeCompare(b.category),
  );
  // The ledger's tender lines over the same sales (shared/tender-lines.ts).
  const ledgerSales: LedgerSale[] = sales.map((s) => ({
    ref: s.ref,
    createdAt: s.createdAt,
    state: s.end.state,
    amountKobo: basketOf(s).amounts.cardKobo,
    tickets: 0,
    bookingFeeKobo: 0,
    providerFeeKobo: 0,
    paidAt: s.end.state === 'paid' ? s.end.at : null,
    demo: s.demo === true,
    show: SHOW,
  }));
  const tenders: SaleTender[] = sales.map((s) => {
    const b = basketOf(s);
    return { ref: s.ref, kind: b.tender.kind, cashKobo: b.amounts.cashKobo, cardKobo: b.amounts.cardKobo };
  });
  const tl = tenderLines(ledgerSales, tenders, { from, to, excludeDemo: true });
  const totalOf = (kind: string) =>
    inDay.filter((s) => basketOf(s).tender.kind === kind).reduce((n, s) => n + basketOf(s).amounts.totalKobo, 0);
  return {
    categories,
    tenders: [
      { tender: 'card', count: tl.card.count, totalKobo: totalOf('card'), cashKobo: 0, cardKobo: tl.card.amountKobo },
      { tender: 'cash', count: tl.cash.count, totalKobo: totalOf('cash'), cashKobo: tl.cash.amountKobo, cardKobo: 0 },
      {
        tender: 'split',
        count: tl.split.count,
        totalKobo: totalOf('split'),
        cashKobo: tl.split.cashKobo,
        cardKobo: tl.split.cardKobo,
      },
    ],
    totalKobo: lines.reduce((n, l) => n + l.amountKobo + (l.kind === 'tickets' ? l.bookingFeeKobo : 0), 0),
    cashKobo: tl.cashTaken.amountKobo,
    cardKobo: tl.cardTaken.amountKobo,
  };
}

function csvRecords(text: string): Record<string, string>[] {
  const [head, ...body] = text
    .split('\r\n')
    .filter(Boolean)
    .map((l) => l.split(','));
  return body.map((r) => Object.fromEntries(head!.map((h, i) => [h, r[i] ?? ''])));
}

// ---- on each database ---------------------------------------------------------------------------

type Backend = { name: string; skip: string | null; url: () => Promise<string | null> };
let cluster: PgCluster | null = null;
const backends: Backend[] = [
  { name: 'PGlite', skip: null, url: async () => null },
  {
    name: 'PostgreSQL',
    skip: pgUnavailable,
    url: async () => {
      cluster = await startPgCluster();
      return cluster.createDatabase('hub_baskets');
    },
  },
];

describe.each(backends)('baskets on the Hub, on $name', (b) => {
  let hub: TestHub;
  let db: HubDb;
  let HO: Manager;
  let M1: Manager;
  let M2: Manager;
  let j1: CounterJournal;
  let cred1: string;
  const all = { kind: 'all' } as const;

  beforeAll(async () => {
    if (b.skip) return;
    db = await openHubDb({ databaseUrl: await b.url(), dataDir: null });
    hub = await startTestHub({ db });
    await createManager(db, { name: 'HO', password: PW, role: 'head-office', branch: null }, hub.ctx.now());
    await createManager(db, { name: 'M1', password: PW, role: 'branch', branch: 'B1' }, hub.ctx.now());
    await createManager(db, { name: 'M2', password: PW, role: 'branch', branch: 'B2' }, hub.ctx.now());
    const c1 = await enroll(hub, 'Lane 1', 'B1');
    await enroll(hub, 'Lane 9', 'B2');
    cred1 = c1.credential;
    j1 = new CounterJournal(hub.url, c1.credential);
    await j1.sync(journal(j1, SALES));
    HO = new Manager(hub.url);
    M1 = new Manager(hub.url);
    M2 = new Manager(hub.url);
    for (const [m, n] of [
      [HO, 'HO'],
      [M1, 'M1'],
      [M2, 'M2'],
    ] as const)
      expect((await m.login(n, PW)).status).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await hub?.stop();
    await db?.close().catch(() => undefined);
    cluster?.stop();
  });

  it.skipIf(b.skip !== null)(
    "the projection holds each sale's lines and tender, a sale before baskets as one Ticket line",
    async () => {
      for (const s of SALES) {
        const bk = basketOf(s);
        const o = (
          await db.query<Record<string, unknown>>(
            'select id, tender, total_kobo, cash_part_kobo, card_part_kobo from dash_orders where reference = $1',
            [s.ref],
          )
        )[0]!;
        expect([o.tender, Number(o.total_kobo), Number(o.cash_part_kobo), Number(o.card_part_kobo)], s.ref).toEqual([
          bk.tender.kind,
          bk.amounts.totalKobo,
          bk.amounts.cashKobo,
          bk.amounts.cardKobo,
        ]);
        const lines = await db.query<Record<string, unknown>>(
          'select kind, code, name, category, quantity, unit_kobo, amount_kobo, fee_kobo, chosen from dash_order_lines where order_id = $1 order by position',
          [o.id],
        );
        expect(
          lines.map((l) => [
            l.kind,
            l.code,
            l.name,
            l.category,
            Number(l.quantity),
            Number(l.unit_kobo),
            Number(l.amount_kobo),
            Number(l.fee_kobo),
            l.chosen,
          ]),
          s.ref,
        ).toEqual(
          bk.lines.map((l) =>
            l.kind === 'tickets'
              ? [
                  'tickets',
                  l.ticketType,
                  l.ticketType,
                  'Tickets',
                  l.quantity,
                  l.unitKobo,
                  l.amountKobo,
                  l.bookingFeeKobo,
                  [],
                ]
              : [
                  l.kind,
                  l.code,
                  l.name,
                  l.category,
                  l.quantity,
                  l.unitKobo,
                  l.amountKobo,
                  0,
                  l.chosen.map((c) => c.code),
                ],
          ),
        );
      }
      expect(basketOf(SALES[2]!).lines.map((l) => l.kind === 'tickets' && l.ticketType)).toEqual(['Ticket']);
      // The Orders search shows a cash sale's total and tender (its amount is its card part, 0), and finds it by its total.
      const cash = basketOf(SALES[1]!);
      const found = await searchOrders(db, all, { amountKobo: cash.amounts.totalKobo, practice: 'exclude' }, 50);
      expect(found.orders.map((o) => [o.reference, o.tender, o.amountKobo, o.totalKobo, o.cashPartKobo])).toEqual([
        ['COU1-B2', 'cash', 0, cash.amounts.totalKobo, cash.amounts.cashKobo],
      ]);
    },
  );

  it.skipIf(b.skip !== null)(
    "Today and the shift by category and tender equal the counter's model of the same sales",
    async () => {
      const from = lagosDayStart(D);
      const want = expectedMix(SALES, from, from + 24 * H);
      // Every kind of figure is there: tickets, fees, three concession categories, each tender.
      expect(want.categories.map((c) => c.category)).toEqual([
        'Tickets',
        'Booking fees',
        'Combos',
        'Drinks',
        'Popcorn',
        'Snacks',
      ]);
      expect(want.tenders.map((t) => t.count)).toEqual([2, 1, 1]);
      const v = await today(db, all, D);
      expect(v.sales).toEqual(want);
      // The Paid line counts card payments only (as the counter's ledger): the sales wholly in cash are not in it.
      const cardPaid = counted(SALES).filter((s) => s.basket?.tender.kind !== 'cash');
      expect(v.totals.paidCount).toBe(cardPaid.length);
      expect((await HO.get(`/today?day=${D}`)).json.sales).toEqual(want);
      // The shift: the same sales (all within it).
      const sh = await shifts(db, all, D, {});
      expect(sh.shifts.map((s) => s.sales)).toEqual([expectedMix(SALES, SHIFT.openedAt, SHIFT.closedAt)]);
      // Another branch's manager sees none of it.
      const other = (await M2.get(`/today?day=${D}`)).json.sales as SalesMix;
      expect([other.categories, other.totalKobo]).toEqual([[], 0]);
    },
  );

  it.skipIf(b.skip !== null)(
    'random baskets (seeded): Today by category and tender is the model’s, every time',
    async () => {
      // mulberry32: the same baskets on every run and both databases.
      let seed = 38_2026;
      const rnd = () => {
        seed = (seed + 0x6d2b79f5) | 0;
        let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
        t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
        return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
      };
      const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
      const day = addDays(D, -1);
      const from = lagosDayStart(day);
      const codes = ['POPS', 'POPL', 'FANTA', 'COKE', 'WATER', 'NACHO', 'CMB1'];
      const random: Sale[] = [];
      for (let i = 0; random.length < 60; i++) {
        const n = Math.floor(rnd() * 4);
        const tickets = n
          ? {
              ...SHOW,
              showDate: day,
              seats: seats(
                Array.from({ length: n }, () => pick(['Adult', 'Child'])),
                'R',
                1,
              ),
            }
          : undefined;
        const concessions = Array.from({ length: Math.floor(rnd() * 4) + (n ? 0 : 1) }, () => {
          const code = pick(codes);
          return {
            code,
            quantity: 1 + Math.floor(rnd() * 3),
            ...(code === 'CMB1' ? { choices: { Drink: pick(['FANTA', 'COKE', 'WATER']) } } : {}),
          };
        });
        const priced = checkBasket(
          { tickets, concessions, tender: { kind: 'card' } },
          { ticketTypes: TYPES, catalogue: DEMO_CATALOGUE },
        );
        if (!priced.ok) continue; // e.g. one item twice over its stock: drawn again
        const total = priced.amounts.totalKobo;
        const kind = pick(['card', 'cash', 'split'] as const);
        const tender =
          kind === 'card'
            ? { kind }
            : kind === 'cash'
              ? { kind, tenderedKobo: total + Math.floor(rnd() * 5) * 50_000 }
              : { kind, cashKobo: 1 + Math.floor(rnd() * (total - 1)) };
        const createdAt = from + Math.floor(rnd() * 22 * H);
        const state: OrderState =
          kind === 'cash' ? 'paid' : pick(['paid', 'paid', 'failed', 'cancelled', 'waiting'] as const);
        random.push({
          ref: `COU1-RND${i}`,
          createdAt,
          end: { state, at: createdAt + Math.floor(rnd() * 30 * MIN) },
          demo: rnd() < 0.1,
          basket: sold({ tickets, concessions, tender }),
        });
      }
      expect(new Set(random.map((s) => s.basket!.tender.kind)).size).toBe(3);
      await j1.sync(orderEvents(j1, random));
      expect((await today(db, all, day)).sales).toEqual(expectedMix(random, from, from + 24 * H));
    },
  );

  it.skipIf(b.skip !== null)('the items export: what was sold per branch and day, in the manager’s scope', async () => {
    const r = await M1.get(`/items.csv?from=${D}&to=${D}`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('text/csv');
    const rows = csvRecords(r.text);
    expect(Object.keys(rows[0]!)).toEqual([...ITEMS_CSV_COLUMNS]);
    const want = new Map<string, { q: number; a: number; f: number }>();
    for (const s of counted(SALES))
      for (const l of basketOf(s).lines) {
        const k = l.kind === 'tickets' ? `tickets|${l.ticketType}` : `${l.kind}|${l.code}`;
        const w = want.get(k) ?? { q: 0, a: 0, f: 0 };
        want.set(k, {
          q: w.q + l.quantity,
          a: w.a + l.amountKobo,
          f: w.f + (l.kind === 'tickets' ? l.bookingFeeKobo : 0),
        });
      }
    expect(
      Object.fromEntries(
        rows.map((x) => [
          `${x.kind}|${x.code}`,
          [x.day_lagos, x.branch, x.quantity, x.amount_naira, x.booking_fee_naira],
        ]),
      ),
    ).toEqual(
      Object.fromEntries(
        [...want].map(([k, w]) => [k, [D, 'B1', String(w.q), koboToNairaString(w.a), koboToNairaString(w.f)]]),
      ),
    );
    expect(rows.length).toBe(want.size);
    // Another branch's manager: the columns, no rows, even naming B1.
    expect((await M2.get(`/items.csv?from=${D}&to=${D}&branch=B1`)).text.split('\r\n').filter(Boolean)).toEqual([
      ITEMS_CSV_COLUMNS.join(','),
    ]);
    expect((await M1.get(`/items.csv?from=${D}`)).status).toBe(400);
  });

  it.skipIf(b.skip !== null)(
    'a catalogue upload: errors by line and column and nothing kept; another branch refused; counters pull it',
    async () => {
      const bad =
        'code,name,category,price\nPOPS,Popcorn small,Popcorn,1500\nPOPL,Popcorn large,Popcorn,abc\nPOPS,Again,Popcorn,100\n';
      const r = await M1.post('/catalogue/import', { text: bad, format: 'csv', fileName: 'cat.csv' });
      expect(r.status).toBe(200);
      expect(r.json.imported).toBe(false);
      const errors = r.json.errors as { line: number; column: string; message: string }[];
      expect(errors.map((e) => [e.line, e.column])).toEqual([
        [3, 'price'],
        [4, 'code'],
      ]);
      expect((await M1.get('/catalogue')).json.version).toBe(0);
      const badJson = await M1.post('/catalogue/import', {
        text: '{"items":[{"code":"X","name":"X","category":"Y","price":"1","priceKobo":1}]}',
        format: 'json',
      });
      expect(badJson.json.imported).toBe(false);
      expect((badJson.json.errors as { line: number }[]).length).toBeGreaterThan(0);
      // A branch manager of B2 cannot upload B1's catalogue, nor read it.
      expect(
        (await M2.post('/catalogue/import', { branch: 'B1', text: catalogueCsv(DEMO_CATALOGUE), format: 'csv' }))
          .status,
      ).toBe(403);
      expect((await M2.get('/catalogue?branch=B1')).status).toBe(403);
      // Head office must name the branch.
      expect((await HO.post('/catalogue/import', { text: catalogueCsv(DEMO_CATALOGUE), format: 'csv' })).status).toBe(
        400,
      );
      // Without the CSRF token: refused.
      expect(
        (
          await M1.post(
            '/catalogue/import',
            { text: catalogueCsv(DEMO_CATALOGUE), format: 'csv' },
            { 'x-csrf-token': 'nope' },
          )
        ).status,
      ).toBe(403);
      // The counter sees none until one is kept.
      expect((await get(`${hub.url}/api/v1/catalogue`, bearer(cred1))).json).toMatchObject({
        branch: 'B1',
        version: 0,
        catalogue: null,
      });
    },
  );

  it.skipIf(b.skip !== null)(
    'stock across counters: counted since the upload, below zero in Needs attention, nothing blocked',
    async () => {
      // The upload two hours ago (the Hub's clock set back), then sales of the last hour.
      const cat: Catalogue = {
        ...DEMO_CATALOGUE,
        items: DEMO_CATALOGUE.items.map((i) =>
          i.code === 'WATER' ? { ...i, stock: 3 } : i.code === 'FANTA' ? { ...i, stock: 10 } : i,
        ),
      };
      hub.clock.offsetMs = -2 * H;
      const up = await M1.post('/catalogue/import', { text: catalogueCsv(cat), format: 'csv', fileName: 'stand.csv' });
      hub.clock.offsetMs = 0;
      expect(up.json.imported).toBe(true);
      const pulled = await get(`${hub.url}/api/v1/catalogue`, bearer(cred1));
      expect(pulled.status).toBe(200);
      expect(pulled.json).toMatchObject({ branch: 'B1', version: 1, catalogue: cat });
      expect((await M1.get('/attention')).json.lines).not.toContainEqual(
        expect.objectContaining({ kind: 'stock-below-zero' }),
      );

      const now = Date.now();
      const fresh: Sale[] = [
        {
          ref: 'COU1-N1',
          createdAt: now - H,
          end: { state: 'paid', at: now - H + MIN },
          basket: sold({
            concessions: [
              { code: 'WATER', quantity: 2 },
              { code: 'CMB1', quantity: 2, choices: { Drink: 'WATER' } },
            ],
            tender: { kind: 'cash', tenderedKobo: 1_000_000 },
          }),
        },
        // Failed: takes nothing.
        {
          ref: 'COU1-N2',
          createdAt: now - H + 2 * MIN,
          end: { state: 'failed', at: now - H + 3 * MIN },
          basket: sold({ concessions: [{ code: 'WATER', quantity: 5 }], tender: { kind: 'card' } }),
        },
      ];
      await j1.sync(orderEvents(j1, fresh));
      const view = (await M1.get('/catalogue')).json as unknown as DashCatalogueView;
      // WATER: 3 uploaded, 2 + 2 (one per combo) taken by the paid sale: −1 left. FANTA: the day's
      // earlier combo was before the upload.
      expect(view.stock.map((s) => [s.code, s.uploaded, s.taken, s.left])).toEqual([
        ['FANTA', 10, 0, 10],
        ['WATER', 3, 4, -1],
      ]);
      const lines = (await attention(db, { kind: 'branch', branch: 'B1' }, Date.now(), DEFAULT_ATTENTION, () => true))
        .lines;
      expect(lines.filter((l) => l.kind === 'stock-below-zero').map((l) => [l.branch, l.subject])).toEqual([
        ['B1', 'Water 75cl (WATER): -1 left across the counters (3 in the catalogue, 4 sold since)'],
      ]);
      // The other branch's manager does not see it.
      expect(
        (await attention(db, { kind: 'branch', branch: 'B2' }, Date.now(), DEFAULT_ATTENTION, () => true)).lines.filter(
          (l) => l.kind === 'stock-below-zero',
        ),
      ).toEqual([]);
    },
  );

  it.skipIf(b.skip !== null)('a hostile basket is refused with a 400 and nothing of it is kept', async () => {
    const good = sold({ concessions: [{ code: 'POPS', quantity: 1 }], tender: { kind: 'card' } });
    const line = good.lines[0]!;
    const hostile: [string, unknown][] = [
      ['two hundred lines', { ...good, lines: Array.from({ length: 200 }, () => line) }],
      ['a name of 100 000 characters', { ...good, lines: [{ ...line, name: 'x'.repeat(100_000) }] }],
      [
        'a negative amount',
        {
          ...good,
          lines: [{ ...line, amountKobo: -150_000, unitKobo: -150_000 }],
          amounts: { ...good.amounts, concessionsKobo: -150_000, totalKobo: -150_000, cardKobo: -150_000 },
        },
      ],
      ['amounts not the lines’', { ...good, amounts: { ...good.amounts, totalKobo: 1, cardKobo: 1 } }],
      ['a line not quantity × price', { ...good, lines: [{ ...line, amountKobo: 1 }] }],
      ['a huge quantity', { ...good, lines: [{ ...line, quantity: 1e15 }] }],
      ['a number too large', { ...good, lines: [{ ...line, unitKobo: 1e300 }] }],
      ['a NUL in the category', { ...good, lines: [{ ...line, category: 'Pop\u0000corn' }] }],
      ['not an object', 'basket'],
    ];
    for (const [what, basket] of hostile) {
      const r = await post(
        `${hub.url}/api/v1/sync`,
        {
          events: [
            {
              seq: j1.seq + 1,
              kind: 'order.created',
              at: Date.now() - MIN,
              payload: { reference: 'COU1-X', amountKobo: 150_000, sn: 'SN-1', basket },
            },
          ],
          status: { appVersion: '0.1.0', profile: 'production', sentAt: Date.now(), queueLength: 0, openPayments: 0 },
        },
        bearer(cred1),
      );
      expect([what, r.status, r.json.code]).toEqual([what, 400, 'HUB_BAD_REQUEST']);
    }
    // The order's amount must be its card part.
    const r = await post(
      `${hub.url}/api/v1/sync`,
      {
        events: [
          {
            seq: j1.seq + 1,
            kind: 'order.created',
            at: Date.now() - MIN,
            payload: { reference: 'COU1-X', amountKobo: 1, sn: 'SN-1', basket: good },
          },
        ],
        status: { appVersion: '0.1.0', profile: 'production', sentAt: Date.now(), queueLength: 0, openPayments: 0 },
      },
      bearer(cred1),
    );
    expect(r.status).toBe(400);
    expect(await db.query("select 1 from dash_orders where reference = 'COU1-X'")).toEqual([]);
    // The good one is kept.
    await j1.sync([
      j1.ev('order.created', Date.now() - MIN, { reference: 'COU1-X', amountKobo: 150_000, sn: 'SN-1', basket: good }),
    ]);
    expect((await db.query("select 1 from dash_orders where reference = 'COU1-X'")).length).toBe(1);
  });
});
