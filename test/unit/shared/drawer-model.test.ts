// The drawer and the tender lines against a model, over random shifts: cash, card and split sales
// (baskets priced by basketAmounts, the change handed back), split sales whose card part failed after
// the cash was given, sales still open, sales sold before the shift and paid in it, Demo sales, cash
// paid out, drops (each checked against what the drawer holds at its moment) and counts. Whatever
// the shift: expected = float + cash taken − paid out − drops; over/short = counted − expected,
// signed; the card line = the card parts of the paid sales (the ledger's card total when each sale
// holds its card part); each sale in exactly one line.
import { describe, expect, it } from 'vitest';
import { basketAmounts, type BasketLine, type Tender } from '../../../shared/basket';
import { checkDrop, drawerTotals, type DrawerDrop, type DrawerFacts } from '../../../shared/drawer';
import { ledger, type LedgerSale } from '../../../shared/ledger';
import type { OrderState } from '../../../shared/orders';
import { cashTakenOf, tenderLines, type SaleTender } from '../../../shared/tender-lines';
import { createRng, type Rng } from '../../helpers/chaos-random';

const FROM = Date.UTC(2026, 11, 7, 9, 0);
const HOURS = 3_600_000;
const SHOW = { filmName: 'Dune 2', filmTitle: 'DUNE: PART TWO', showDate: '2026-12-07', showTime: '19:30' };

/** A sale of the model: how it was paid, what the customer handed over and got back. */
interface ModelSale {
  sale: LedgerSale;
  tender: SaleTender;
  kind: Tender['kind'];
  totalKobo: number;
  /** What the model says the drawer keeps: tendered − change (0 for card). */
  cashPartKobo: number;
  cardPartKobo: number;
}

const concession = (totalKobo: number): BasketLine => ({
  kind: 'item',
  code: 'POPL',
  name: 'Popcorn large',
  category: 'Popcorn',
  quantity: 1,
  unitKobo: totalKobo,
  amountKobo: totalKobo,
  chosen: [],
});

function randomSale(rng: Rng, i: number, to: number): ModelSale {
  const kind = rng.weighted<Tender['kind']>([
    ['card', 3],
    ['cash', 3],
    ['split', 3],
  ]);
  const totalKobo = rng.int(kind === 'split' ? 2 : 1, rng.chance(0.2) ? 100 : 5_000_000);
  const cashPartKobo = kind === 'card' ? 0 : kind === 'cash' ? totalKobo : rng.int(1, totalKobo - 1);
  const changeKobo = kind === 'card' ? 0 : rng.chance(0.4) ? 0 : rng.int(1, 1_000_000);
  const tendered = cashPartKobo + changeKobo;
  const tender: Tender =
    kind === 'card'
      ? { kind }
      : kind === 'cash'
        ? { kind, tenderedKobo: tendered }
        : rng.chance(0.3) && changeKobo === 0
          ? { kind, cashKobo: cashPartKobo }
          : { kind, cashKobo: cashPartKobo, tenderedKobo: tendered };
  const a = basketAmounts([concession(totalKobo)], tender);
  // The basket's arithmetic agrees with the model: the cash kept is what was handed over less the change.
  expect(a.tenderedKobo - a.changeKobo).toBe(cashPartKobo);
  expect(a.changeKobo).toBe(changeKobo);
  const createdAt = rng.chance(0.1) ? FROM - rng.int(1, HOURS) : FROM + rng.int(0, to - FROM - 1);
  // A cash sale is paid at once; a card or split one when its card part goes through, or never.
  const state: OrderState =
    kind === 'cash'
      ? rng.weighted<OrderState>([
          ['paid', 9],
          ['cancelled', 1],
        ])
      : rng.weighted<OrderState>([
          ['paid', 6],
          ['failed', 2],
          ['cancelled', 1],
          ['expired', 1],
          ['waiting', 1],
          ['unknown', 1],
        ]);
  const paidAt = state !== 'paid' ? null : kind === 'cash' ? createdAt : createdAt + rng.int(0, HOURS / 4);
  const sale: LedgerSale = {
    ref: `COU1-261207-${String(i + 1).padStart(4, '0')}`,
    createdAt,
    state,
    amountKobo: a.cardKobo,
    tickets: 0,
    bookingFeeKobo: 0,
    providerFeeKobo: 0,
    paidAt,
    demo: rng.chance(0.1),
    show: SHOW,
  };
  return {
    sale,
    tender: { ref: sale.ref, kind, cashKobo: a.cashKobo, cardKobo: a.cardKobo },
    kind,
    totalKobo,
    cashPartKobo,
    cardPartKobo: totalKobo - cashPartKobo,
  };
}

