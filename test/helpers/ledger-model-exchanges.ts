// The exchanges of the one ledger's model-based test (test/integration/records/ledger-model.test.ts):
// seats of a paid sale moved to the 22:00 show through the real checkout (`checkout.exchanges.exchange`
// on the test's journal, any PIN approving), to a dearer ticket type (the difference paid in cash)
// or a cheaper one (a refund owed: card first, then cash from the drawer), and the model's own
// arithmetic of it (docs/refunds.md, "Exchange") — independent of shared/exchange.ts and
// core/orders/exchange*.ts: the new sale's tickets at full price, its cash part only the difference,
// the refund in the window the exchange completed.
import { expect } from 'vitest';
import { createCheckoutService } from '../../core/orders/checkout-service';
import type { SeatPlanner } from '../../core/orders';
import { shiftOpenAt } from '../../core/records';
import type { Db } from '../../core/db';
import type { JournalSink } from '../../core/journal-sink';
import { memoryLogger } from '../../shared/logger';
import { splitSeats } from '../../shared/seat-list';
import type { SeatHolds } from '../../shared/seats';
import { SALE_INPUT } from './orders-db';
import {
  TICKET_TYPES,
  type Action,
  type expected,
  type MDrawer,
  type MExchange,
  type MRefund,
  type MSale,
} from './ledger-model';

export const EXCHANGE_SHOW = {
  filmName: SALE_INPUT.filmName,
  filmTitle: SALE_INPUT.filmTitle,
  showDate: SALE_INPUT.showDate,
  showTime: '22:00',
} as const;

/** The checkout on the test's file and clock: cash only (no terminal is ever asked), every new seat held. */
export function modelCheckout(db: Db, sink: JournalSink, now: () => number) {
  const planner: SeatPlanner = {
    plan: (sale) => ({
      showKey: `k-${sale.showTime}`,
      show: {
        filmName: sale.filmName,
        filmTitle: sale.filmTitle,
        date: sale.showDate,
        time: sale.showTime,
        screen: 'S1',
      },
      seats: splitSeats(sale.seats),
    }),
  };
  const holds: SeatHolds = { hold: () => Promise.resolve({ kind: 'held' }), settle: () => {} };
  return createCheckoutService({
    db,
    pos: () => {
      throw new Error('an exchange in cash never asks a terminal');
    },
    clock: { now } as Parameters<typeof createCheckoutService>[0]['clock'],
    logger: memoryLogger(),
    journalSink: sink,
    settings: () => ({
      counterName: 'Lane 1',
      headMerchantId: 'H',
      merchantId: 'M',
      orderExpireSeconds: 300,
      profile: 'production',
    }),
    basket: {
      show: () => ({ showKey: 'k-22:00', ticketTypes: TICKET_TYPES.map((t) => ({ ...t })) }),
      catalogue: () => undefined,
    },
    shiftOpen: () => true,
    seats: { planner, holds: () => holds },
    undo: { checkPin: () => Promise.resolve(), shiftAt: shiftOpenAt(db) },
  });
}
export type ModelCheckout = ReturnType<typeof modelCheckout>;

let seatNo = 0;

/**
 * An exchange of a paid real sale's first seat left (`pick` among those, in a real shift) to the
 * 22:00 show as ticket type `type`: dearer, the difference paid in cash; cheaper, a refund owed, card
 * first up to the card part not yet owed back, then cash (refused above what the drawer holds,
 * nothing changed). A sale an exchange touched is left out of later cancels and exchanges.
 */
