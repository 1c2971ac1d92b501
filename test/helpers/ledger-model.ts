// The model of the one ledger's test (test/integration/records/ledger-model.test.ts): the random
// actions of a day at a counter, and what every surface must show, written out plainly from the
// rules (docs/cashier-guide.md, "What the card total holds") — independent of shared/ledger.ts.
import fc from 'fast-check';

// ---- the actions ---------------------------------------------------------------------------------

export type Action =
  | { t: 'wait'; minutes: number }
  | { t: 'sell'; price: number; tickets: number; fee: number; demo: boolean }
  | { t: 'settle'; pick: number; to: 'paid' | 'failed' | 'cancelled' | 'expired' | 'unknown'; providerFee: number }
  | { t: 'latePaid'; pick: number; source: 'webhook' | 'relay' | 'query' | 'sweep'; backMinutes: number }
  | { t: 'reportedOtherwise'; pick: number; status: 'FAIL' | 'CLOSE' }
  | { t: 'handle'; pick: number; how: 'refund' | 'tickets-given' }
  | { t: 'topup'; amount: number; outcome: 'success' | 'fail' | 'pending'; demo: boolean }
  | { t: 'shift'; demo: boolean }
  | { t: 'x' }
  | { t: 'close' };

export const actionArb: fc.Arbitrary<Action> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      t: fc.constant('wait' as const),
      minutes: fc.oneof(fc.integer({ min: 1, max: 90 }), fc.integer({ min: 300, max: 900 })),
    }),
  },
  {
    weight: 5,
    arbitrary: fc.record({
      t: fc.constant('sell' as const),
      price: fc.integer({ min: 1, max: 9 }),
      tickets: fc.integer({ min: 1, max: 3 }),
      fee: fc.integer({ min: 0, max: 2 }),
      demo: fc.boolean(),
    }),
  },
  {
    weight: 5,
    arbitrary: fc.record({
      t: fc.constant('settle' as const),
      pick: fc.nat(),
      to: fc.constantFrom('paid', 'paid', 'failed', 'cancelled', 'expired', 'unknown'),
      providerFee: fc.integer({ min: 0, max: 900 }),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      t: fc.constant('latePaid' as const),
      pick: fc.nat(),
      source: fc.constantFrom('webhook', 'relay', 'query', 'sweep'),
      backMinutes: fc.integer({ min: 0, max: 40 }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      t: fc.constant('reportedOtherwise' as const),
      pick: fc.nat(),
      status: fc.constantFrom('FAIL', 'CLOSE'),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      t: fc.constant('handle' as const),
      pick: fc.nat(),
      how: fc.constantFrom('refund', 'tickets-given'),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      t: fc.constant('topup' as const),
      amount: fc.integer({ min: 1, max: 20 }),
      outcome: fc.constantFrom('success', 'fail', 'pending'),
      demo: fc.boolean(),
    }),
  },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('shift' as const), demo: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('x' as const) }) },
);

// ---- the model: the rules, written out plainly ------------------------------------------------

export interface MSale {
  id: number;
  ref: string;
  createdAt: number;
  amount: number;
  tickets: number;
  bookingFee: number;
  state: string;
  demo: boolean;
  paidAt: number | null;
}
export interface MLate {
  ref: string;
  kind: 'paid-after-closing' | 'reported-otherwise';
  amount: number;
  foundAt: number;
  providerAt: number;
  payNo: string | null;
  refund: boolean;
  demo: boolean;
}
export interface MTopup {
  createdAt: number;
  amount: number;
  state: string;
  demo: boolean;
}
export interface Expect {
  card: { count: number; kobo: number };
  paidAfterClosing: { count: number; kobo: number; refs: string[]; payNos: string[]; at: number[] };
  refund: { count: number; kobo: number };
  failed: number;
  cancelled: number;
  expired: number;
  open: number;
  topupsOk: { count: number; kobo: number };
  /** The tickets and booking fees of the sales inside the card total (paid, sold earlier and paid now, paid after closing and kept). */
  tickets: number;
  bookingFees: number;
  /** Each sale of the window in the one outcome line it ended in: ref → line. */
  outcomeOf: Map<string, 'paid' | 'paid_after_closing' | 'failed' | 'cancelled' | 'expired' | 'not_finished'>;
}

export function expected(
  m: { sales: MSale[]; late: MLate[]; topups: MTopup[] },
  from: number,
  to: number,
  demoShift: boolean,
): Expect {
  const counts = (x: { demo: boolean }) => demoShift || !x.demo;
  const inWindow = (at: number) => from <= at && at < to;
  const e: Expect = {
    card: { count: 0, kobo: 0 },
    paidAfterClosing: { count: 0, kobo: 0, refs: [], payNos: [], at: [] },
    refund: { count: 0, kobo: 0 },
    failed: 0,
    cancelled: 0,
    expired: 0,
    open: 0,
    topupsOk: { count: 0, kobo: 0 },
    tickets: 0,
    bookingFees: 0,
    outcomeOf: new Map(),
  };
  // A sale the provider paid after closing, learnt here, ended in that line alone.
  const lateHere = new Set(
    m.late.filter((l) => counts(l) && l.kind === 'paid-after-closing' && inWindow(l.foundAt)).map((l) => l.ref),
  );
  const inCard = (s: MSale) => {
    e.card.count += 1;
    e.card.kobo += s.amount;
    e.tickets += s.tickets;
    e.bookingFees += s.bookingFee;
  };
  for (const s of m.sales.filter(counts)) {
    const soldHere = inWindow(s.createdAt);
    // Card money: paid sales sold here, and earlier sales that turned paid here.
    if ((soldHere && s.state === 'paid') || (s.createdAt < from && s.paidAt !== null && inWindow(s.paidAt))) inCard(s);
    if (!soldHere) continue;
    const line = lateHere.has(s.ref)
      ? 'paid_after_closing'
      : s.state === 'paid' || s.state === 'failed' || s.state === 'cancelled' || s.state === 'expired'
        ? s.state
        : 'not_finished';
    e.outcomeOf.set(s.ref, line);
    if (line === 'failed') e.failed += s.amount;
    if (line === 'cancelled') e.cancelled += s.amount;
    if (line === 'expired') e.expired += s.amount;
    if (line === 'not_finished') e.open += s.amount;
  }
  for (const l of m.late.filter(counts)) {
    if (l.kind !== 'paid-after-closing' || !inWindow(l.foundAt)) continue;
    e.paidAfterClosing.count += 1;
    e.paidAfterClosing.kobo += l.amount;
    e.paidAfterClosing.refs.push(l.ref);
    if (l.payNo) e.paidAfterClosing.payNos.push(l.payNo);
    e.paidAfterClosing.at.push(l.providerAt);
    if (l.refund) {
      e.refund.count += 1;
      e.refund.kobo += l.amount;
    } else inCard(m.sales.find((x) => x.ref === l.ref)!);
  }
  for (const t of m.topups.filter(counts)) {
    if (t.state === 'success' && inWindow(t.createdAt)) {
      e.topupsOk.count += 1;
      e.topupsOk.kobo += t.amount;
    }
  }
  return e;
}