/** The model's drawer: the physical cash events in time order, each drop judged against what it holds then. */
function randomShift(seed: number) {
  const rng = createRng(seed);
  const to = FROM + rng.int(1, 12) * HOURS;
  const excludeDemo = rng.chance(0.7);
  const sales = Array.from({ length: rng.int(0, 60) }, (_, i) => randomSale(rng, i, to));
  const inScope = (m: ModelSale) => !(excludeDemo && m.sale.demo);
  const cashIn = sales
    .filter((m) => inScope(m) && m.sale.state === 'paid' && m.kind !== 'card')
    .map((m) => ({ at: m.sale.paidAt!, kobo: m.cashPartKobo }));
  const paidOut = Array.from({ length: rng.int(0, 4) }, (_, i) => ({
    ref: `COU1-261207-R${i}`,
    at: FROM + rng.int(0, to - FROM - 1),
    amountKobo: rng.int(1, 300_000),
  }));
  const floatKobo = rng.chance(0.2) ? 0 : rng.int(0, 5_000_000);
  const facts: DrawerFacts = {
    floatKobo,
    cashTaken: cashTakenOf(
      sales.map((m) => m.sale),
      sales.map((m) => m.tender),
      { excludeDemo },
    ),
    cashPaidOut: paidOut,
    drops: [],
    counts: [],
  };
  const sum = (xs: { at: number; kobo: number }[], upTo: number) =>
    xs.filter((x) => x.at >= FROM && x.at <= upTo).reduce((n, x) => n + x.kobo, 0);
  const drops: DrawerDrop[] = [];
  const holdsAt = (t: number) =>
    floatKobo +
    sum(cashIn, t) -
    sum(
      paidOut.map((p) => ({ at: p.at, kobo: p.amountKobo })),
      t,
    ) -
    sum(
      drops.map((d) => ({ at: d.at, kobo: d.amountKobo })),
      t,
    );
  let refused = 0;
  for (let k = rng.int(0, 5); k > 0; k--) {
    const at = FROM + rng.int(0, to - FROM - 1);
    const holds = holdsAt(at);
    const amountKobo = rng.chance(0.3) ? Math.max(1, holds + rng.int(1, 100_000)) : rng.int(1, Math.max(1, holds));
    const r = checkDrop({ amountKobo, by: 'Ada', at }, { ...facts, drops: [...drops] }, FROM);
    if (amountKobo > holds) {
      expect(r.ok, `a drop of ${amountKobo} when the drawer holds ${holds}`).toBe(false);
      refused++;
    } else {
      expect(r).toEqual({ ok: true, value: { amountKobo, by: 'Ada', at } });
      drops.push({ amountKobo, by: 'Ada', at });
    }
  }
  const counted = rng.chance(0.7);
  const countedKobo = Math.max(
    0,
    holdsAt(to - 1) + rng.weighted([[0, 2] as const, [rng.int(-50_000, 50_000), 3] as const]),
  );
  return {
    rng,
    to,
    excludeDemo,
    sales,
    inScope,
    cashIn,
    holdsAt,
    refused,
    facts: { ...facts, drops, counts: counted ? [{ countedKobo, by: 'Ada', at: to }] : [] },
    countedKobo: counted ? countedKobo : null,
  };
}

