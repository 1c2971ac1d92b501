// Every money figure the Hub shows, against the one ledger (issue 37): a counter's day of sales is
// written once as facts, synced to a real Hub (HTTP on loopback) as the counter's journal, and the
// expected figures are computed by `ledger()` (shared/ledger.ts) and `dayTally` (shared/ledger-day.ts)
// over the same facts. Then each figure is compared: Today (totals, practice, per branch, counter
// and cashier, each hour), Shifts (takings, Z totals and lines, the day's totals), Shows (each
// show's takings, seats and paid orders, the day's total), the Orders search (each row's money) and
// both CSV exports (orders, shifts). On PGlite and on a real PostgreSQL.
//
// The Hub's Orders page has no totals line (the counter's Orders screen has one, core/orders/order-search.ts):
// its money figures are the rows, enumerated here. Every figure is compared; none is left out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openHubDb } from '../../../hub/db/open';
import type { HubDb } from '../../../hub/db/adapter';
import { today, shifts } from '../../../hub/store/dashboard';
import { searchOrders, type OrderFilters } from '../../../hub/store/dashboard-orders';
import { createManager } from '../../../hub/store/managers';
import { showFills } from '../../../hub/store/programme';
import type { SyncEvent } from '../../../shared/hub-contract';
import { ORDERS_CSV_COLUMNS, SHIFTS_CSV_COLUMNS } from '../../../shared/hub-dashboard-contract';
import { ledger, ledgerLines, type LedgerLate, type LedgerSale, type LedgerTopup } from '../../../shared/ledger';
import { dayTally, hourlyTotals, shiftDayTotals, showFillTotals } from '../../../shared/ledger-day';
import { koboToNairaString } from '../../../shared/money';
import type { OrderState } from '../../../shared/orders';
import { addDays, lagosDate, lagosDayStart } from '../../../shared/time';
import { CounterJournal, Manager } from '../helpers/dashboard-client';
import { enroll, startTestHub, type TestHub } from '../helpers/hub-harness';
import { pgUnavailable, startPgCluster, type PgCluster } from '../helpers/pg-cluster';

const MIN = 60_000;
const H = 60 * MIN;
const PW = 'manager password 1';
const BRANCH = 'B1';
/** A Lagos day in the past (the Hub refuses times ahead of its clock), and the next one. */
const D = addDays(lagosDate(Date.now()), -3);
const D1 = addDays(D, 1);
const at = (h: number, m = 0, day = D) => lagosDayStart(day) + h * H + m * MIN;

interface Show {
  filmName: string;
  filmTitle: string;
  showDate: string;
  showTime: string;
}
const DUNE_18: Show = { filmName: 'dune-2', filmTitle: 'Dune: Part Two', showDate: D, showTime: '18:00' };
const DUNE_21: Show = { ...DUNE_18, showTime: '21:00' };
const WICKED: Show = { filmName: 'wicked', filmTitle: 'Wicked', showDate: D, showTime: '18:30' };
const WICKED_NEXT: Show = { ...WICKED, showDate: D1, showTime: '15:00' };

/** A sale of the day as the counter's journal holds it: one fact, from which both the events and the ledger's input are made. */
interface Sale {
  ref: string;
  createdAt: number;
  cashier: string;
  demo: boolean;
  show: Show;
  tickets: number;
  priceKobo: number;
  bookingFeeKobo: number;
  /** How it ended at the counter, and when. */
  end: { state: OrderState; at: number };
  /** The provider took the money after the counter closed it: learnt at `foundAt`, taken at `providerAt`. */
  late?: { foundAt: number; providerAt: number; handled?: { how: 'refund' | 'tickets-given'; at: number } };
}
const amountOf = (s: Sale) => s.tickets * s.priceKobo + s.bookingFeeKobo;

