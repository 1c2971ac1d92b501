// Baskets sold by the counter's real checkout (the sandbox terminal, a real SQLite journal) and
// synced to a real Hub (PGlite, HTTP on loopback): a split basket of two ticket types, a combo and
// water paid by card after the cash; a cash basket of concessions only (paid at once, never sent);
// a card basket whose card failed; a split whose card was cancelled (its cash handed back); a sale
// of one ticket type as before baskets. The Hub's lines of each sale are the counter's own
// (`soldBasketOf` of its order view), and the shift's and Today's sales by category and tender are
// what the counter's own ledger facts (`ledgerSales` of its journal) and tender lines make of them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HubDb } from '../../../hub/db/adapter';
import { openHubDb } from '../../../hub/db/open';
import { shifts, today } from '../../../hub/store/dashboard';
import { OrderJournalReads } from '../../../core/orders';
import type { BasketSaleInput } from '../../../shared/basket-sale';
import { soldBasketOf } from '../../../shared/basket-sale';
import { DEMO_CATALOGUE } from '../../../shared/catalogue';
import type { SalesMix } from '../../../shared/hub-sales-contract';
import type { OrderState, OrderView } from '../../../shared/orders';
import { ledger } from '../../../shared/ledger';
import { tenderLines } from '../../../shared/tender-lines';
import { lagosDate } from '../../../shared/time';
import { enroll, startTestHub, type TestHub } from '../../hub/helpers/hub-harness';
import { linkCounter, stopHubNow, type LinkedCounter } from '../../helpers/hub-link';
import { inState, startOrdersSandbox, type OrdersSandbox } from '../../helpers/orders-sandbox';
import { SALE_INPUT } from '../../helpers/orders-db';

const TYPES = [
  { name: 'Adult', priceKobo: 450_000, bookingFeeKobo: 20_000 },
  { name: 'Child', priceKobo: 300_000, bookingFeeKobo: 20_000 },
];
const SHOW = {
  filmName: SALE_INPUT.filmName,
  filmTitle: SALE_INPUT.filmTitle,
  showDate: SALE_INPUT.showDate,
  showTime: SALE_INPUT.showTime,
};

let sb: OrdersSandbox;
let dir: string;
let db: HubDb;
let hub: TestHub;
let counter: LinkedCounter;

