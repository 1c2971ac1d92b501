// The cancels of the one ledger's model-based test (test/integration/records/ledger-model.test.ts):
// a cancel of seats and a concession line of a paid sale through the real undo engine (the checkout's
// undo on the same journal), a card refund recorded as returned, and the model's own arithmetic of
// what goes back and by which tender (docs/refunds.md, "Cancel and refunds owed") — independent of
// core/orders/undo-cancel.ts and shared/refunds.ts.
import { expect } from 'vitest';
import { CheckoutRun } from '../../core/orders/checkout-run';
import type { OrderJournal } from '../../core/orders';
import type { LateOutcomeStore } from '../../core/orders/late-outcomes';
import { ProviderCheckStore } from '../../core/orders/provider-checks';
import { createUndoService } from '../../core/orders/undo-service';
import { shiftOpenAt } from '../../core/records';
import type { Db } from '../../core/db';
import type { JournalSink } from '../../core/journal-sink';
import { memoryLogger } from '../../shared/logger';
import {
  ITEMS,
  priceBasket,
  TICKET_TYPES,
  type Action,
  type BasketPlan,
  type expected,
  type MDrawer,
  type MPriced,
  type MRefund,
  type MSale,
} from './ledger-model';
import type { Sale } from '../../shared/orders';

export type ModelUndo = ReturnType<typeof modelUndo>;

/** The undo engine on the test's journal: any PIN approves (the approval is the door test's), the shifts and drawer are the journal's. */
export function modelUndo(db: Db, journal: OrderJournal, late: LateOutcomeStore, sink: JournalSink, now: () => number) {
  const logger = memoryLogger();
  const run = new CheckoutRun({
    journal,
    late,
    checks: new ProviderCheckStore(db),
    logger,
    now,
    nextActionAt: () => undefined,
    online: () => true,
  });
  return createUndoService({
    db,
    run,
    sink,
    now,
    logger,
    undo: { checkPin: async () => {}, shiftAt: shiftOpenAt(db) },
  });
}

/**
 * A cancel of a paid sale (`pick` among those with something left): its first seats left and
 * perhaps one of its first concession line left. The model says what goes back and by which tender
 * (the card first, up to its part not yet owed back, then cash); a cash part above what the drawer
 * should hold (`holds`, null when the drawer does not count the sale) is refused and nothing changes.
 */
export async function cancelInModel(
  undo: ModelUndo,
  m: { sales: MSale[]; refunds: MRefund[] },
  a: { pick: number; seats: number; line: boolean },
  now: number,
  holds: (s: MSale) => number | null,
): Promise<void> {
  const can = m.sales.filter(
    (s) => s.state === 'paid' && !s.exchanged && (s.seatsLeft.length > 0 || s.lines.some((l) => l.left > 0)),
  );
  if (can.length === 0) return;
  const s = can[a.pick % can.length]!;
  const seats = s.seatsLeft.length ? s.seatsLeft.slice(0, 1 + (a.seats % s.seatsLeft.length)) : [];
  const lineAt = a.line || seats.length === 0 ? s.lines.findIndex((l) => l.left > 0) : -1;
  const amount = seats.reduce((n, x) => n + x.kobo, 0) + (lineAt >= 0 ? s.lines[lineAt]!.unit : 0);
  const owed = (tender: 'cash' | 'card') =>
    m.refunds.filter((r) => r.ref === s.ref && r.tender === tender).reduce((n, r) => n + r.amount, 0);
  const cardPart = s.tender === 'cash' ? 0 : s.amount;
  const card = Math.min(amount, Math.max(0, cardPart - owed('card')));
  const cash = amount - card;
  expect(cash, `${s.ref}: a cancel within what the sale took`).toBeLessThanOrEqual(s.cash - owed('cash'));
  const ticketLines = s.types.length;
  const req = {
    orderId: s.id,
    seats: seats.map((x) => x.seat),
    concessions: lineAt >= 0 ? [{ line: ticketLines + lineAt, quantity: 1 }] : [],
    reason: 'customer-request' as const,
    approval: { pin: '1234' },
    cashier: 'Ada',
  };
  const h = holds(s);
  if (cash > 0 && h !== null && cash > h) {
    await expect(undo.cancel(req), `${s.ref}: a cash refund of ${cash} above the drawer's ${h}`).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    return;
  }
  const r = await undo.cancel(req);
  const want = [...(card > 0 ? [['card', card]] : []), ...(cash > 0 ? [['cash', cash]] : [])];
  expect(
    r.refunds.map((x) => [x.tender, x.amountKobo]),
    `${s.ref}: the refunds of a cancel`,
  ).toEqual(want);
  for (const x of r.refunds)
    m.refunds.push({
      id: x.id,
      ref: s.ref,
      tender: x.tender,
      amount: x.amountKobo,
      at: now,
      returnedAt: x.tender === 'cash' ? now : null,
      demo: s.demo,
    });
  s.seatsLeft = s.seatsLeft.slice(seats.length);
  if (lineAt >= 0) s.lines[lineAt]!.left -= 1;
}

