// Cancel after the sale (docs/refunds.md, "Cancel and refunds owed") through the one checkout, on a
// real SQLite journal against the sandbox provider over loopback HTTP: a supervisor's approval checked
// in the engine (the admin PIN through the settings' guard; a code refused without a Hub), the
// amount exactly as the sale was priced, the card first then cash, all or nothing with the Hub's
// 'order.cancelled' event, the seats free again on this counter's own map, a card refund owed until
// someone records how it was returned.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../../shared/clock';
import { memoryLogger } from '../../../shared/logger';
import { createCheckoutService, type CheckoutService } from '../../../core/orders/checkout-service';
import { CODES_NEED_HUB, type ApprovalCodes, type BasketSources, type SeatPlanner } from '../../../core/orders';
import { createPosClient } from '../../../core/provider';
import { createOutboxSink, HubOutbox } from '../../../core/hub-link';
import { memoryStore } from '../../../core/settings/kv-store';
import { createPinGuard } from '../../../core/settings/pin-guard';
import { hashPin } from '../../../core/settings/pin';
import { DEMO_CATALOGUE } from '../../../shared/catalogue';
import type { BasketSaleInput } from '../../../shared/basket-sale';
import type { CancelRequest } from '../../../shared/refunds';
import { AppError, isAppError } from '../../../shared/errors';
import { seatList } from '../../../shared/seat-list';
import { openTempDb } from '../../helpers/orders-db';
import { FAST_TUNING, inState, startOrdersSandbox, type OrdersSandbox } from '../../helpers/orders-sandbox';

const PIN = '4821';
let sb: OrdersSandbox;
let pinHash: string;
let lane = 0;
const open: { svc: CheckoutService; cleanup: () => void }[] = [];

beforeAll(async () => {
  sb = await startOrdersSandbox();
  pinHash = await hashPin(PIN);
});
afterAll(async () => sb.sandbox.close());
beforeEach(() => sb.sandbox.reset());
afterEach(async () => {
  for (const o of open.splice(0)) {
    await o.svc.stop();
    o.cleanup();
  }
});

const SHOW = { filmName: 'Gladiator II', filmTitle: 'Gladiator II', showDate: '2026-12-07', showTime: '19:30' };
const TYPES = [
  { name: 'Adult', priceKobo: 500_000, bookingFeeKobo: 10_000 },
  { name: 'Child', priceKobo: 300_000, bookingFeeKobo: 10_000 },
];
const planner: SeatPlanner = {
  plan: (sale) => ({
    showKey: 'k1',
    show: {
      filmName: sale.filmName,
      filmTitle: sale.filmTitle,
      date: sale.showDate,
      time: sale.showTime,
      screen: 'S1',
    },
    seats: seatList(sale.seats),
  }),
};