beforeAll(async () => {
  sb = await startOrdersSandbox();
  dir = mkdtempSync(join(tmpdir(), 'counterpay-baskets-hub-'));
  db = await openHubDb({ databaseUrl: null, dataDir: null });
  hub = await startTestHub({ db });
  const enrollment = await enroll(hub, 'Counter 5', sb.merchant.merchantId);
  counter = linkCounter({
    file: join(dir, 'counter.sqlite'),
    hubUrl: hub.url,
    enrollment,
    sandbox: sb,
    counterName: 'Basket Lane',
    basket: { show: () => ({ showKey: 'show-1', ticketTypes: TYPES }), catalogue: () => DEMO_CATALOGUE },
  });
});
afterAll(async () => {
  await counter?.close();
  if (hub) await stopHubNow(hub);
  await db?.close();
  await sb?.sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A basket sold at the counter; its card part played on the terminal with `outcome` (none for cash). */
async function sell(b: Omit<BasketSaleInput, 'sn'>, outcome?: 'SUCCESS' | 'FAIL' | 'CANCEL'): Promise<OrderView> {
  const checkout = counter.checkout!;
  const v = await checkout.sell({ ...b, sn: sb.merchant.terminalSn });
  if (!outcome) return inState(checkout, v.id, 'paid');
  await inState(checkout, v.id, 'waiting');
  sb.sandbox.present(sb.merchant.terminalSn, outcome);
  const to: OrderState = outcome === 'SUCCESS' ? 'paid' : outcome === 'FAIL' ? 'failed' : 'cancelled';
  return inState(checkout, v.id, to);
}

describe("the counter's baskets on the Hub", () => {
  it("the Hub's lines are the counter's, and the shift and Today by category and tender are the counter's ledger", async () => {
    const checkout = counter.checkout!;
    const shift = counter.shifts.open('Ada', 2_000_000, Date.now(), 'production');
    const seat = (s: string, ticketType: string) => ({ seat: s, ticketType });
    const sold: OrderView[] = [
      await sell(
        {
          tickets: { ...SHOW, seats: [seat('F7', 'Adult'), seat('F8', 'Adult'), seat('F9', 'Child')] },
          concessions: [
            { code: 'CMB1', quantity: 1, choices: { Drink: 'FANTA' } },
            { code: 'WATER', quantity: 2 },
          ],
          tender: { kind: 'split', cashKobo: 500_000, tenderedKobo: 1_000_000 },
        },
        'SUCCESS',
      ),
      await sell({
        concessions: [
          { code: 'POPS', quantity: 3 },
          { code: 'NACHO', quantity: 1 },
        ],
        tender: { kind: 'cash', tenderedKobo: 1_000_000 },
      }),
      await sell(
        {
          tickets: { ...SHOW, seats: [seat('G1', 'Adult')] },
          concessions: [{ code: 'WATER', quantity: 1 }],
          tender: { kind: 'card' },
        },
        'FAIL',
      ),
      await sell(
        { concessions: [{ code: 'POPL', quantity: 2 }], tender: { kind: 'split', cashKobo: 100_000 } },
        'CANCEL',
      ),
      await sell(
        { concessions: [{ code: 'CMB1', quantity: 2, choices: { Drink: 'coke' } }], tender: { kind: 'card' } },
        'SUCCESS',
      ),
    ];
    const old = await checkout.sell({ ...SALE_INPUT, seats: 'H1,H2', sn: sb.merchant.terminalSn });
    await inState(checkout, old.id, 'waiting');
    sb.sandbox.present(sb.merchant.terminalSn, 'SUCCESS');
    sold.push(await inState(checkout, old.id, 'paid'));
    expect(sold.map((v) => v.state)).toEqual(['paid', 'paid', 'failed', 'cancelled', 'paid', 'paid']);
    await counter.synced();

    // Each sale's lines on the Hub: the counter's, read as a basket.
    for (const v of sold) {
      const rows = await db.query<Record<string, unknown>>(
        `select l.kind, l.code, l.quantity, l.amount_kobo, l.fee_kobo, o.tender, o.cash_part_kobo, o.card_part_kobo
           from dash_order_lines l join dash_orders o on o.id = l.order_id where o.reference = $1 order by l.position`,
        [v.outOrderNo],
      );
      const b = soldBasketOf(v);
      expect(
        rows.map((r) => [r.kind, r.code, Number(r.quantity), Number(r.amount_kobo), Number(r.fee_kobo)]),
        v.outOrderNo,
      ).toEqual(
        b.lines.map((l) =>
          l.kind === 'tickets'
            ? ['tickets', l.ticketType, l.quantity, l.amountKobo, l.bookingFeeKobo]
            : [l.kind, l.code, l.quantity, l.amountKobo, 0],
        ),
      );
      expect([rows[0]!.tender, Number(rows[0]!.cash_part_kobo), Number(rows[0]!.card_part_kobo)]).toEqual([
        b.tender.kind,
        b.amounts.cashKobo,
        b.amounts.cardKobo,
      ]);
    }

    // The counter's own ledger facts of the shift, and its tender lines over them.
    const reads = new OrderJournalReads(counter.db);
    const facts = reads.ledgerSales(shift.openedAt, Date.now() + 1);
    const byRef = new Map(sold.map((v) => [v.outOrderNo, v]));
    const window = { from: shift.openedAt, to: Date.now() + 1, excludeDemo: true };
    const tl = tenderLines(
      facts,
      facts.map((f) => {
        const b = soldBasketOf(byRef.get(f.ref)!);
        return { ref: f.ref, kind: b.tender.kind, cashKobo: b.amounts.cashKobo, cardKobo: b.amounts.cardKobo };
      }),
      window,
    );
    const paid = sold.filter((v) => v.state === 'paid').map(soldBasketOf);
    const cats = new Map<string, number[]>();
    const add = (k: string, q: number, a: number) => {
      const c = cats.get(k) ?? [0, 0];
      cats.set(k, [c[0]! + q, c[1]! + a]);
    };
    for (const l of paid.flatMap((b) => b.lines))
      if (l.kind === 'tickets') {
        add('tickets|Tickets', l.quantity, l.amountKobo);
        add('fees|Booking fees', 0, l.bookingFeeKobo);
      } else add(`concessions|${l.category}`, l.quantity, l.amountKobo);
    const totalOf = (kind: string) =>
      paid.filter((b) => b.tender.kind === kind).reduce((n, b) => n + b.amounts.totalKobo, 0);
    const want = {
      categories: Object.fromEntries(cats),
      tenders: [
        ['card', tl.card.count, totalOf('card'), 0, tl.card.amountKobo],
        ['cash', tl.cash.count, totalOf('cash'), tl.cash.amountKobo, 0],
        ['split', tl.split.count, totalOf('split'), tl.split.cashKobo, tl.split.cardKobo],
      ],
      totalKobo: paid.reduce((n, b) => n + b.amounts.totalKobo, 0),
      cashKobo: tl.cashTaken.amountKobo,
      cardKobo: tl.cardTaken.amountKobo,
    };
    // The split whose card was cancelled: its cash is to hand back, never taken.
    expect(tl.toHandBack.amountKobo).toBe(100_000);
    const seen = (m: SalesMix) => ({
      categories: Object.fromEntries(m.categories.map((c) => [`${c.kind}|${c.category}`, [c.quantity, c.amountKobo]])),
      tenders: m.tenders.map((t) => [t.tender, t.count, t.totalKobo, t.cashKobo, t.cardKobo]),
      totalKobo: m.totalKobo,
      cashKobo: m.cashKobo,
      cardKobo: m.cardKobo,
    });
    const all = { kind: 'all' } as const;
    const day = lagosDate(Date.now());
    const sh = (await shifts(db, all, day, {})).shifts.find((s) => s.shiftId === String(shift.id))!;
    expect(seen(sh.sales)).toEqual(want);
    expect(seen((await today(db, all, day)).sales)).toEqual(want);
    // And the counter's own ledger over its journal (shared/ledger.ts, its basket lines) says the same.
    const l = ledger({ sales: facts, late: [], topups: [] }, window);
    const byCat = (xs: { category: string; quantity: number; amountKobo: number }[]) =>
      xs.map((c) => [c.category, c.quantity, c.amountKobo]).sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    expect(byCat(sh.sales.categories.filter((c) => c.kind === 'concessions'))).toEqual(byCat(l.concessions.categories));
    const tickets = sh.sales.categories.find((c) => c.kind === 'tickets')!;
    const fees = sh.sales.categories.find((c) => c.kind === 'fees')!;
    expect([tickets.quantity, tickets.amountKobo, fees.amountKobo]).toEqual([
      l.ticketTypes.reduce((n, t) => n + t.quantity, 0),
      l.ticketTypes.reduce((n, t) => n + t.amountKobo, 0),
      l.ticketTypes.reduce((n, t) => n + t.bookingFeeKobo, 0),
    ]);
    expect(sh.sales.totalKobo).toBe(l.salesTotal.amountKobo);
    expect([sh.sales.cashKobo, sh.sales.cardKobo]).toEqual([
      l.tenders.cashTaken.amountKobo,
      l.tenders.cardTaken.amountKobo,
    ]);
    // The card the terminals took is the counter's card total of the shift.
    expect(sh.sales.cardKobo).toBe(tl.cardTaken.amountKobo);
  });
});
