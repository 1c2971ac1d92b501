// The ledger's basket lines against a model, over random shifts of random baskets: several ticket
// types for several shows, items and combos of several categories, quantities, card / cash / split
// tenders (the change handed back), split sales whose card failed after the cash, sales still open,
// sales from before baskets (no basket: one Ticket line by card), Demo sales, paid-outs, drops and
// a count. The model is written here from the rules alone (docs/concessions.md): the lines count
// the paid sales of the window, every tender; the card total is the card parts (what the terminal
// took), a sale wholly in cash in no card line; the sales total = card total + cash taken; the
// drawer expected = float + cash taken − paid out − drops, over/short = counted − expected.
import { describe, expect, it } from 'vitest';
import { basketAmounts, type BasketLine, type Tender } from '../../../shared/basket';
import { ledger, type LedgerSale } from '../../../shared/ledger';
import type { OrderState } from '../../../shared/orders';
import { createRng, type Rng } from '../../helpers/chaos-random';

const FROM = Date.UTC(2026, 11, 7, 9, 0);
const HOURS = 3_600_000;
const SHOWS = [
  { filmName: 'Dune 2', filmTitle: 'DUNE: PART TWO', showDate: '2026-12-07', showTime: '19:30' },
  { filmName: 'Moana 2', filmTitle: 'MOANA 2', showDate: '2026-12-07', showTime: '17:00' },
  { filmName: 'Dune 2', filmTitle: 'DUNE: PART TWO', showDate: '2026-12-08', showTime: '12:00' },
];
const TYPES = [
  ['Adult', 250_000],
  ['Child', 150_000],
  ['Student', 180_000],
] as const;
const ITEMS = [
  ['POPS', 'Popcorn small', 'Popcorn', 150_000],
  ['POPL', 'Popcorn large', 'Popcorn', 250_000],
  ['FANTA', 'Fanta 50cl', 'Drinks', 70_000],
  ['WATER', 'Water 75cl', 'Drinks', 40_000],
  ['CMB1', 'Popcorn combo', 'Combos', 300_000],
] as const;
const NO_SHOW = { filmName: '', filmTitle: '', showDate: '', showTime: '' };

interface MSale {
  sale: LedgerSale;
  lines: BasketLine[];
  kind: Tender['kind'];
  cash: number;
  card: number;
}

function randomSale(rng: Rng, i: number, to: number): MSale {
  const show = rng.chance(0.2) ? null : SHOWS[rng.int(0, SHOWS.length - 1)]!;
  const lines: BasketLine[] = [];
  if (show) {
    for (const [type, unit] of TYPES) {
      if (!rng.chance(0.5) && lines.length > 0) continue;
      const quantity = rng.int(1, 4);
      const fee = rng.chance(0.5) ? 0 : 20_000;
      lines.push({
        kind: 'tickets',
        ticketType: type,
        seats: [],
        quantity,
        unitKobo: unit,
        feePerTicketKobo: fee,
        amountKobo: quantity * unit,
        bookingFeeKobo: quantity * fee,
      });
    }
  }
  if (!show || rng.chance(0.6))
    for (let k = rng.int(1, 4); k > 0; k--) {
      const [code, name, category, unit] = ITEMS[rng.int(0, ITEMS.length - 1)]!;
      const quantity = rng.int(1, 5);
      lines.push({
        kind: code === 'CMB1' ? 'combo' : 'item',
        code,
        name,
        category,
        quantity,
        unitKobo: unit,
        amountKobo: quantity * unit,
        chosen: [],
      });
    }
  const total = basketAmounts(lines, { kind: 'card' }).totalKobo;
  const kind = rng.weighted<Tender['kind']>([
    ['card', 2],
    ['cash', 2],
    ['split', 2],
  ]);
  const change = rng.chance(0.5) ? 0 : rng.int(1, 200_000);
  const cashPart = kind === 'split' ? rng.int(1, total - 1) : total;
  const tender: Tender =
    kind === 'card'
      ? { kind }
      : kind === 'cash'
        ? { kind, tenderedKobo: total + change }
        : { kind, cashKobo: cashPart, tenderedKobo: cashPart + change };
  const a = basketAmounts(lines, tender);
  const createdAt = rng.chance(0.1) ? FROM - rng.int(1, HOURS) : FROM + rng.int(0, to - FROM - 1);
  const state: OrderState =
    kind === 'cash'
      ? 'paid'
      : rng.weighted<OrderState>([
          ['paid', 6],
          ['failed', 2],
          ['expired', 1],
          ['waiting', 1],
        ]);
  const tickets = lines.reduce((n, l) => n + (l.kind === 'tickets' ? l.quantity : 0), 0);
  const sale: LedgerSale = {
    ref: `COU1-261207-${String(i + 1).padStart(4, '0')}`,
    createdAt,
    state,
    amountKobo: a.cardKobo,
    tickets,
    bookingFeeKobo: a.bookingFeeKobo,
    providerFeeKobo: 0,
    paidAt: state !== 'paid' ? null : kind === 'cash' ? createdAt : createdAt + rng.int(0, HOURS / 4),
    demo: rng.chance(0.1),
    show: show ?? NO_SHOW,
    basket: { lines, tender, amounts: a },
  };
  return { sale, lines, kind, cash: a.cashKobo, card: a.cardKobo };
}