export async function exchangeInModel(
  checkout: ModelCheckout,
  m: { sales: MSale[]; refunds: MRefund[]; exchanges?: MExchange[] },
  a: Extract<Action, { t: 'exchange' }>,
  now: number,
  holds: number,
): Promise<void> {
  const can = m.sales.filter(
    (s) => s.state === 'paid' && !s.demo && !s.exchanged && s.seatsLeft.length > 0 && s.types.length > 0,
  );
  if (can.length === 0) return;
  const s = can[a.pick % can.length]!;
  const seat = s.seatsLeft[0]!;
  const tt = TICKET_TYPES[a.type % TICKET_TYPES.length]!;
  const credit = seat.kobo;
  const newTotal = tt.priceKobo + tt.bookingFeeKobo;
  const toPay = Math.max(0, newTotal - credit);
  const back = Math.max(0, credit - newTotal);
  const owed = (tender: 'cash' | 'card') =>
    m.refunds.filter((r) => r.ref === s.ref && r.tender === tender).reduce((n, r) => n + r.amount, 0);
  const card = Math.min(back, Math.max(0, (s.tender === 'cash' ? 0 : s.amount) - owed('card')));
  const cash = back - card;
  const newSeat = `B${++seatNo}`;
  const req = {
    orderId: s.id,
    seats: [seat.seat],
    to: { ...EXCHANGE_SHOW, seats: [{ seat: newSeat, ticketType: tt.name }] },
    ...(toPay > 0 ? { tender: { kind: 'cash' as const, tenderedKobo: toPay + a.over * 50_000 } } : {}),
    reason: 'customer-request' as const,
    approval: { pin: '1234' },
    cashier: 'Ada',
  };
  if (cash > holds) {
    await expect(
      checkout.exchanges.exchange(req),
      `${s.ref}: a cash refund of ${cash} above the drawer's ${holds}`,
    ).rejects.toMatchObject({ code: 'CONFLICT' });
    return;
  }
  const r = await checkout.exchanges.exchange(req);
  expect(r.to.state, `${s.ref}: the exchange's new sale paid at once`).toBe('paid');
  expect(
    r.refunds.map((x) => [x.tender, x.amountKobo]),
    `${s.ref}: the refunds of an exchange`,
  ).toEqual([...(card > 0 ? [['card', card]] : []), ...(cash > 0 ? [['cash', cash]] : [])]);
  for (const x of r.refunds)
    m.refunds.push({
      id: x.id,
      ref: s.ref,
      tender: x.tender,
      amount: x.amountKobo,
      at: now,
      returnedAt: x.tender === 'cash' ? now : null,
      demo: false,
    });
  (m.exchanges ??= []).push({ at: now, credit, demo: false });
  s.seatsLeft = s.seatsLeft.slice(1);
  s.exchanged = true;
  m.sales.push({
    id: r.to.id,
    ref: r.to.outOrderNo,
    createdAt: now,
    amount: 0,
    tickets: 1,
    bookingFee: tt.bookingFeeKobo,
    tender: 'cash',
    cash: toPay,
    credit: Math.min(credit, newTotal),
    types: [{ type: `${tt.name}@22:00`, quantity: 1, amount: tt.priceKobo, fee: tt.bookingFeeKobo }],
    items: [],
    seatsLeft: [{ seat: newSeat, kobo: newTotal }],
    lines: [],
    state: 'paid',
    demo: false,
    paidAt: now,
    exchanged: true,
  });
}

/** An exchange in the open real shift (none, or a Demo one: nothing), its cash refund judged against what the model's drawer holds. */
export async function exchangeAct(
  checkout: ModelCheckout,
  m: Parameters<typeof expected>[0] & { sales: MSale[]; refunds: MRefund[] },
  a: Extract<Action, { t: 'exchange' }>,
  now: number,
  cur: { openedAt: number; demo: boolean; drawer: MDrawer } | undefined,
  model: typeof expected,
): Promise<void> {
  if (!cur || cur.demo) return;
  await exchangeInModel(checkout, m, a, now, model(m, cur.openedAt, now + 1, false, cur.drawer).drawer.expected);
}

/** Hand-written days of exchanges (kept examples of the model test). */
export const EXCHANGE_EXAMPLES: { why: string; actions: Action[] }[] = [
  {
    why: 'exchanges (issue 39): a Child seat of a cash sale up to Adult (the difference in cash), an Adult seat of a card sale down to Child (card owed), of a cash sale down (cash from the drawer), across Lagos midnight',
    actions: [
      { t: 'shift', demo: false, float: 2 },
      {
        t: 'sell',
        price: 0,
        tickets: 0,
        fee: 0,
        demo: false,
        basket: { seats: [1, 0], concessions: [], tender: 'cash', over: 1, cashPercent: 40 },
      },
      {
        t: 'sell',
        price: 0,
        tickets: 0,
        fee: 0,
        demo: false,
        basket: { seats: [0, 2], concessions: [], tender: 'card', over: 0, cashPercent: 40 },
      },
      { t: 'settle', pick: 0, to: 'paid', providerFee: 100 },
      { t: 'exchange', pick: 0, type: 0, over: 1 },
      { t: 'exchange', pick: 0, type: 1, over: 0 },
      { t: 'x' },
      { t: 'wait', minutes: 900 },
      { t: 'shift', demo: false },
      { t: 'shift', demo: false, float: 1 },
      {
        t: 'sell',
        price: 0,
        tickets: 0,
        fee: 0,
        demo: false,
        basket: { seats: [0, 0], concessions: [], tender: 'cash', over: 0, cashPercent: 40 },
      },
      { t: 'exchange', pick: 0, type: 2, over: 0 },
      { t: 'returned', pick: 0 },
      { t: 'x' },
      { t: 'close', count: true, off: 0 },
    ],
  },
];
