// The model of the one ledger's test (test/integration/records/ledger-model.test.ts): the random
// actions of a day at a counter, and what every surface must show, written out plainly from the
// rules (docs/cashier-guide.md, "What the card total holds"; docs/concessions.md, "The drawer and
// the tenders"; docs/refunds.md, "Cancel and refunds owed") — independent of shared/ledger.ts, shared/ledger-basket.ts and shared/tender-lines.ts.
import fc from 'fast-check';

// ---- the show's ticket types and the catalogue, written out here (the test prices the same basket with checkBasket) ----

export const TICKET_TYPES = [
  { name: 'Adult', priceKobo: 350_000, bookingFeeKobo: 20_000 },
  { name: 'Child', priceKobo: 200_000, bookingFeeKobo: 0 },
  { name: 'Student', priceKobo: 250_000, bookingFeeKobo: 10_000 },
] as const;
/** The catalogue's items and its one combo (the test's catalogue is DEMO_CATALOGUE: the same prices). */
export const ITEMS = [
  { code: 'POPS', name: 'Popcorn small', category: 'Popcorn', priceKobo: 150_000 },
  { code: 'POPL', name: 'Popcorn large', category: 'Popcorn', priceKobo: 250_000 },
  { code: 'FANTA', name: 'Fanta 50cl', category: 'Drinks', priceKobo: 70_000 },
  { code: 'COKE', name: 'Coke 50cl', category: 'Drinks', priceKobo: 70_000 },
  { code: 'NACHO', name: 'Nachos with cheese', category: 'Snacks', priceKobo: 200_000 },
  { code: 'CMB1', name: 'Popcorn combo', category: 'Combos', priceKobo: 300_000 },
] as const;
export const COMBO_DRINKS = ['FANTA', 'COKE', 'WATER'] as const;

/** A basket sold: each seat's ticket type, the concession lines, the tender. */
export interface BasketPlan {
  /** Index into TICKET_TYPES, one per seat. */
  seats: number[];
  /** Index into ITEMS (the last is the combo), how many, and the combo's drink. */
  concessions: { item: number; quantity: number; drink: number }[];
  tender: 'card' | 'cash' | 'split';
  /** Cash handed over above the cash part, in ₦500s (the change). */
  over: number;
  /** A split's cash part: this percent of the total, in whole naira, leaving at least ₦1 on the card. */
  cashPercent: number;
}

// ---- the actions ---------------------------------------------------------------------------------

export type Action =
  | { t: 'wait'; minutes: number }
  | { t: 'sell'; price: number; tickets: number; fee: number; demo: boolean; basket?: BasketPlan }
  | { t: 'settle'; pick: number; to: 'paid' | 'failed' | 'cancelled' | 'expired' | 'unknown'; providerFee: number }
  | { t: 'latePaid'; pick: number; source: 'webhook' | 'relay' | 'query' | 'sweep'; backMinutes: number }
  | { t: 'reportedOtherwise'; pick: number; status: 'FAIL' | 'CLOSE' }
  | { t: 'handle'; pick: number; how: 'refund' | 'tickets-given' }
  | { t: 'topup'; amount: number; outcome: 'success' | 'fail' | 'pending'; demo: boolean }
  /** A cash drop: `share` percent of what the drawer should hold (above 100: refused), in whole naira. */
  | { t: 'drop'; share: number }
  /** Opens a shift (with a float in ₦1,000s), or closes the open one (counted: expected + `off` ₦100s; uncounted refused when needed). */
  | { t: 'shift'; demo: boolean; float?: number; count?: boolean; off?: number }
  | { t: 'x' }
  | { t: 'close'; count?: boolean; off?: number }
  /** Cancels the first `seats` (+1, wrapping) seats left of a paid sale, and one of its first concession line left when `line`. */
  | { t: 'cancel'; pick: number; seats: number; line: boolean }
  /** Records a card refund still owed as returned. */
  | { t: 'returned'; pick: number }
  /** Exchanges the first seat left of a paid sale to the 22:00 show as ticket type `type` (a dearer one paid in cash, `over` ₦500s above). */
  | { t: 'exchange'; pick: number; type: number; over: number }
  /** Opens a complaint case at the desk, or resolves one still open (`resolve`, the `pick`th). */
  | { t: 'case'; resolve: boolean; pick: number };