export type { MRefund };

/** A sale's seats and lines as the model knows them: a basket's (`plan`), or a typed sale's. */
export const leftOf = (plan: BasketPlan | undefined, s: Sale): Pick<MSale, 'seatsLeft' | 'lines'> =>
  plan ? leftOfBasket(priceBasket(plan)) : leftOfTyped(s);

/** A basket's seats (A1, A2… in its order) at their price and fee, and its concession lines, as the model prices them. */
export function leftOfBasket(p: MPriced): Pick<MSale, 'seatsLeft' | 'lines'> {
  return {
    seatsLeft: p.seatTypes.map((type, i) => {
      const tt = TICKET_TYPES.find((x) => x.name === type)!;
      return { seat: `A${i + 1}`, kobo: tt.priceKobo + tt.bookingFeeKobo };
    }),
    lines: p.concessions.map((x) => ({
      code: x.code,
      left: x.quantity,
      unit: ITEMS.find((i) => i.code === x.code)!.priceKobo,
    })),
  };
}

/** A sale of one ticket type typed (seats A1…): each seat its price and its share of the booking fee. */
export function leftOfTyped(s: Sale): Pick<MSale, 'seatsLeft' | 'lines'> {
  return {
    seatsLeft: ['A1', 'A2', 'A3']
      .slice(0, s.tickets)
      .map((seat) => ({ seat, kobo: s.priceKobo + s.bookingFeeKobo / s.tickets })),
    lines: [],
  };
}

/**
 * A cancel during the open shift (none: nothing), its cash judged against what the model's drawer
 * holds; or a card refund still owed returned.
 */
export async function act(
  undo: ModelUndo,
  m: Parameters<typeof expected>[0] & { sales: MSale[]; refunds: MRefund[] },
  a: Extract<Action, { t: 'cancel' | 'returned' }>,
  now: number,
  cur: { openedAt: number; demo: boolean; drawer: MDrawer } | undefined,
  model: typeof expected,
): Promise<void> {
  if (a.t === 'returned') return returnInModel(undo, m, a.pick, now);
  if (!cur) return;
  await cancelInModel(undo, m, a, now, (x) =>
    cur.demo || !x.demo ? model(m, cur.openedAt, now + 1, cur.demo, cur.drawer).drawer.expected : null,
  );
}

/** A card refund still owed (`pick` among them) recorded as returned now. */
export function returnInModel(undo: ModelUndo, m: { refunds: MRefund[] }, pick: number, now: number): void {
  const owed = m.refunds.filter((r) => r.tender === 'card' && r.returnedAt === null);
  if (owed.length === 0) return;
  const r = owed[pick % owed.length]!;
  const v = undo.markReturned({ refundId: r.id, how: 'bank-transfer', reference: `TRF-${r.id}`, by: 'Bola' });
  expect(v.returned?.at).toBe(now);
  r.returnedAt = now;
}

const basketOf = (seats: number[], tender: 'card' | 'cash' | 'split', concessions: number[] = []): Action => ({
  t: 'sell',
  price: 0,
  tickets: 0,
  fee: 0,
  demo: false,
  basket: {
    seats,
    concessions: concessions.map((item) => ({ item, quantity: 2, drink: 0 })),
    tender,
    over: 1,
    cashPercent: 40,
  },
});
/** Hand-written days of cancels (kept examples of the model test). */
export const CANCEL_EXAMPLES: { why: string; actions: Action[] }[] = [
  {
    why: 'cancels after the sale (issue 39): part of a card sale owed by card, a cash sale wholly paid back from the drawer, a split card first then cash, a card refund returned in the next shift across Lagos midnight',
    actions: [
      { t: 'shift', demo: false, float: 2 },
      basketOf([0, 1, 2], 'card', [0]),
      { t: 'settle', pick: 0, to: 'paid', providerFee: 100 },
      basketOf([0, 0], 'cash', [2]),
      basketOf([1, 2], 'split', [1]),
      { t: 'settle', pick: 0, to: 'paid', providerFee: 100 },
      { t: 'cancel', pick: 0, seats: 0, line: false },
      { t: 'cancel', pick: 1, seats: 1, line: true },
      { t: 'cancel', pick: 2, seats: 1, line: true },
      { t: 'cancel', pick: 2, seats: 0, line: true },
      { t: 'x' },
      { t: 'returned', pick: 0 },
      { t: 'wait', minutes: 900 },
      { t: 'shift', demo: false },
      { t: 'shift', demo: false, float: 1 },
      { t: 'returned', pick: 0 },
      { t: 'cancel', pick: 0, seats: 2, line: true },
      { t: 'sell', price: 3, tickets: 2, fee: 1, demo: false },
      { t: 'settle', pick: 0, to: 'paid', providerFee: 0 },
      { t: 'cancel', pick: 5, seats: 0, line: false },
      { t: 'x' },
      { t: 'close', count: true, off: 1 },
    ],
  },
];