const SALES: Sale[] = [
  // Paid.
  {
    ref: 'COU1-R1',
    createdAt: at(10),
    cashier: 'Ada',
    demo: false,
    show: DUNE_18,
    tickets: 2,
    priceKobo: 250_000,
    bookingFeeKobo: 20_000,
    end: { state: 'paid', at: at(10, 1) },
  },
  // Failed (by another cashier).
  {
    ref: 'COU1-R2',
    createdAt: at(11),
    cashier: 'Bola',
    demo: false,
    show: DUNE_18,
    tickets: 1,
    priceKobo: 250_000,
    bookingFeeKobo: 10_000,
    end: { state: 'failed', at: at(11, 5) },
  },
  // Failed, then paid after closing, learnt the same day; tickets given (kept).
  {
    ref: 'COU1-R3',
    createdAt: at(12),
    cashier: 'Ada',
    demo: false,
    show: DUNE_21,
    tickets: 3,
    priceKobo: 300_000,
    bookingFeeKobo: 0,
    end: { state: 'failed', at: at(12, 5) },
    late: { foundAt: at(14), providerAt: at(12, 10), handled: { how: 'tickets-given', at: at(14, 5) } },
  },
  // Expired, then paid after closing: marked "refund to be arranged".
  {
    ref: 'COU1-R4',
    createdAt: at(13),
    cashier: 'Bola',
    demo: false,
    show: WICKED,
    tickets: 1,
    priceKobo: 400_000,
    bookingFeeKobo: 0,
    end: { state: 'expired', at: at(13, 5) },
    late: { foundAt: at(15), providerAt: at(13, 4), handled: { how: 'refund', at: at(15, 10) } },
  },
  // A Demo sale in the real shift: practice, never takings.
  {
    ref: 'COU1-R5',
    createdAt: at(16),
    cashier: 'Ada',
    demo: true,
    show: DUNE_18,
    tickets: 1,
    priceKobo: 250_000,
    bookingFeeKobo: 0,
    end: { state: 'paid', at: at(16, 1) },
  },
  // Sold at 23:40, paid at 00:05 the next Lagos day.
  {
    ref: 'COU1-R6',
    createdAt: at(23, 40),
    cashier: 'Ada',
    demo: false,
    show: WICKED_NEXT,
    tickets: 1,
    priceKobo: 400_000,
    bookingFeeKobo: 0,
    end: { state: 'paid', at: at(0, 5, D1) },
  },
  // Failed at 23:55; the provider took the money at 23:58, the counter learnt it at 00:10 the next day.
  {
    ref: 'COU1-R7',
    createdAt: at(23, 50),
    cashier: 'Ada',
    demo: false,
    show: WICKED_NEXT,
    tickets: 2,
    priceKobo: 400_000,
    bookingFeeKobo: 0,
    end: { state: 'failed', at: at(23, 55) },
    late: { foundAt: at(0, 10, D1), providerAt: at(23, 58) },
  },
];
const TOPUP = { ref: 'COU1-T1', createdAt: at(17), amountKobo: 150_000, endAt: at(17, 1) };
const SHIFT = { id: '1', cashier: 'Ada', openedAt: at(9), closedAt: at(0, 20, D1), floatKobo: 1_000_000 };

// ---- the ledger's input: the facts as the counter holds them now -------------------------------

const ledgerSale = (s: Sale): LedgerSale => ({
  ref: s.ref,
  createdAt: s.createdAt,
  state: s.end.state,
  amountKobo: amountOf(s),
  tickets: s.tickets,
  bookingFeeKobo: s.bookingFeeKobo,
  providerFeeKobo: 0,
  paidAt: s.end.state === 'paid' ? s.end.at : null,
  demo: s.demo,
  show: {
    filmName: s.show.filmName,
    filmTitle: s.show.filmTitle,
    showDate: s.show.showDate,
    showTime: s.show.showTime,
  },
});
const ledgerLate = (s: Sale): LedgerLate[] =>
  s.late
    ? [
        {
          ref: s.ref,
          kind: 'paid-after-closing',
          closedAs: s.end.state,
          amountKobo: amountOf(s),
          payNo: `LATE-${s.ref}`,
          providerAt: s.late.providerAt,
          foundAt: s.late.foundAt,
          refund: s.late.handled?.how === 'refund',
          demo: s.demo,
        },
      ]
    : [];
