// The drawer of a shift and the tender lines, by example: a Z's drawer worked through, every refusal
// of a drop and a count with the words the cashier reads, and the failed-card-after-cash rule.
import { describe, expect, it } from 'vitest';
import { checkCount, checkDrop, drawerHolds, drawerTotals, type DrawerFacts } from '../../../shared/drawer';
import type { LedgerSale } from '../../../shared/ledger';
import type { OrderState } from '../../../shared/orders';
import { cashTakenOf, handBackText, tenderLines, type SaleTender } from '../../../shared/tender-lines';

const OPEN = Date.UTC(2026, 11, 7, 9, 0);
const MIN = 60_000;
const CLOSE = OPEN + 600 * MIN;
const SHOW = { filmName: 'Dune 2', filmTitle: 'DUNE: PART TWO', showDate: '2026-12-07', showTime: '19:30' };

/** Float ₦20,000; cash taken ₦7,000 and ₦5,000; ₦1,500 paid out; ₦10,000 dropped. */
const FACTS: DrawerFacts = {
  floatKobo: 2_000_000,
  cashTaken: [
    { ref: 'S1', at: OPEN + 10 * MIN, cashKobo: 700_000 },
    { ref: 'S2', at: OPEN + 20 * MIN, cashKobo: 500_000 },
    { ref: 'S9', at: CLOSE + MIN, cashKobo: 999_900 },
  ],
  cashPaidOut: [{ ref: 'S1', at: OPEN + 30 * MIN, amountKobo: 150_000 }],
  drops: [{ amountKobo: 1_000_000, by: 'Ada', at: OPEN + 40 * MIN, note: 'to the safe' }],
  counts: [],
};

const problems = (r: { ok: boolean; problems?: { path: (string | number)[]; message: string }[] }) =>
  r.ok ? [] : (r.problems ?? []).map((p) => `${p.path.join('.')}: ${p.message}`);

describe('drawerTotals', () => {
  it('works a Z through: expected = float + cash taken − paid out − drops; over/short signed', () => {
    const short = drawerTotals(
      { ...FACTS, counts: [{ countedKobo: 1_540_000, by: 'Ada', at: CLOSE }] },
      {
        from: OPEN,
        to: CLOSE,
      },
    );
    expect(short).toEqual({
      floatKobo: 2_000_000,
      cashTaken: { count: 2, amountKobo: 1_200_000 },
      cashPaidOut: { count: 1, amountKobo: 150_000 },
      drops: { count: 1, amountKobo: 1_000_000 },
      expectedKobo: 2_050_000,
      countedKobo: 1_540_000,
      overShortKobo: -510_000,
    });
    const over = drawerTotals(
      { ...FACTS, counts: [{ countedKobo: 2_050_500, by: 'Ada', at: CLOSE }] },
      {
        from: OPEN,
        to: CLOSE,
      },
    );
    expect(over.overShortKobo).toBe(500);
  });

  it('is not counted until the drawer is counted in the window; a recount replaces the count', () => {
    expect(drawerTotals(FACTS, { from: OPEN, to: CLOSE })).toMatchObject({ countedKobo: null, overShortKobo: null });
    const counts = [
      { countedKobo: 2_000_000, by: 'Ada', at: CLOSE - MIN },
      { countedKobo: 2_050_000, by: 'Bola', at: CLOSE },
    ];
    expect(drawerTotals({ ...FACTS, counts }, { from: OPEN, to: CLOSE })).toMatchObject({
      countedKobo: 2_050_000,
      overShortKobo: 0,
    });
    // An X report before the count has none.
    expect(drawerTotals({ ...FACTS, counts }, { from: OPEN, to: CLOSE - 2 * MIN }).countedKobo).toBeNull();
  });

  it('what the drawer holds at a moment counts everything up to it', () => {
    expect(drawerHolds(FACTS, OPEN, OPEN)).toBe(2_000_000);
    expect(drawerHolds(FACTS, OPEN, OPEN + 10 * MIN)).toBe(2_700_000);
    expect(drawerHolds(FACTS, OPEN, OPEN + 40 * MIN)).toBe(2_050_000);
  });

  it('refuses facts that are not whole kobo', () => {
    expect(() => drawerTotals({ ...FACTS, floatKobo: 0.5 }, { from: OPEN, to: CLOSE })).toThrow(RangeError);
    const cashTaken = [{ ref: 'S1', at: OPEN, cashKobo: 10.25 }];
    expect(() => drawerTotals({ ...FACTS, cashTaken }, { from: OPEN, to: CLOSE })).toThrow(/whole number of kobo/);
  });
});