/** A sale from before baskets: one type by card, no basket on it. */
function oldSale(rng: Rng, i: number, to: number): MSale {
  const quantity = rng.int(1, 4);
  const fee = quantity * 10_000;
  const amount = quantity * 200_000 + fee;
  const createdAt = FROM + rng.int(0, to - FROM - 1);
  const paid = rng.chance(0.7);
  const sale: LedgerSale = {
    ref: `COU1-261207-O${i}`,
    createdAt,
    state: paid ? 'paid' : 'failed',
    amountKobo: amount,
    tickets: quantity,
    bookingFeeKobo: fee,
    providerFeeKobo: 0,
    paidAt: paid ? createdAt : null,
    demo: false,
    show: SHOWS[0]!,
  };
  const lines: BasketLine[] = [
    {
      kind: 'tickets',
      ticketType: 'Ticket',
      seats: [],
      quantity,
      unitKobo: 200_000,
      feePerTicketKobo: 10_000,
      amountKobo: quantity * 200_000,
      bookingFeeKobo: fee,
    },
  ];
  return { sale, lines, kind: 'card', cash: 0, card: amount };
}

const sumBy = <T>(xs: readonly T[], f: (x: T) => number) => xs.reduce((n, x) => n + f(x), 0);

describe('the ledger’s basket lines against a model', () => {
  it('hold over 800 random shifts: tickets by show and type, concessions by item and category, tenders, sales total, drawer', () => {
    let cashSales = 0,
      combos = 0,
      counted = 0;
    for (let seed = 1; seed <= 800; seed++) {
      const rng = createRng(3900 + seed);
      const to = FROM + rng.int(1, 10) * HOURS;
      const excludeDemo = rng.chance(0.7);
      const sales = [
        ...Array.from({ length: rng.int(0, 30) }, (_, i) => randomSale(rng, i, to)),
        ...Array.from({ length: rng.int(0, 4) }, (_, i) => oldSale(rng, i, to)),
      ];
      const floatKobo = rng.chance(0.3) ? 0 : rng.int(0, 2_000_000);
      const paidOut = Array.from({ length: rng.int(0, 2) }, (_, i) => ({
        ref: `R${i}`,
        at: FROM + rng.int(0, to - FROM - 1),
        amountKobo: rng.int(1, 50_000),
      }));
      // Drops are judged against the drawer by checkDrop (its own model test); here any recorded drop counts.
      const drops = Array.from({ length: rng.int(0, 3) }, () => ({
        amountKobo: rng.int(1, 100_000),
        by: 'Ada',
        at: FROM + rng.int(0, to - FROM - 1),
        ...(rng.chance(0.5) ? { note: 'to the safe' } : {}),
      }));
      const countedKobo = rng.chance(0.6) ? rng.int(0, 5_000_000) : null;
      const w = { from: FROM, to, excludeDemo };
      const f = ledger(
        {
          sales: sales.map((m) => m.sale),
          late: [],
          topups: [],
          drawer: {
            floatKobo,
            cashPaidOut: paidOut,
            drops,
            counts: countedKobo === null ? [] : [{ countedKobo, by: 'Ada', at: to }],
          },
        },
        w,
      );

      // ---- the model ----
      const within = (at: number) => at >= FROM && at < to;
      const paid = sales.filter(
        (m) => !(excludeDemo && m.sale.demo) && m.sale.state === 'paid' && within(m.sale.paidAt!),
      );
      const types = new Map<string, [number, number, number]>();
      const items = new Map<string, [number, number]>();
      const cats = new Map<string, [number, number]>();
      for (const m of paid)
        for (const l of m.lines) {
          if (l.kind === 'tickets') {
            const s = m.sale.show;
            const k = `${s.showDate} ${s.showTime} ${s.filmName} ${s.filmTitle} ${l.ticketType}`;
            const v = types.get(k) ?? [0, 0, 0];
            types.set(k, [v[0] + l.quantity, v[1] + l.amountKobo, v[2] + l.bookingFeeKobo]);
          } else {
            const v = items.get(l.code) ?? [0, 0];
            items.set(l.code, [v[0] + l.quantity, v[1] + l.amountKobo]);
            const c = cats.get(l.category) ?? [0, 0];
            cats.set(l.category, [c[0] + l.quantity, c[1] + l.amountKobo]);
            if (l.kind === 'combo') combos++;
          }
        }
      const byKey = (m: Map<string, number[]>) => [...m.entries()].sort(([a], [b]) => a.localeCompare(b));
      expect(
        byKey(
          new Map(
            f.ticketTypes.map((t) => [
              `${t.showDate} ${t.showTime} ${t.filmName} ${t.filmTitle} ${t.ticketType}`,
              [t.quantity, t.amountKobo, t.bookingFeeKobo],
            ]),
          ),
        ),
      ).toEqual(byKey(types));
      expect(byKey(new Map(f.concessions.items.map((i) => [i.code, [i.quantity, i.amountKobo]])))).toEqual(
        byKey(items),
      );
      expect(byKey(new Map(f.concessions.categories.map((c) => [c.category, [c.quantity, c.amountKobo]])))).toEqual(
        byKey(cats),
      );
      expect(f.concessions.amountKobo).toBe(sumBy([...items.values()], (v) => v[1]));

      // Card total: the card parts of paid card and split sales, what the terminal took; a cash sale in no card line.
      const byCard = paid.filter((m) => m.kind !== 'cash');
      expect(f.card).toEqual({ count: byCard.length, amountKobo: sumBy(byCard, (m) => m.card) });
      expect(f.paid.count + f.paidLate.count).toBe(byCard.length);
      expect(f.tenders.cardTaken.amountKobo).toBe(f.card.amountKobo);
      const cashTaken = sumBy(paid, (m) => m.cash);
      expect(f.tenders.cashTaken.amountKobo).toBe(cashTaken);
      expect(f.tenders.cash.count).toBe(paid.filter((m) => m.kind === 'cash').length);
      // Sales total: every tender, exactly what the paid baskets came to.
      expect(f.salesTotal).toEqual({
        count: paid.length,
        amountKobo: sumBy(paid, (m) => m.sale.basket?.amounts.totalKobo ?? m.card),
      });
      expect(f.salesTotal.amountKobo).toBe(sumBy([...types.values()], (v) => v[1] + v[2]) + f.concessions.amountKobo);
      expect(f.ticketsSold).toBe(sumBy([...types.values()], (v) => v[0]));
      expect(f.bookingFeesKobo).toBe(sumBy([...types.values()], (v) => v[2]));
      // Per show: its tickets and fees, every tender; a basket without tickets on no show line.
      expect(sumBy(f.shows, (s) => s.amountKobo)).toBe(sumBy([...types.values()], (v) => v[1] + v[2]));
      expect(f.shows.every((s) => s.filmName !== '')).toBe(true);

      // The drawer.
      const inW = <T extends { at: number }>(xs: readonly T[]) => xs.filter((x) => within(x.at));
      const expected =
        floatKobo + cashTaken - sumBy(inW(paidOut), (p) => p.amountKobo) - sumBy(inW(drops), (d) => d.amountKobo);
      expect(f.drawer.expectedKobo).toBe(expected);
      expect(f.drawer.cashTaken.amountKobo).toBe(cashTaken);
      expect(f.drawer.dropItems).toHaveLength(inW(drops).length);
      expect(f.drawer.countedKobo).toBe(countedKobo);
      expect(f.drawer.overShortKobo).toBe(countedKobo === null ? null : countedKobo - expected);
      expect(f.drawer.count).toEqual(countedKobo === null ? null : { by: 'Ada', at: to });
      cashSales += paid.filter((m) => m.kind === 'cash').length;
      if (countedKobo !== null) counted++;
    }
    expect(cashSales).toBeGreaterThan(500);
    expect(combos).toBeGreaterThan(500);
    expect(counted).toBeGreaterThan(300);
  });
});