export const basketArb: fc.Arbitrary<BasketPlan> = fc.record({
  seats: fc.array(fc.integer({ min: 0, max: TICKET_TYPES.length - 1 }), { maxLength: 4 }),
  concessions: fc.array(
    fc.record({
      item: fc.integer({ min: 0, max: ITEMS.length - 1 }),
      quantity: fc.integer({ min: 1, max: 3 }),
      drink: fc.integer({ min: 0, max: COMBO_DRINKS.length - 1 }),
    }),
    { maxLength: 3 },
  ),
  tender: fc.constantFrom('card', 'cash', 'cash', 'split', 'split'),
  over: fc.integer({ min: 0, max: 4 }),
  cashPercent: fc.integer({ min: 1, max: 99 }),
});

/** The actions before baskets (issue 25): the kept seeds' shrunk paths walk this arbitrary, so it stays as it was. */
export const actionArbBefore38: fc.Arbitrary<Action> = fc.oneof(
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

/** Every action: those above, baskets (card, cash, split) sold, cash drops, shifts opened with a float and closed counted or not, cancels, card refunds returned and exchanges up and down (issue 39). */
export const actionArb: fc.Arbitrary<Action> = fc.oneof(
  { weight: 30, arbitrary: actionArbBefore38 },
  {
    weight: 8,
    arbitrary: fc.record({
      t: fc.constant('sell' as const),
      price: fc.constant(0),
      tickets: fc.constant(0),
      fee: fc.constant(0),
      demo: fc.boolean(),
      basket: basketArb,
    }),
  },
  { weight: 3, arbitrary: fc.record({ t: fc.constant('drop' as const), share: fc.integer({ min: 1, max: 130 }) }) },
  {
    weight: 10,
    arbitrary: fc.record({
      t: fc.constant('cancel' as const),
      pick: fc.nat(),
      seats: fc.integer({ min: 0, max: 3 }),
      line: fc.boolean(),
    }),
  },
  { weight: 4, arbitrary: fc.record({ t: fc.constant('returned' as const), pick: fc.nat() }) },
  { weight: 3, arbitrary: fc.record({ t: fc.constant('case' as const), resolve: fc.boolean(), pick: fc.nat() }) },
  {
    weight: 6,
    arbitrary: fc.record({
      t: fc.constant('exchange' as const),
      pick: fc.nat(),
      type: fc.nat({ max: 2 }),
      over: fc.nat({ max: 2 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      t: fc.constant('shift' as const),
      demo: fc.boolean(),
      float: fc.integer({ min: 0, max: 20 }),
      count: fc.boolean(),
      off: fc.integer({ min: -5, max: 5 }),
    }),
  },
);

// ---- the model: the rules, written out plainly ------------------------------------------------

/** A basket priced by the model's own arithmetic: each line's quantity × unit price, the fees per ticket. */
export interface MPriced {
  /** The seats' ticket types, the concession lines as sold (an empty basket gets one small popcorn). */
  seatTypes: string[];
  concessions: { code: string; quantity: number; drink: string }[];
  /** Tickets by ticket type. */
  types: { type: string; quantity: number; amount: number; fee: number }[];
  /** Concessions by item or combo code. */
  items: { code: string; name: string; category: string; quantity: number; amount: number }[];
  tickets: number;
  bookingFee: number;
  total: number;
  tender: 'card' | 'cash' | 'split';
  /** The cash part (0 for card), the card part (0 for cash), the cash handed over. */
  cash: number;
  card: number;
  tendered: number;
}

export function priceBasket(plan: BasketPlan): MPriced {
  const seatTypes = plan.seats.map((i) => TICKET_TYPES[i]!.name);
  const concessions = plan.concessions.map((c) => ({
    code: ITEMS[c.item]!.code,
    quantity: c.quantity,
    drink: COMBO_DRINKS[c.drink]!,
  }));
  if (seatTypes.length === 0 && concessions.length === 0)
    concessions.push({ code: 'POPS', quantity: 1, drink: 'COKE' });
  const types: MPriced['types'] = [];
  for (const t of TICKET_TYPES) {
    const n = seatTypes.filter((x) => x === t.name).length;
    if (n) types.push({ type: t.name, quantity: n, amount: n * t.priceKobo, fee: n * t.bookingFeeKobo });
  }
  const items: MPriced['items'] = [];
  for (const c of concessions) {
    const it = ITEMS.find((x) => x.code === c.code)!;
    const had = items.find((x) => x.code === c.code);
    if (had) {
      had.quantity += c.quantity;
      had.amount += c.quantity * it.priceKobo;
    } else
      items.push({
        code: it.code,
        name: it.name,
        category: it.category,
        quantity: c.quantity,
        amount: c.quantity * it.priceKobo,
      });
  }
  const bookingFee = types.reduce((n, t) => n + t.fee, 0);
  const total = types.reduce((n, t) => n + t.amount, 0) + bookingFee + items.reduce((n, t) => n + t.amount, 0);
  const cash =
    plan.tender === 'card'
      ? 0
      : plan.tender === 'cash'
        ? total
        : Math.min(total - 100, Math.max(100, Math.floor((total * plan.cashPercent) / 100 / 100) * 100));
  return {
    seatTypes,
    concessions,
    types,
    items,
    tickets: seatTypes.length,
    bookingFee,
    total,
    tender: plan.tender,
    cash,
    card: total - cash,
    tendered: plan.tender === 'card' ? 0 : cash + plan.over * 50_000,
  };
}

export interface MSale {
  id: number;
  ref: string;
  createdAt: number;
  /** The card part: what the order on the terminal is for (the whole sale before baskets, 0 for cash). */
  amount: number;
  tickets: number;
  bookingFee: number;
  /** How it was paid, and its cash part (0 for card). */
  tender: 'card' | 'cash' | 'split';
  cash: number;
  types: MPriced['types'];
  items: MPriced['items'];
  state: string;
  demo: boolean;
  paidAt: number | null;
  /** Each seat's price and booking fee (what a cancel of it gives back), in the sale's seat order; cancelled ones left out. */
  seatsLeft: { seat: string; kobo: number }[];
  /** The concession lines as sold (one per line of the basket, in its order): what is left of each and its unit price. */
  lines: { code: string; left: number; unit: number }[];
  /** An exchange's new sale: the credit of the tickets it replaced that paid its total first (its cash part only the difference). */
  credit?: number;
  /** An exchange moved seats out of it or made it: left out of later cancels and exchanges. */
  exchanged?: boolean;
}
/** A refund owed after the sale (one tender of one cancel). */
export interface MRefund {
  id: number;
  ref: string;
  tender: 'cash' | 'card';
  amount: number;
  at: number;
  returnedAt: number | null;
  demo: boolean;
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
/** A shift's drawer as the test recorded it: the float, the drops (when, how much), the count at close. */
export interface MDrawer {
  float: number;
  drops: { at: number; amount: number }[];
  counted: number | null;
}
type B = { count: number; kobo: number };

/** A complaint case: when it was opened and resolved (null: still open), Demo or not. */
export interface MCase {
  id: number;
  openedAt: number;
  resolvedAt: number | null;
  demo: boolean;
}

/** An exchange done: when it completed and the credit of the tickets it moved. */
export interface MExchange {
  at: number;
  credit: number;
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
  /** Each sale of the window in the one outcome line it ended in (a sale wholly in cash: `cash`, in no card line): ref → line. */
  outcomeOf: Map<string, 'paid' | 'cash' | 'paid_after_closing' | 'failed' | 'cancelled' | 'expired' | 'not_finished'>;
  /** Card total + cash taken; its count the card total's and the sales wholly in cash. */
  salesTotal: B;
  /** The per-show table (one show here): the seats and the tickets' prices and fees of the counted sales. */
  shows: { seats: number; kobo: number };
  /** Tickets by ticket type, concessions by code and by category: the sales the card total counts, and those paid in cash. */
  ticketTypes: Map<string, { quantity: number; amount: number; fee: number }>;
  items: Map<string, { name: string; category: string; quantity: number; amount: number }>;
  categories: Map<string, { quantity: number; amount: number }>;
  concessions: { quantity: number; amount: number };
  tenders: {
    card: B;
    cash: B;
    split: { count: number; cash: number; card: number };
    cardTaken: B;
    cashTaken: B;
    toHandBack: B & { refs: string[] };
    cashHeld: B;
    /** The credit of exchanges' new sales paid in the window (all in cash here): in their sales' totals, not new money. */
    cashCredit: number;
  };
  /** The refunds after the sale: made in the window by tender, card returned in it, card still owed at its end; net sales. */
  refunds: { made: B; cash: B; card: B; cardReturned: B; cardStillOwed: B; netSales: number };
  /** The exchanges done in the window (at their completion) and the credit they moved. */
  exchanges: B;
  /** Complaint cases opened in the window, and open at its end (whenever opened). */
  cases: { opened: number; stillOpen: number };
  drawer: {
    float: number;
    cashTaken: B;
    cashPaidOut: B;
    drops: B;
    expected: number;
    counted: number | null;
    overShort: number | null;
  };
}

const OPEN_STATES = ['creating', 'waiting', 'unknown'];
const bump = (b: B, kobo: number) => {
  b.count += 1;
  b.kobo += kobo;
};

export function expected(
  m: {
    sales: MSale[];
    late: MLate[];
    topups: MTopup[];
    refunds?: MRefund[];
    exchanges?: MExchange[];
    cases?: MCase[];
  },
  from: number,
  to: number,
  demoShift: boolean,
  drawer: MDrawer = { float: 0, drops: [], counted: null },
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
    salesTotal: { count: 0, kobo: 0 },
    shows: { seats: 0, kobo: 0 },
    ticketTypes: new Map(),
    items: new Map(),
    categories: new Map(),
    concessions: { quantity: 0, amount: 0 },
    tenders: {
      card: { count: 0, kobo: 0 },
      cash: { count: 0, kobo: 0 },
      split: { count: 0, cash: 0, card: 0 },
      cardTaken: { count: 0, kobo: 0 },
      cashTaken: { count: 0, kobo: 0 },
      toHandBack: { count: 0, kobo: 0, refs: [] },
      cashHeld: { count: 0, kobo: 0 },
      cashCredit: 0,
    },
    exchanges: { count: 0, kobo: 0 },
    cases: { opened: 0, stillOpen: 0 },
    refunds: {
      made: { count: 0, kobo: 0 },
      cash: { count: 0, kobo: 0 },
      card: { count: 0, kobo: 0 },
      cardReturned: { count: 0, kobo: 0 },
      cardStillOwed: { count: 0, kobo: 0 },
      netSales: 0,
    },
    drawer: {
      float: drawer.float,
      cashTaken: { count: 0, kobo: 0 },
      cashPaidOut: { count: 0, kobo: 0 },
      drops: { count: 0, kobo: 0 },
      expected: 0,
      counted: null,
      overShort: null,
    },
  };
  // A sale the provider paid after closing, learnt here, ended in that line alone.
  const lateHere = new Set(
    m.late.filter((l) => counts(l) && l.kind === 'paid-after-closing' && inWindow(l.foundAt)).map((l) => l.ref),
  );
  // A sale paid (or paid after closing and kept): its card part in the card total (a sale wholly in
  // cash is in no card line), its tickets and concessions counted whatever the tender.
  const inCard = (s: MSale) => {
    if (s.tender !== 'cash') {
      e.card.count += 1;
      e.card.kobo += s.amount;
    }
    e.tickets += s.tickets;
    e.bookingFees += s.bookingFee;
    if (s.tickets > 0) {
      e.shows.seats += s.tickets;
      e.shows.kobo += s.types.reduce((n, t) => n + t.amount + t.fee, 0);
    }
    for (const t of s.types) {
      const had = e.ticketTypes.get(t.type) ?? { quantity: 0, amount: 0, fee: 0 };
      e.ticketTypes.set(t.type, {
        quantity: had.quantity + t.quantity,
        amount: had.amount + t.amount,
        fee: had.fee + t.fee,
      });
    }
    for (const i of s.items) {
      const had = e.items.get(i.code) ?? { name: i.name, category: i.category, quantity: 0, amount: 0 };
      e.items.set(i.code, { ...had, quantity: had.quantity + i.quantity, amount: had.amount + i.amount });
      const c = e.categories.get(i.category) ?? { quantity: 0, amount: 0 };
      e.categories.set(i.category, { quantity: c.quantity + i.quantity, amount: c.amount + i.amount });
      e.concessions.quantity += i.quantity;
      e.concessions.amount += i.amount;
    }
  };
  for (const s of m.sales.filter(counts)) {
    const soldHere = inWindow(s.createdAt);
    // Card money: paid sales sold here, and earlier sales that turned paid here: paid in the window
    // (so that a window long past reads the sales' states as they are now, as the Hub does).
    if (s.state === 'paid' && s.paidAt !== null && inWindow(s.paidAt)) inCard(s);
    if (!soldHere) continue;
    const line = lateHere.has(s.ref)
      ? 'paid_after_closing'
      : s.state === 'paid' && s.tender === 'cash'
        ? 'cash'
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
  // The tenders: each sale paid in the window in one of card, cash, split; a split sold here whose
  // card part failed, was cancelled or expired (and not paid after closing): its cash part to hand
  // back; one whose card part has no outcome yet: its cash part held.
  const t = e.tenders;
  for (const s of m.sales.filter(counts)) {
    if (s.state === 'paid' && s.paidAt !== null && inWindow(s.paidAt)) {
      if (s.tender === 'card') bump(t.card, s.amount);
      else if (s.tender === 'cash') {
        bump(t.cash, s.cash);
        t.cashCredit += s.credit ?? 0;
      } else {
        t.split.count += 1;
        t.split.cash += s.cash;
        t.split.card += s.amount;
      }
      if (s.tender !== 'cash') bump(t.cardTaken, s.amount);
      if (s.tender !== 'card') bump(t.cashTaken, s.cash);
    } else if (s.tender === 'split' && inWindow(s.createdAt)) {
      if (OPEN_STATES.includes(s.state)) bump(t.cashHeld, s.cash);
      else if (s.state !== 'paid' && !lateHere.has(s.ref)) {
        bump(t.toHandBack, s.cash);
        t.toHandBack.refs.push(s.ref);
      }
    }
  }
  e.salesTotal = { count: e.card.count + t.cash.count, kobo: e.card.kobo + t.cashTaken.kobo };
  // Refunds after the sale: in the window they were made (cash paid out of the drawer then, card
  // owed), card returned in the window it was recorded, still owed at the window's end whenever made;
  // the sales stay as they were paid, net sales = sales total − refunds made.
  const r = e.refunds;
  for (const x of (m.refunds ?? []).filter(counts)) {
    if (inWindow(x.at)) {
      bump(r.made, x.amount);
      bump(x.tender === 'cash' ? r.cash : r.card, x.amount);
    }
    if (x.tender !== 'card') continue;
    if (x.returnedAt !== null && inWindow(x.returnedAt)) bump(r.cardReturned, x.amount);
    if (x.at < to && (x.returnedAt === null || x.returnedAt >= to)) bump(r.cardStillOwed, x.amount);
  }
  r.netSales = e.salesTotal.kobo - r.made.kobo;
  for (const x of (m.exchanges ?? []).filter(counts)) if (inWindow(x.at)) bump(e.exchanges, x.credit);
  for (const c of (m.cases ?? []).filter(counts)) {
    if (inWindow(c.openedAt)) e.cases.opened += 1;
    if (c.openedAt < to && (c.resolvedAt === null || c.resolvedAt >= to)) e.cases.stillOpen += 1;
  }
  // The drawer: float + cash taken − cash paid out (cash refunds) − drops; counted − expected.
  const d = e.drawer;
  // The drawer's cash taken: sales whose cash part moved cash (an exchange with nothing to pay moved none).
  d.cashTaken = {
    count: m.sales.filter(
      (s) =>
        counts(s) && s.state === 'paid' && s.paidAt !== null && inWindow(s.paidAt) && s.tender !== 'card' && s.cash > 0,
    ).length,
    kobo: t.cashTaken.kobo,
  };
  d.cashPaidOut = { ...r.cash };
  for (const x of drawer.drops) if (inWindow(x.at)) bump(d.drops, x.amount);
  d.expected = drawer.float + d.cashTaken.kobo - d.cashPaidOut.kobo - d.drops.kobo;
  d.counted = drawer.counted;
  d.overShort = drawer.counted === null ? null : drawer.counted - d.expected;
  for (const t of m.topups.filter(counts)) {
    if (t.state === 'success' && inWindow(t.createdAt)) {
      e.topupsOk.count += 1;
      e.topupsOk.kobo += t.amount;
    }
  }
  return e;
}