const TOPUPS: LedgerTopup[] = [
  { ref: TOPUP.ref, createdAt: TOPUP.createdAt, state: 'success', amountKobo: TOPUP.amountKobo, demo: false },
];
/** The ledger's facts of some of the sales (and the top-up when asked). */
const facts = (sales: Sale[], withTopups = true) => ({
  sales: sales.map(ledgerSale),
  late: sales.flatMap(ledgerLate),
  topups: withTopups ? TOPUPS : [],
});
const real = SALES.filter((s) => !s.demo);
const demo = SALES.filter((s) => s.demo);

/**
 * The ledger over a Lagos day, as Today shows it: every sale in the day its ledger row is counted at
 * (shared/ledger-row.ts), so "Paid" holds the sales paid that day, sold that day or earlier ("Sold
 * earlier, paid now": R6, sold 23:40 on D and paid 00:05, is in D+1's takings alone); money taken
 * after closing learnt that day, kept or to be refunded; successful top-ups.
 */
function tallyOf(sales: Sale[], from: number, to: number, withTopups = true) {
  const l = ledger(facts(sales, withTopups), { from, to, excludeDemo: false });
  return dayTally({
    paid: { count: l.paid.count + l.paidLate.count, amountKobo: l.paid.amountKobo + l.paidLate.amountKobo },
    failedCount: l.failed.count,
    cancelledCount: l.cancelled.count,
    expiredCount: l.expired.count,
    openCount: l.open.count,
    lateKept: {
      count: l.paidAfterClosing.count - l.refundToArrange.count,
      amountKobo: l.paidAfterClosing.amountKobo - l.refundToArrange.amountKobo,
    },
    lateRefund: l.refundToArrange,
    topups: l.topupsSuccessful,
  });
}

// ---- the journal the counter syncs ----------------------------------------------------------------

function journalOf(j: CounterJournal, zLines: { label: string; kobo: number; count: number }[], z: Totals) {
  const ev: SyncEvent[] = [
    j.ev('shift.opened', SHIFT.openedAt, {
      shiftId: SHIFT.id,
      cashier: SHIFT.cashier,
      floatKobo: SHIFT.floatKobo,
      profile: 'production',
    }),
  ];
  const timed: { at: number; make: () => SyncEvent }[] = [];
  for (const s of SALES) {
    timed.push({
      at: s.createdAt,
      make: () =>
        j.ev('order.created', s.createdAt, {
          reference: s.ref,
          amountKobo: amountOf(s),
          sn: 'SN-1',
          cashier: s.cashier,
          profile: s.demo ? 'demo' : 'production',
          sale: {
            ...s.show,
            seats: ['A1', 'A1,A2', 'A1,A2,A3'][s.tickets - 1]!,
            tickets: s.tickets,
            priceKobo: s.priceKobo,
            bookingFeeKobo: s.bookingFeeKobo,
          },
        }),
    });
    timed.push({
      at: s.createdAt + 1000,
      make: () =>
        j.ev('order.status', s.createdAt + 1000, { reference: s.ref, status: 'waiting', orderNo: `ON-${s.ref}` }),
    });
    timed.push({
      at: s.end.at,
      make: () =>
        j.ev('order.status', s.end.at, {
          reference: s.ref,
          status: s.end.state,
          ...(s.end.state === 'paid' ? { payNo: `PAY-${s.ref}` } : {}),
        }),
    });
    const late = s.late;
    if (late) {
      timed.push({
        at: late.foundAt,
        make: () =>
          j.ev('order.late', late.foundAt, {
            reference: s.ref,
            orderNo: `ON-${s.ref}`,
            kind: 'paid-after-closing',
            closedAs: s.end.state,
            providerStatus: 'SUCCESS',
            amountKobo: amountOf(s),
            payNo: `LATE-${s.ref}`,
            providerAt: late.providerAt,
            source: 'webhook',
          }),
      });
      const h = late.handled;
      if (h)
        timed.push({
          at: h.at,
          make: () => j.ev('order.late.handled', h.at, { reference: s.ref, how: h.how, by: s.cashier }),
        });
    }
  }
  timed.push({
    at: TOPUP.createdAt,
    make: () =>
      j.ev('topup.submitted', TOPUP.createdAt, {
        reference: TOPUP.ref,
        kind: 'airtime',
        amountKobo: TOPUP.amountKobo,
        provider: 'MTN',
        customerId: '08031234567',
        profile: 'production',
      }),
  });
  timed.push({
    at: TOPUP.endAt,
    make: () => j.ev('topup.status', TOPUP.endAt, { reference: TOPUP.ref, status: 'success' }),
  });
  timed.push({
    at: SHIFT.closedAt,
    make: () =>
      j.ev('shift.closed', SHIFT.closedAt, { shiftId: SHIFT.id, cashier: SHIFT.cashier, cardTotalKobo: z.amountKobo }),
  });
  timed.push({
    at: SHIFT.closedAt + 1,
    make: () =>
      j.ev('zreport', SHIFT.closedAt + 1, {
        shiftId: SHIFT.id,
        reportNo: 1,
        from: SHIFT.openedAt,
        to: SHIFT.closedAt,
        totalKobo: z.amountKobo,
        count: z.count,
        lines: zLines,
      }),
  });
  for (const t of timed.sort((a, b) => a.at - b.at)) ev.push(t.make());
  return ev;
}
type Totals = { count: number; amountKobo: number };

