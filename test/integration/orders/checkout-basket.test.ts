// A basket through the checkout against the real sandbox over loopback HTTP: several ticket types,
// concessions and combos, paid by card, in cash, or split. The card order is for the card part only,
// productInfo carries the film part and remark the rest; a cash sale never reaches the provider; a
// wrong basket is refused whole, nothing recorded; a split whose card fails says what to hand back.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../../shared/clock';
import { memoryLogger } from '../../../shared/logger';
import { createCheckoutService, type CheckoutService } from '../../../core/orders/checkout-service';
import type { BasketSources } from '../../../core/orders';
import { createPosClient } from '../../../core/provider';
import { DEMO_CATALOGUE, type Catalogue } from '../../../shared/catalogue';
import type { BasketSaleInput } from '../../../shared/basket-sale';
import { soldBasketOf } from '../../../shared/basket-sale';
import { isAppError } from '../../../shared/errors';
import { openTempDb } from '../../helpers/orders-db';
import { FAST_TUNING, inState, startOrdersSandbox, type OrdersSandbox } from '../../helpers/orders-sandbox';

let sb: OrdersSandbox;
let lane = 0;
const open: { svc: CheckoutService; cleanup: () => void }[] = [];

beforeAll(async () => {
  sb = await startOrdersSandbox();
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

function checkout(catalogue: Catalogue | undefined = DEMO_CATALOGUE, db?: ReturnType<typeof openTempDb>) {
  const t = db ?? openTempDb();
  let creates = 0;
  const real = createPosClient(() => sb.providerConfig(), { logger: memoryLogger() });
  lane += 1;
  const sources: BasketSources = {
    show: (s) =>
      s.filmName === SHOW.filmName && s.showTime === SHOW.showTime ? { showKey: 'k1', ticketTypes: TYPES } : null,
    catalogue: () => catalogue,
  };
  const svc = createCheckoutService({
    db: t.db,
    pos: {
      createOrder: (i) => {
        creates++;
        return real.createOrder(i);
      },
      queryOrder: (b) => real.queryOrder(b),
      depositCallbackStatus: (b) => real.depositCallbackStatus(b),
    },
    clock: systemClock,
    logger: memoryLogger(),
    settings: () => ({
      counterName: `Basket ${lane}`,
      headMerchantId: sb.merchant.headMerchantId,
      merchantId: sb.merchant.merchantId,
      orderExpireSeconds: 300,
    }),
    tuning: FAST_TUNING,
    basket: sources,
  });
  open.push({ svc, cleanup: db ? () => {} : t.cleanup });
  return { svc, creates: () => creates, db: t.db, file: t };
}

/** 2 Adult + 1 Child at F7–F9, a popcorn combo with a Fanta, 2 water. */
const basket = (tender: BasketSaleInput['tender']): BasketSaleInput => ({
  tickets: {
    ...SHOW,
    seats: [
      { seat: 'F7', ticketType: 'Adult' },
      { seat: 'F8', ticketType: 'adult' },
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
const providerOrders = (outOrderNo: string) => sb.sandbox.listPosOrders().filter((o) => o.outOrderNo === outOrderNo);
const refusal = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (err) {
    if (isAppError(err)) return err;
    throw err;
  }
  throw new Error('the sale was not refused');
};

describe('a basket through the one checkout door', () => {
  it('by card: one order for the whole basket, productInfo the film part, remark the rest', async () => {
    const { svc } = checkout();
    const v = await svc.sell(basket({ kind: 'card' }));
    // tickets 2×5,000 + 3,000 = 13,000; fees 3×100; combo 3,000 + 2×400 water = 3,800
    expect(v.basket!.amounts).toMatchObject({
      ticketsKobo: 1_300_000,
      bookingFeeKobo: 30_000,
      concessionsKobo: 380_000,
    });
    expect(v.amountKobo).toBe(1_710_000);
    expect(v.sale).toMatchObject({ seats: 'F7,F8,F9', tickets: 3, priceKobo: 0, bookingFeeKobo: 30_000 });
    await inState(svc, v.id, 'waiting');
    const [po] = providerOrders(v.outOrderNo);
    expect(po!.amountKobo).toBe(1_710_000);
    expect(po!.productInfo).toMatchObject({
      filmTicketNum: '3',
      seatNum: 'F7,F8,F9',
      filmTicketAmount: '13000.00',
      filmFeeAmount: '300.00',
    });
    expect(po!.remark).toBe('T 2xAdult 1xChild; C 1xCMB1(FANTA) 2xWATER =3800.00');
    sb.sandbox.present(sb.merchant.terminalSn, 'SUCCESS');
    const paid = await inState(svc, v.id, 'paid');
    expect(
      soldBasketOf(paid).lines.map((l) =>
        l.kind === 'tickets' ? `${l.quantity}x${l.ticketType}` : `${l.quantity}x${l.code}`,
      ),
    ).toEqual(['2xAdult', '1xChild', '1xCMB1', '2xWATER']);
  });

  it('in cash: paid at once with its change, no order on the terminal, nothing asked of the provider', async () => {
    const { svc, creates } = checkout();
    const v = await svc.sell(basket({ kind: 'cash', tenderedKobo: 2_000_000 }));
    expect(v.state).toBe('paid');
    expect(v.amountKobo).toBe(0);
    expect(v.basket!.amounts).toMatchObject({ totalKobo: 1_710_000, cashKobo: 1_710_000, changeKobo: 290_000 });
    expect(creates()).toBe(0);
    expect(svc.history(v.id).map((e) => e.to)).toEqual(['creating', 'paid']);
  });

  it('split: the card order is for the card part only, the cash part beside it', async () => {
    const { svc } = checkout();
    const v = await svc.sell(basket({ kind: 'split', cashKobo: 500_000 }));
    expect(v.amountKobo).toBe(1_210_000);
    await inState(svc, v.id, 'waiting');
    const [po] = providerOrders(v.outOrderNo);
    expect(po!.amountKobo).toBe(1_210_000);
    expect(po!.productInfo).toMatchObject({ filmTicketNum: '3', filmTicketAmount: '13000.00' });
    expect(po!.remark).toMatch(/; CASH 5000\.00$/);
    sb.sandbox.present(sb.merchant.terminalSn, 'FAIL');
    const failed = await inState(svc, v.id, 'failed');
    expect(failed.basket!.amounts.cashKobo).toBe(500_000);
  });

  it('concessions only, by card: no productInfo film fields, the lines in remark', async () => {
    const { svc } = checkout();
    const v = await svc.sell({
      concessions: [{ code: 'POPL', quantity: 2 }],
      tender: { kind: 'card' },
      sn: sb.merchant.terminalSn,
    });
    expect(v.sale.tickets).toBe(0);
    await inState(svc, v.id, 'waiting');
    const [po] = providerOrders(v.outOrderNo);
    expect(po!.amountKobo).toBe(500_000);
    expect(po!.productInfo?.filmTicketNum).toBeUndefined();
  });

  it('a wrong basket is refused whole, each problem under its line, and nothing is recorded', async () => {
    const { svc, creates } = checkout();
    const err = await refusal(
      svc.sell({
        ...basket({ kind: 'card' }),
        concessions: [
          { code: 'CMB1', quantity: 1 },
          { code: 'NOPE', quantity: 1 },
        ],
      }),
    );
    expect(err.code).toBe('VALIDATION');
    const fields = (err.details as { fields: Record<string, string> }).fields;
    expect(fields['concessions.0.choices.Drink']).toMatch(/choose the Drink/);
    expect(fields['concessions.1.code']).toMatch(/no item or combo has the code NOPE/);
    expect(svc.listToday()).toHaveLength(0);
    expect(creates()).toBe(0);
  });

  it('cash short of the total is refused; a card part with no terminal is refused', async () => {
    const { svc } = checkout();
    const short = await refusal(svc.sell(basket({ kind: 'cash', tenderedKobo: 100_000 })));
    expect(short.code).toBe('VALIDATION');
    const { sn: _sn, ...noTerminal } = basket({ kind: 'card' });
    const none = await refusal(svc.sell(noTerminal));
    expect((none.details as { fields: Record<string, string> }).fields.sn).toMatch(/terminal serial number/);
    expect(svc.listToday()).toHaveLength(0);
  });

  it('tickets of a show not in the programme are refused', async () => {
    const { svc } = checkout();
    const b = basket({ kind: 'card' });
    const err = await refusal(svc.sell({ ...b, tickets: { ...b.tickets!, showTime: '21:00' } }));
    expect((err.details as { fields: Record<string, string> }).fields.tickets).toMatch(/not in the programme/);
  });

  it('a cash sale takes no terminal: a card order waiting on it does not keep the cash sale out', async () => {
    const { svc } = checkout();
    const card = await svc.sell(basket({ kind: 'card' }));
    await inState(svc, card.id, 'waiting');
    const cash = await svc.sell({
      concessions: [{ code: 'WATER', quantity: 1 }],
      tender: { kind: 'cash', tenderedKobo: 40_000 },
    });
    expect(cash.state).toBe('paid');
  });

  it('Try again sells the same basket again: the same lines and tender, a new sale number, one new provider order', async () => {
    const { svc } = checkout();
    const first = await svc.sell(basket({ kind: 'split', cashKobo: 500_000 }));
    await inState(svc, first.id, 'waiting');
    sb.sandbox.present(sb.merchant.terminalSn, 'FAIL');
    await inState(svc, first.id, 'failed');
    const again = await svc.retrySale(first.id);
    expect(again.outOrderNo).not.toBe(first.outOrderNo);
    expect(again.retryOf).toBe(first.id);
    expect(again.basket).toEqual(first.basket);
    expect(again.amountKobo).toBe(1_210_000);
    await inState(svc, again.id, 'waiting');
    expect(providerOrders(again.outOrderNo)).toHaveLength(1);
  });

  it('a cash sale the app stopped in the middle of is paid when it starts again, never sent to the provider', async () => {
    const t = openTempDb();
    try {
      const { svc: before } = checkout(DEMO_CATALOGUE, t);
      // The cash sale recorded, then the app stops before it was marked paid (its row as the crash left it).
      const v = await before.sell({
        concessions: [{ code: 'WATER', quantity: 1 }],
        tender: { kind: 'cash', tenderedKobo: 50_000 },
      });
      t.db.prepare("UPDATE orders SET state = 'creating' WHERE id = ?").run(v.id);
      await before.stop();
      const { svc: after, creates } = checkout(DEMO_CATALOGUE, t);
      after.resume();
      const paid = await inState(after, v.id, 'paid');
      expect(paid.basket!.amounts).toMatchObject({ cashKobo: 40_000, changeKobo: 10_000 });
      expect(creates()).toBe(0);
    } finally {
      t.cleanup();
    }
  });
});