describe('the drawer and the tender lines against a model', () => {
  it('hold over 1,500 random shifts, for the Z and for an X mid-shift', () => {
    let refusedDrops = 0,
      handedBack = 0,
      splits = 0,
      shortOrOver = 0;
    for (let seed = 1; seed <= 1_500; seed++) {
      const s = randomShift(3800 + seed);
      refusedDrops += s.refused;
      const x = FROM + s.rng.int(0, s.to - FROM);
      for (const w of [
        { from: FROM, to: s.to },
        { from: FROM, to: x },
      ]) {
        const z = w.to === s.to;
        const d = drawerTotals(s.facts, w);
        const within = (at: number) => at >= w.from && at < w.to;
        const cashTaken = s.cashIn.filter((c) => within(c.at)).reduce((n, c) => n + c.kobo, 0);
        const paidOut = s.facts.cashPaidOut.filter((p) => within(p.at)).reduce((n, p) => n + p.amountKobo, 0);
        const drops = s.facts.drops.filter((p) => within(p.at)).reduce((n, p) => n + p.amountKobo, 0);
        expect(d.floatKobo).toBe(s.facts.floatKobo);
        expect(d.cashTaken.amountKobo).toBe(cashTaken);
        expect(d.cashPaidOut.amountKobo).toBe(paidOut);
        expect(d.drops.amountKobo).toBe(drops);
        expect(d.expectedKobo).toBe(s.facts.floatKobo + cashTaken - paidOut - drops);
        expect(d.expectedKobo).toBe(s.holdsAt(w.to - 1));
        if (z && s.countedKobo !== null) {
          expect(d.countedKobo).toBe(s.countedKobo);
          expect(d.overShortKobo).toBe(s.countedKobo - d.expectedKobo);
          expect(Math.sign(d.overShortKobo!)).toBe(Math.sign(s.countedKobo - s.holdsAt(s.to - 1)));
          if (d.overShortKobo !== 0) shortOrOver++;
        } else expect([d.countedKobo, d.overShortKobo]).toEqual([null, null]);

        const t = tenderLines(
          s.sales.map((m) => m.sale),
          s.sales.map((m) => m.tender),
          { ...w, excludeDemo: s.excludeDemo },
        );
        const paid = s.sales.filter((m) => s.inScope(m) && m.sale.state === 'paid' && within(m.sale.paidAt!));
        const of = (k: Tender['kind']) => paid.filter((m) => m.kind === k);
        const total = (ms: ModelSale[], part: 'cashPartKobo' | 'cardPartKobo') => ms.reduce((n, m) => n + m[part], 0);
        expect(t.card).toEqual({ count: of('card').length, amountKobo: total(of('card'), 'cardPartKobo') });
        expect(t.cash).toEqual({ count: of('cash').length, amountKobo: total(of('cash'), 'cashPartKobo') });
        expect(t.split).toEqual({
          count: of('split').length,
          cashKobo: total(of('split'), 'cashPartKobo'),
          cardKobo: total(of('split'), 'cardPartKobo'),
        });
        // Each paid sale in exactly one line; the card line what the terminal took, the card parts only.
        expect(t.card.count + t.cash.count + t.split.count).toBe(paid.length);
        expect(t.cardTaken.amountKobo).toBe(total(paid, 'cardPartKobo'));
        expect(t.cardTaken.amountKobo).toBe(t.card.amountKobo + t.split.cardKobo);
        // The ledger's card total, its sales holding their card part, is the same figure.
        const figures = ledger(
          { sales: s.sales.map((m) => m.sale), late: [], topups: [] },
          { ...w, excludeDemo: s.excludeDemo },
        );
        expect(figures.card.amountKobo).toBe(t.cardTaken.amountKobo);
        expect(t.cashTaken.amountKobo).toBe(total(paid, 'cashPartKobo'));
        expect(t.cashTaken).toEqual(d.cashTaken);
        // A split whose card part failed after the cash: listed once, with exactly its cash part.
        const sold = s.sales.filter((m) => s.inScope(m) && m.kind === 'split' && within(m.sale.createdAt));
        const failed = sold.filter((m) => ['failed', 'cancelled', 'expired'].includes(m.sale.state));
        expect(t.toHandBack.items).toEqual(
          failed.map((m) => ({ ref: m.sale.ref, amountKobo: m.cashPartKobo, outcome: m.sale.state })),
        );
        expect(t.toHandBack.amountKobo).toBe(total(failed, 'cashPartKobo'));
        const open = sold.filter((m) => ['waiting', 'unknown'].includes(m.sale.state));
        expect(t.cashHeld).toEqual({ count: open.length, amountKobo: total(open, 'cashPartKobo') });
        const refs = [...paid, ...failed, ...open].map((m) => m.sale.ref);
        expect(new Set(refs).size).toBe(refs.length);
        handedBack += failed.length;
        splits += of('split').length;
      }
    }
    // The random shifts did reach every case.
    expect(refusedDrops).toBeGreaterThan(100);
    expect(handedBack).toBeGreaterThan(100);
    expect(splits).toBeGreaterThan(100);
    expect(shortOrOver).toBeGreaterThan(100);
  });
});