/** A CSV's rows as objects by the header's names (cells may be quoted). */
function csvRecords(text: string): Record<string, string>[] {
  const rows = text
    .split('\r\n')
    .filter(Boolean)
    .map((line) => {
      const cells: string[] = [];
      let cur = '',
        quoted = false;
      for (let i = 0; i < line.length; i++) {
        const ch = line[i]!;
        if (quoted) {
          if (ch === '"' && line[i + 1] === '"') {
            cur += '"';
            i++;
          } else if (ch === '"') quoted = false;
          else cur += ch;
        } else if (ch === '"') quoted = true;
        else if (ch === ',') {
          cells.push(cur);
          cur = '';
        } else cur += ch;
      }
      cells.push(cur);
      return cells;
    });
  const [head, ...body] = rows;
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
      return cluster.createDatabase('hub_figures');
    },
  },
];

describe.each(backends)("the Hub's money figures equal the ledger's, on $name", (b) => {
  let hub: TestHub;
  let db: HubDb;
  let counterId: string;
  let HO: Manager;
  const all = { kind: 'all' } as const;
  // The shift's Z, as the counter works it out when it closes (every sale final by then).
  const z = ledger(facts(SALES), { from: SHIFT.openedAt, to: SHIFT.closedAt, excludeDemo: true });
  const zLines = ledgerLines({ ...z, sweep: null, openItems: [] }).map((l) => ({
    label: l.label,
    kobo: l.amountKobo,
    count: l.count,
  }));

  beforeAll(async () => {
    if (b.skip) return;
    db = await openHubDb({ databaseUrl: await b.url(), dataDir: null });
    hub = await startTestHub({ db });
    await createManager(hub.db, { name: 'HO', password: PW, role: 'head-office', branch: null }, hub.ctx.now());
    const c = await enroll(hub, 'Lane 1', BRANCH);
    counterId = c.counterId;
    const j = new CounterJournal(hub.url, c.credential);
    // Synced as the day goes (D's events, then those after midnight): R6's payment and R7's late
    // word reach the Hub in a later batch than their sales, and move those rows then.
    const ev = journalOf(j, zLines, z.card);
    const midnight = lagosDayStart(D1);
    await j.sync(ev.filter((e) => e.at < midnight));
    await j.sync(ev.filter((e) => e.at >= midnight));
    HO = new Manager(hub.url);
    expect((await HO.login('HO', PW)).status).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await hub?.stop();
    await db?.close().catch(() => undefined);
    cluster?.stop();
  });

  it.skipIf(b.skip !== null)('Today: the totals, practice, branch, counter and cashiers of each day', async () => {
    for (const day of [D, D1]) {
      const from = lagosDayStart(day);
      const to = lagosDayStart(addDays(day, 1));
      const v = await today(hub.db, all, day);
      const want = tallyOf(real, from, to);
      expect(v.totals, `Today ${day}`).toEqual(want);
      // Today's takings are the ledger's card total of the day: R6 (sold on D, paid after midnight)
      // in D+1's alone.
      const card = ledger(facts(real), { from, to, excludeDemo: true });
      expect([v.totals.paidCount, v.totals.paidKobo], `Today ${day}, the card total`).toEqual([
        card.card.count,
        card.card.amountKobo,
      ]);
      const r6 = SALES.find((s) => s.ref === 'COU1-R6')!;
      expect(card.paidLate, `the ledger counts R6 on ${day} as sold earlier, paid now`).toEqual(
        day === D1 ? { count: 1, amountKobo: amountOf(r6) } : { count: 0, amountKobo: 0 },
      );
      expect(v.practice, `Today ${day}, practice`).toEqual(tallyOf(demo, from, to, false));
      expect(v.branches.map((x) => x.branch)).toEqual([BRANCH]);
      const { counters, ...branch } = v.branches[0]!;
      expect({ ...branch, branch: undefined }, `Today ${day}, branch`).toEqual({ ...want, branch: undefined });
      expect(counters.map((x) => x.counterId)).toEqual([counterId]);
      const { cashiers, counterId: _id, counterName: _name, ...counter } = counters[0]!;
      expect(counter, `Today ${day}, counter`).toEqual(want);
      // Each cashier: the ledger of that cashier's sales (top-ups are the counter's, not a cashier's).
      const names = [...new Set(real.map((s) => s.cashier))];
      expect(
        Object.fromEntries(cashiers.map(({ cashier, ...t }) => [cashier, t])),
        `Today ${day}, per cashier`,
      ).toEqual(
        Object.fromEntries(
          names
            .map(
              (n) =>
                [
                  n,
                  tallyOf(
                    real.filter((s) => s.cashier === n),
                    from,
                    to,
                    false,
                  ),
                ] as const,
            )
            .filter(([, t]) => Object.values(t).some((x) => x !== 0)),
        ),
      );
      // Each hour of the chart: the ledger's card total over the hour; the hours add up to the day's.
      for (const p of v.hourly) {
        const hour = ledger(facts(real), { from: from + p.hour * H, to: from + (p.hour + 1) * H, excludeDemo: true });
        expect([p.paidCount, p.paidKobo], `Today ${day}, hour ${p.hour}`).toEqual([
          hour.card.count,
          hour.card.amountKobo,
        ]);
      }
      expect(hourlyTotals(v.hourly).paidKobo, `Today ${day}, the chart's day`).toBe(card.card.amountKobo);
    }
  });

  it.skipIf(b.skip !== null)(
    'Shifts: takings, the Z report and its lines, the day totals, and the shifts CSV',
    async () => {
      const v = await shifts(hub.db, all, D, {});
      expect(v.shifts.map((s) => [s.shiftId, s.cardTotalKobo, s.practice])).toEqual([
        [SHIFT.id, z.card.amountKobo, false],
      ]);
      const zr = v.shifts[0]!.zreports;
      expect(zr.map((x) => [x.totalKobo, x.count])).toEqual([[z.card.amountKobo, z.card.count]]);
      expect(zr[0]!.lines).toEqual(zLines);
      // The card total of that shift, by the ledger: R1 and R6 paid, R3 and R7 paid after closing and
      // kept (R7 learnt after midnight, within the shift), R4 to be refunded, the Demo R5 out.
      const kobo = (refs: string[]) => refs.reduce((n, r) => n + amountOf(SALES.find((s) => s.ref === r)!), 0);
      expect(z.card).toEqual({ count: 4, amountKobo: kobo(['COU1-R1', 'COU1-R6', 'COU1-R3', 'COU1-R7']) });
      expect({ totals: v.totals, practice: v.practice }).toEqual(
        shiftDayTotals([
          {
            practice: false,
            closedAt: SHIFT.closedAt,
            cardTotalKobo: z.card.amountKobo,
            zreports: [{ totalKobo: z.card.amountKobo, count: z.card.count }],
          },
        ]),
      );
      const csv = await HO.get(`/shifts.csv?day=${D}`);
      expect(csv.status).toBe(200);
      const rows = csvRecords(csv.text);
      expect(Object.keys(rows[0]!)).toEqual([...SHIFTS_CSV_COLUMNS]);
      expect(
        rows.map((r) => [r.float_naira, r.card_total_naira, r.z_card_total_naira, r.z_card_payments, r.practice]),
      ).toEqual([
        [
          koboToNairaString(SHIFT.floatKobo),
          koboToNairaString(z.card.amountKobo),
          koboToNairaString(z.card.amountKobo),
          String(z.card.count),
          'no',
        ],
      ]);
    },
  );

  it.skipIf(b.skip !== null)("Shows: each show's takings, seats and paid orders, and the day's total", async () => {
    // The ledger over the whole of the sales (every sale sold and settled inside it): its per-show
    // lines are the sales inside the card total, paid after closing and kept included.
    const all2 = ledger(facts(real), { from: at(0), to: lagosDayStart(addDays(D1, 1)), excludeDemo: true });
    for (const day of [D, D1]) {
      const v = await showFills(hub.db, all, day);
      const lines = all2.shows.filter((s) => s.showDate === day);
      const got = v.shows
        .filter((s) => s.cardTotalKobo > 0 || s.seatsSold > 0 || s.paidCount > 0)
        .map((s) => [s.filmName, s.time, s.paidCount, s.seatsSold, s.cardTotalKobo]);
      expect(got, `Shows ${day}`).toEqual(lines.map((l) => [l.filmName, l.showTime, l.orders, l.seats, l.amountKobo]));
      const t = showFillTotals(v.shows);
      expect([t.cardTotalKobo, t.seatsSold], `Shows ${day}, the day's total`).toEqual([
        lines.reduce((n, l) => n + l.amountKobo, 0),
        lines.reduce((n, l) => n + l.seats, 0),
      ]);
    }
  });

  it.skipIf(b.skip !== null)("Orders: each row's money in the search and in the orders CSV", async () => {
    const page = await searchOrders(hub.db, all, { from: D, to: D1, practice: 'include' } as OrderFilters, 100, 'asc');
    const want = SALES.map((s) => ({
      reference: s.ref,
      state: s.end.state,
      amountKobo: amountOf(s),
      practice: s.demo,
      paidAfterClosingKobo: s.late ? amountOf(s) : null,
      late: s.late ? { amountKobo: amountOf(s), at: s.late.providerAt, how: s.late.handled?.how ?? null } : null,
    }));
    expect(
      page.orders.map((o) => ({
        reference: o.reference,
        state: o.state,
        amountKobo: o.amountKobo,
        practice: o.practice,
        paidAfterClosingKobo: o.paidAfterClosingKobo,
        late: o.late ? { amountKobo: o.late.amountKobo, at: o.late.at, how: o.late.handled?.how ?? null } : null,
      })),
    ).toEqual(want);
    // The ledger's facts are these rows: each row's amount is the sale's, the late money is the ledger's.
    const lateOf = new Map(facts(SALES).late.map((l) => [l.ref, l]));
    for (const o of page.orders) expect(o.paidAfterClosingKobo).toBe(lateOf.get(o.reference)?.amountKobo ?? null);
    const csv = await HO.get(`/orders.csv?from=${D}&to=${D1}&practice=include`);
    expect(csv.status).toBe(200);
    const rows = csvRecords(csv.text);
    expect(Object.keys(rows[0]!)).toEqual([...ORDERS_CSV_COLUMNS]);
    expect(rows.map((r) => [r.sale_number, r.state, r.amount_naira, r.practice, r.paid_after_closing])).toEqual(
      want.map((w) => [
        w.reference,
        w.state,
        koboToNairaString(w.amountKobo),
        w.practice ? 'yes' : 'no',
        w.paidAfterClosingKobo === null ? '' : koboToNairaString(w.paidAfterClosingKobo),
      ]),
    );
  });
});