describe('checkDrop', () => {
  const drop = { amountKobo: 500_000, by: 'Ada', at: OPEN + 50 * MIN };

  it('records a drop up to what the drawer should hold, with who, when and a note', () => {
    expect(checkDrop({ ...drop, by: '  Ada ', note: ' Safe bag 12 ' }, FACTS, OPEN)).toEqual({
      ok: true,
      value: { ...drop, note: 'Safe bag 12' },
    });
    expect(checkDrop({ ...drop, amountKobo: 2_050_000 }, FACTS, OPEN).ok).toBe(true);
  });

  it('refuses a drop larger than the drawer holds, saying how much it should hold', () => {
    expect(problems(checkDrop({ ...drop, amountKobo: 2_050_001 }, FACTS, OPEN))).toEqual([
      'amountKobo: The drawer should hold ₦20,500.00: take at most that to the safe',
    ]);
    // At the time of the drop, not later: the cash of S2 was not in yet at 15 minutes.
    expect(problems(checkDrop({ ...drop, amountKobo: 2_700_001, at: OPEN + 15 * MIN }, FACTS, OPEN))).toEqual([
      'amountKobo: The drawer should hold ₦27,000.00: take at most that to the safe',
    ]);
    const empty = { ...FACTS, floatKobo: 0, cashTaken: [], drops: [] };
    expect(problems(checkDrop({ ...drop, amountKobo: 1 }, empty, OPEN))).toEqual([
      'amountKobo: The drawer should hold ₦0.00: there is no cash to take to the safe',
    ]);
  });

  it('refuses a drop with no amount above ₦0.00, not in kobo, or a typo', () => {
    expect(problems(checkDrop({ ...drop, amountKobo: 0 }, FACTS, OPEN))).toEqual([
      'amountKobo: Enter an amount above ₦0.00 to take to the safe',
    ]);
    expect(problems(checkDrop({ ...drop, amountKobo: -100 }, FACTS, OPEN))).toEqual([
      'amountKobo: Enter an amount above ₦0.00 to take to the safe',
    ]);
    expect(problems(checkDrop({ ...drop, amountKobo: 100.5 }, FACTS, OPEN))).toEqual([
      'amountKobo: The amount must be a whole number of kobo',
    ]);
    expect(problems(checkDrop({ ...drop, amountKobo: '5000' }, FACTS, OPEN))).toEqual([
      'amountKobo: Enter the amount taken to the safe',
    ]);
    expect(problems(checkDrop({ ...drop, amountKobo: 10_000_000_001 }, FACTS, OPEN))).toEqual([
      'amountKobo: The amount looks wrong (over ₦100,000,000): check it',
    ]);
  });

  it('refuses a drop without who took it, before the shift, or with a field it does not know', () => {
    const { by: _by, ...nobody } = drop;
    expect(problems(checkDrop(nobody, FACTS, OPEN))).toEqual(['by: Enter who took the cash to the safe']);
    expect(problems(checkDrop({ ...drop, by: '   ' }, FACTS, OPEN))).toEqual([
      'by: Enter who took the cash to the safe',
    ]);
    expect(problems(checkDrop({ ...drop, by: 'x'.repeat(41) }, FACTS, OPEN))).toEqual([
      'by: A name is at most 40 characters',
    ]);
    expect(problems(checkDrop({ ...drop, note: 'x'.repeat(121) }, FACTS, OPEN))).toEqual([
      'note: A note is at most 120 characters',
    ]);
    expect(problems(checkDrop({ ...drop, at: OPEN - 1 }, FACTS, OPEN))).toEqual([
      'at: A drop cannot be before the shift opened',
    ]);
    expect(problems(checkDrop({ ...drop, at: undefined }, FACTS, OPEN))).toEqual(['at: The time is missing']);
    expect(problems(checkDrop({ ...drop, amount: 5 }, FACTS, OPEN))).toEqual([': Unrecognized key: "amount"']);
  });
});

describe('checkCount', () => {
  const count = { countedKobo: 2_050_000, by: 'Ada', at: CLOSE };

  it('records a count of ₦0.00 or more, with who and when', () => {
    expect(checkCount(count)).toEqual({ ok: true, value: count });
    expect(checkCount({ ...count, countedKobo: 0 })).toEqual({ ok: true, value: { ...count, countedKobo: 0 } });
  });

  it('refuses a negative count, one not in kobo, a typo, and a count without who counted', () => {
    expect(problems(checkCount({ ...count, countedKobo: -1 }))).toEqual([
      'countedKobo: The count cannot be negative: enter ₦0.00 for an empty drawer',
    ]);
    expect(problems(checkCount({ ...count, countedKobo: 1.5 }))).toEqual([
      'countedKobo: The count must be a whole number of kobo',
    ]);
    expect(problems(checkCount({ ...count, countedKobo: 10_000_000_001 }))).toEqual([
      'countedKobo: The count looks wrong (over ₦100,000,000): count again',
    ]);
    expect(problems(checkCount({ ...count, countedKobo: null }))).toEqual([
      'countedKobo: Enter the cash counted in the drawer',
    ]);
    expect(problems(checkCount({ ...count, by: '' }))).toEqual(['by: Enter who counted the drawer']);
  });
});