function counter(opts: { shift?: boolean; drawerHolds?: number; codes?: ApprovalCodes } = {}) {
  const t = openTempDb();
  const real = createPosClient(() => sb.providerConfig(), { logger: memoryLogger() });
  const logger = memoryLogger();
  const guard = createPinGuard({ store: memoryStore(), clock: systemClock, logger, hash: () => pinHash });
  lane += 1;
  const sources: BasketSources = {
    show: (s) => (s.filmName === SHOW.filmName ? { showKey: 'k1', ticketTypes: TYPES } : null),
    catalogue: () => DEMO_CATALOGUE,
  };
  const outbox = new HubOutbox(t.db);
  const svc = createCheckoutService({
    db: t.db,
    pos: real,
    clock: systemClock,
    logger,
    journalSink: createOutboxSink(outbox, { logger }),
    settings: () => ({
      counterName: `Undo ${lane}`,
      headMerchantId: sb.merchant.headMerchantId,
      merchantId: sb.merchant.merchantId,
      orderExpireSeconds: 300,
    }),
    tuning: FAST_TUNING,
    basket: sources,
    seats: { planner },
    undo: {
      checkPin: (pin) => guard.check(pin),
      ...(opts.codes ? { approvalCodes: () => opts.codes! } : {}),
      shiftAt: () =>
        opts.shift === false
          ? null
          : { id: 7, ...(opts.drawerHolds === undefined ? {} : { drawerHolds: () => opts.drawerHolds! }) },
    },
  });
  open.push({ svc, cleanup: t.cleanup });
  const events = () =>
    outbox.readAfter(0, 500).filter((e) => e.kind === 'order.cancelled' || e.kind === 'refund.returned');
  const count = (table: string) => (t.db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
  return { svc, logger, events, count };
}

/** 2 Adult + 1 Child at F7–F9, a popcorn combo with a Fanta, 2 water. */
const basket = (tender: BasketSaleInput['tender']): BasketSaleInput => ({
  tickets: {
    ...SHOW,
    seats: [
      { seat: 'F7', ticketType: 'Adult' },
      { seat: 'F8', ticketType: 'Adult' },
      { seat: 'F9', ticketType: 'Child' },
    ],
  },
  concessions: [
    { code: 'CMB1', quantity: 1, choices: { Drink: 'FANTA' } },
    { code: 'water', quantity: 2 },
  ],
  tender,
  sn: sb.merchant.terminalSn,
});

async function paidSale(svc: CheckoutService, tender: BasketSaleInput['tender']) {
  const v = await svc.sell(basket(tender));
  if (v.state === 'paid') return v;
  await inState(svc, v.id, 'waiting');
  sb.sandbox.present(sb.merchant.terminalSn, 'SUCCESS');
  return inState(svc, v.id, 'paid');
}

const req = (orderId: number, over: Partial<CancelRequest> = {}): CancelRequest => ({
  orderId,
  seats: [],
  concessions: [],
  reason: 'customer-request',
  approval: { pin: PIN },
  cashier: 'Ada',
  ...over,
});

const refusal = async (p: Promise<unknown>): Promise<AppError> => {
  try {
    await p;
  } catch (err) {
    if (isAppError(err)) return err;
    throw err;
  }
  throw new Error('the cancel was not refused');
};

describe('cancel tickets or lines of a paid sale', () => {
  it('by card: one seat back at its price and booking fee, owed by card, the seat free here, the Hub told', async () => {
    const { svc, events } = counter();
    const sale = await paidSale(svc, { kind: 'card' });
    expect(svc.ownSeats('k1').map((s) => s.seat)).toEqual(['F7', 'F8', 'F9']);
    const r = await svc.undo.cancel(req(sale.id, { seats: ['f8'] }));
    expect(r.order.state).toBe('paid');
    expect(r.refunds).toHaveLength(1);
    expect(r.refunds[0]).toMatchObject({
      refundNo: 'R0001',
      tender: 'card',
      amountKobo: 510_000,
      seats: ['F8'],
      returned: null,
      approved: { how: 'pin', by: 'Admin PIN' },
      cashier: 'Ada',
      shiftId: 7,
      kind: 'cancel',
    });
    expect(svc.ownSeats('k1').map((s) => s.seat)).toEqual(['F7', 'F9']);
    expect(svc.undo.ofOrder(sale.id).links).toEqual({ exchangedFrom: null, exchangedTo: [], cancelledSeats: ['F8'] });
    expect(svc.undo.list()).toMatchObject({ owed: 1, items: [{ refundNo: 'R0001' }] });
    expect(events().map((e) => [e.kind, e.payload])).toEqual([
      [
        'order.cancelled',
        {
          reference: sale.outOrderNo,
          kind: 'cancel',
          seats: ['F8'],
          refunds: [{ refundNo: 'R0001', tender: 'card', amountKobo: 510_000 }],
          reason: 'customer-request',
          approvedBy: 'Admin PIN',
          approvedHow: 'pin',
        },
      ],
    ]);
  });

  it('in cash: a seat and a water paid out of the drawer at once; lines within what is left', async () => {
    const { svc } = counter();
    const sale = await paidSale(svc, { kind: 'cash', tenderedKobo: 2_000_000 });
    const water = sale.basket!.lines.findIndex((l) => l.kind !== 'tickets' && l.code === 'WATER');
    const r = await svc.undo.cancel(req(sale.id, { seats: ['F9'], concessions: [{ line: water, quantity: 1 }] }));
    // Child 3,000 + fee 100 + one water 400
    expect(r.refunds).toMatchObject([{ tender: 'cash', amountKobo: 350_000, returned: { how: 'cash', by: 'Ada' } }]);
    expect(svc.undo.list().owed).toBe(0);
    const more = await refusal(svc.undo.cancel(req(sale.id, { concessions: [{ line: water, quantity: 2 }] })));
    expect(more.details).toMatchObject({ fields: { concessions: expect.stringContaining('Only 1') } });
    const again = await refusal(svc.undo.cancel(req(sale.id, { seats: ['F9'] })));
    expect(again.details).toMatchObject({ fields: { seats: 'F9 is already cancelled' } });
    const ticket = await refusal(svc.undo.cancel(req(sale.id, { concessions: [{ line: 0, quantity: 1 }] })));
    expect(ticket.code).toBe('VALIDATION');
  });

  it('a split sale: the card part first, then cash', async () => {
    const { svc } = counter();
    // 17,100 in all: 5,000 cash, 12,100 by card
    const sale = await paidSale(svc, { kind: 'split', cashKobo: 500_000 });
    const first = await svc.undo.cancel(req(sale.id, { seats: ['F7', 'F8'] }));
    expect(first.refunds.map((r) => [r.tender, r.amountKobo])).toEqual([['card', 1_020_000]]);
    const rest = sale.basket!.lines.flatMap((l, line) =>
      l.kind === 'tickets' ? [] : [{ line, quantity: l.quantity }],
    );
    const second = await svc.undo.cancel(req(sale.id, { seats: ['F9'], concessions: rest }));
    // 3,100 + 3,800 = 6,900: 1,900 left on the card, 5,000 cash
    expect(second.refunds.map((r) => [r.refundNo, r.tender, r.amountKobo])).toEqual([
      ['R0002', 'card', 190_000],
      ['R0003', 'cash', 500_000],
    ]);
  });

  it('a wrong PIN is refused and audited (never the PIN), nothing written; a code needs the Hub', async () => {
    const { svc, logger, events, count } = counter();
    const sale = await paidSale(svc, { kind: 'card' });
    const wrong = await refusal(svc.undo.cancel(req(sale.id, { seats: ['F7'], approval: { pin: '913752' } })));
    expect(wrong.code).toBe('PIN_WRONG');
    const code = await refusal(svc.undo.cancel(req(sale.id, { seats: ['F7'], approval: { code: 'ABCD-2345' } })));
    expect([code.code, code.message]).toEqual(['NOT_READY', CODES_NEED_HUB]);
    const audit = logger.lines.filter((l) => l.msg === 'undo refused: approval not given');
    expect(audit.map((l) => [l.fields?.reference, l.fields?.how, l.fields?.cashier])).toEqual([
      [sale.outOrderNo, 'pin', 'Ada'],
      [sale.outOrderNo, 'code', 'Ada'],
    ]);
    expect(JSON.stringify(logger.lines)).not.toContain('913752');
    expect([count('order_undos'), count('order_refunds'), count('order_cancelled_seats')]).toEqual([0, 0, 0]);
    expect(events()).toEqual([]);
    const none = await refusal(svc.undo.cancel({ ...req(sale.id, { seats: ['F7'] }), approval: undefined as never }));
    expect(none.code).toBe('VALIDATION');
    expect(svc.ownSeats('k1')).toHaveLength(3);
  });

  it('an approval code is redeemed at the Hub once, for this undo; a used one is refused and audited', async () => {
    const asked: unknown[] = [];
    const used = new Set<string>();
    const codes: ApprovalCodes = {
      redeem: (code, what) => {
        asked.push([code, what]);
        if (used.has(code)) return Promise.reject(new AppError('HUB_REFUSED', 'This approval code was already used.'));
        used.add(code);
        return Promise.resolve({ by: 'Mrs Okafor' });
      },
    };
    const { svc, logger } = counter({ codes });
    const sale = await paidSale(svc, { kind: 'card' });
    const r = await svc.undo.cancel(req(sale.id, { seats: ['F7'], approval: { code: 'abcd-2345' } }));
    expect(r.refunds[0]!.approved).toMatchObject({ how: 'code', by: 'Mrs Okafor' });
    expect(asked).toEqual([
      ['ABCD-2345', { kind: 'cancel', reference: sale.outOrderNo, amountKobo: 510_000, cashier: 'Ada' }],
    ]);
    const again = await refusal(svc.undo.cancel(req(sale.id, { seats: ['F8'], approval: { code: 'ABCD-2345' } })));
    expect([again.code, again.message]).toEqual(['HUB_REFUSED', 'This approval code was already used.']);
    expect(logger.lines.filter((l) => l.msg === 'undo refused: approval not given').map((l) => l.fields?.how)).toEqual([
      'code',
    ]);
    expect(JSON.stringify(logger.lines)).not.toContain('ABCD-2345');
    expect(svc.undo.ofOrder(sale.id).links.cancelledSeats).toEqual(['F7']);
  });

  it('refuses what is not a paid sale of this counter, a seat not of the sale, and without a shift', async () => {
    const { svc } = counter();
    const sale = await paidSale(svc, { kind: 'card' });
    expect((await refusal(svc.undo.cancel(req(sale.id, { seats: ['A1'] })))).details).toMatchObject({
      fields: { seats: `A1 is not a seat of sale ${sale.outOrderNo}` },
    });
    expect((await refusal(svc.undo.cancel(req(sale.id, { seats: ['F7', 'F7'] })))).code).toBe('VALIDATION');
    expect((await refusal(svc.undo.cancel(req(9999, { seats: ['F7'] })))).code).toBe('NOT_FOUND');
    const waiting = await svc.sell({
      ...basket({ kind: 'card' }),
      tickets: { ...SHOW, seats: [{ seat: 'G1', ticketType: 'Adult' }] },
    });
    expect((await refusal(svc.undo.cancel(req(waiting.id, { seats: ['G1'] })))).code).toBe('CONFLICT');
    const closed = counter({ shift: false });
    const cash = await paidSale(closed.svc, { kind: 'cash', tenderedKobo: 2_000_000 });
    expect((await refusal(closed.svc.undo.cancel(req(cash.id, { seats: ['F7'] })))).code).toBe('NO_SHIFT');
  });

  it('a cash refund above what the drawer should hold is refused before the PIN is asked, nothing written', async () => {
    const { svc, count, logger } = counter({ drawerHolds: 300_000 });
    const sale = await paidSale(svc, { kind: 'cash', tenderedKobo: 2_000_000 });
    const r = await refusal(svc.undo.cancel(req(sale.id, { seats: ['F7'], approval: { pin: '913752' } })));
    expect([r.code, r.message]).toEqual([
      'CONFLICT',
      'The drawer should hold ₦3,000.00: a cash refund of ₦5,100.00 cannot be paid from it. Take cash to the drawer first, or cancel less.',
    ]);
    expect(logger.lines.some((l) => l.msg === 'admin PIN wrong')).toBe(false);
    expect(count('order_refunds')).toBe(0);
    const water = sale.basket!.lines.findIndex((l) => l.kind !== 'tickets' && l.code === 'WATER');
    const ok = await svc.undo.cancel(req(sale.id, { concessions: [{ line: water, quantity: 1 }] }));
    expect(ok.refunds.map((x) => [x.tender, x.amountKobo])).toEqual([['cash', 40_000]]);
  });

  it('a card refund owed is returned once, with how, the reference and who; the Hub told', async () => {
    const { svc, events } = counter();
    const sale = await paidSale(svc, { kind: 'split', cashKobo: 1_000_000 });
    const r = await svc.undo.cancel(req(sale.id, { seats: ['F7', 'F8', 'F9'] }));
    const [card, cash] = r.refunds;
    expect([card!.tender, card!.amountKobo, cash!.tender, cash!.amountKobo]).toEqual([
      'card',
      710_000,
      'cash',
      620_000,
    ]);
    const back = svc.undo.markReturned({ refundId: card!.id, how: 'bank-transfer', reference: 'TRF-991', by: 'Bola' });
    expect(back.returned).toMatchObject({ how: 'bank-transfer', reference: 'TRF-991', by: 'Bola' });
    expect(() =>
      svc.undo.markReturned({ refundId: card!.id, how: 'provider-reversal', reference: 'X', by: 'Bola' }),
    ).toThrow(/already recorded as returned by Bola/);
    expect(() => svc.undo.markReturned({ refundId: cash!.id, how: 'cash', reference: 'X', by: 'Bola' })).toThrow(
      /paid in cash from the drawer/,
    );
    expect(svc.undo.list().owed).toBe(0);
    expect(events().map((e) => e.kind)).toEqual(['order.cancelled', 'refund.returned']);
    expect(events()[1]!.payload).toEqual({
      refundNo: card!.refundNo,
      reference: sale.outOrderNo,
      how: 'bank-transfer',
      returnReference: 'TRF-991',
      by: 'Bola',
    });
  });
});