describe('tenderLines', () => {
  const sale = (ref: string, state: OrderState, amountKobo: number, at = OPEN + MIN, demo = false): LedgerSale => ({
    ref,
    createdAt: at,
    state,
    amountKobo,
    tickets: 1,
    bookingFeeKobo: 0,
    providerFeeKobo: 0,
    paidAt: state === 'paid' ? at + MIN : null,
    demo,
    show: SHOW,
  });
  const SALES = [
    sale('COU1-0001', 'paid', 450_000),
    sale('COU1-0002', 'paid', 0),
    sale('COU1-0003', 'paid', 700_000),
    sale('COU1-0004', 'failed', 700_000),
    sale('COU1-0005', 'waiting', 200_000),
    sale('COU1-0006', 'paid', 300_000),
    sale('COU1-0007', 'paid', 0, OPEN + MIN, true),
  ];
  const TENDERS: SaleTender[] = [
    { ref: 'COU1-0002', kind: 'cash', cashKobo: 250_000, cardKobo: 0 },
    { ref: 'COU1-0003', kind: 'split', cashKobo: 500_000, cardKobo: 700_000 },
    { ref: 'COU1-0004', kind: 'split', cashKobo: 500_000, cardKobo: 700_000 },
    { ref: 'COU1-0005', kind: 'split', cashKobo: 100_000, cardKobo: 200_000 },
    { ref: 'COU1-0006', kind: 'card', cashKobo: 0, cardKobo: 300_000 },
    { ref: 'COU1-0007', kind: 'cash', cashKobo: 999_900, cardKobo: 0 },
  ];

  it('puts each paid sale in one line; the card parts are what the terminal took; a failed split’s cash goes back', () => {
    const t = tenderLines(SALES, TENDERS, { from: OPEN, to: CLOSE, excludeDemo: true });
    expect(t).toEqual({
      // COU1-0001 has no tender recorded: a card sale of its amount, as every sale before baskets.
      card: { count: 2, amountKobo: 750_000 },
      cash: { count: 1, amountKobo: 250_000 },
      split: { count: 1, cashKobo: 500_000, cardKobo: 700_000 },
      cardTaken: { count: 3, amountKobo: 1_450_000 },
      cashTaken: { count: 2, amountKobo: 750_000 },
      toHandBack: {
        count: 1,
        amountKobo: 500_000,
        items: [{ ref: 'COU1-0004', amountKobo: 500_000, outcome: 'failed' }],
      },
      cashHeld: { count: 1, amountKobo: 100_000 },
    });
    expect(handBackText(t.toHandBack.items[0]!)).toBe(
      'Sale COU1-0004: the card failed. Hand back ₦5,000.00 cash, or sell the basket again (the cash counts in the new sale).',
    );
    // A Demo shift counts its Demo sales.
    expect(tenderLines(SALES, TENDERS, { from: OPEN, to: CLOSE, excludeDemo: false }).cash).toEqual({
      count: 2,
      amountKobo: 1_249_900,
    });
  });

  it('gives the drawer the same cash, at the time each sale was paid', () => {
    expect(cashTakenOf(SALES, TENDERS, { excludeDemo: true })).toEqual([
      { ref: 'COU1-0002', at: OPEN + 2 * MIN, cashKobo: 250_000 },
      { ref: 'COU1-0003', at: OPEN + 2 * MIN, cashKobo: 500_000 },
    ]);
  });

  it('names a card part that expired or was cancelled in the cashier’s words', () => {
    expect(handBackText({ ref: 'COU1-0009', amountKobo: 150_050, outcome: 'expired' })).toBe(
      'Sale COU1-0009: the card payment expired. Hand back ₦1,500.50 cash, or sell the basket again (the cash counts in the new sale).',
    );
  });

  it('refuses a tender whose parts do not fit its kind', () => {
    const bad: SaleTender[] = [
      { ref: 'COU1-0003', kind: 'split', cashKobo: 0, cardKobo: 700_000 },
      { ref: 'COU1-0003', kind: 'card', cashKobo: 100, cardKobo: 700_000 },
      { ref: 'COU1-0003', kind: 'cash', cashKobo: 100, cardKobo: 1 },
      { ref: 'COU1-0003', kind: 'split', cashKobo: 0.5, cardKobo: 700_000 },
    ];
    for (const t of bad)
      expect(() => tenderLines(SALES, [t], { from: OPEN, to: CLOSE, excludeDemo: true })).toThrow(/Sale COU1-0003/);
  });
});
