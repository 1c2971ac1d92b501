// An exchange through the checkout (core/orders/exchange.ts) against the real sandbox over loopback
// HTTP and a real SQLite file: tickets of a paid sale moved to a dearer show paid in cash or by card,
// to a cheaper one (a refund owed, card first), at the same price; the new seats held first (taken
// elsewhere: refused, nothing changed); a card difference that fails leaves the sale as it was; the
// sales linked both ways; the ledger's new money only the difference; a show's paid sales listed.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../../shared/clock';
import { memoryLogger } from '../../../shared/logger';
import { createCheckoutService, type CheckoutService } from '../../../core/orders/checkout-service';
import type { BasketSources, SeatPlanner } from '../../../core/orders';
import { createPosClient } from '../../../core/provider';
import type { BasketSaleInput } from '../../../shared/basket-sale';
import { AppError, isAppError } from '../../../shared/errors';
import { EXCHANGE_INVALID, type ExchangeRequest } from '../../../shared/refunds';
import { SEATS_UNCHECKED_REASONS, type SeatHolds } from '../../../shared/seats';
import { splitSeats } from '../../../shared/seat-list';
import { openTempDb } from '../../helpers/orders-db';
import { OrderJournalReads } from '../../../core/orders';
import { EXCHANGE_NEEDS_HOLD } from '../../../core/orders/seat-holding';
import { ledger } from '../../../shared/ledger';
import { SYNC_PAYLOADS } from '../../../shared/hub-contract';
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

const EVENING = { filmName: 'Gladiator II', filmTitle: 'Gladiator II', showDate: '2026-12-07', showTime: '19:30' };
const LATE = { ...EVENING, showTime: '22:00' };
const MATINEE = { ...EVENING, showTime: '13:00' };
/** 19:30 Adult ₦5,000 + ₦100 fee; 22:00 VIP ₦7,000 + ₦100; 13:00 Adult ₦3,000 + ₦100 (the same price as a 19:30 Child). */
const SHOWS: Record<
  string,
  { showKey: string; ticketTypes: { name: string; priceKobo: number; bookingFeeKobo: number }[] }
> = {
  '19:30': {
    showKey: 'k-1930',
    ticketTypes: [
      { name: 'Adult', priceKobo: 500_000, bookingFeeKobo: 10_000 },
      { name: 'Child', priceKobo: 300_000, bookingFeeKobo: 10_000 },
    ],
  },
  '22:00': { showKey: 'k-2200', ticketTypes: [{ name: 'VIP', priceKobo: 700_000, bookingFeeKobo: 10_000 }] },
  '13:00': { showKey: 'k-1300', ticketTypes: [{ name: 'Adult', priceKobo: 300_000, bookingFeeKobo: 10_000 }] },
};
const PIN = '2468';

/** A checkout with the shows, a seat planner (every show has a seat map), a seat holds port standing in for the Hub. */
function checkout(
  opts: {
    takenElsewhere?: string[];
    file?: ReturnType<typeof openTempDb>;
    drawerHolds?: number;
    /** The Hub cannot be asked: every hold answers "not checked" (as the Hub link's port does then). */
    hubDown?: boolean;
  } = {},
) {
  const t = opts.file ?? openTempDb();
  // The Hub's outbox checks each event against its schema in the writer's transaction: so does this sink.
  const synced: { kind: string; payload: Record<string, unknown> }[] = [];
  const logger = memoryLogger();
  const real = createPosClient(() => sb.providerConfig(), { logger: memoryLogger() });
  lane += 1;
  const sources: BasketSources = {
    show: (s) => (s.filmName === EVENING.filmName ? (SHOWS[s.showTime] ?? null) : null),
    catalogue: () => undefined,
  };
  const planner: SeatPlanner = {
    plan: (sale, hint) => ({
      showKey: hint.showKey ?? SHOWS[sale.showTime]!.showKey,
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
  const held: string[] = [];
  const settled: { orderKey: string; outcome: string }[] = [];
  const holds: SeatHolds = {
    hold: (req) => {
      if (opts.hubDown) return Promise.resolve({ kind: 'unchecked', reason: SEATS_UNCHECKED_REASONS.unreachable });
      const taken = req.seats.filter((s) => (opts.takenElsewhere ?? []).includes(s));
      if (taken.length > 0)
        return Promise.resolve({
          kind: 'taken',
          taken: taken.map((seat) => ({ seat, state: 'sold' as const, counterName: 'Counter 2', mine: false })),
        });
      held.push(...req.seats.map((s) => `${req.showKey}:${s}`));
      return Promise.resolve({ kind: 'held' });
    },
    settle: (orderKey, outcome) => settled.push({ orderKey, outcome }),
  };
  const svc = createCheckoutService({
    db: t.db,
    pos: real,
    clock: systemClock,
    logger,
    journalSink: {
      append: (kind, payload) => {
        synced.push({ kind, payload: SYNC_PAYLOADS[kind].parse(payload) as Record<string, unknown> });
      },
    },
    settings: () => ({
      counterName: `Exchange ${lane}`,
      headMerchantId: sb.merchant.headMerchantId,
      merchantId: sb.merchant.merchantId,
      orderExpireSeconds: 300,
    }),
    tuning: FAST_TUNING,
    basket: sources,
    shiftOpen: () => true,
    seats: { planner, holds: () => holds },
    undo: {
      checkPin: (pin) => (pin === PIN ? Promise.resolve() : Promise.reject(new AppError('PIN_WRONG', 'Wrong PIN'))),
      shiftAt: () => ({
        id: 1,
        ...(opts.drawerHolds === undefined ? {} : { drawerHolds: () => opts.drawerHolds ?? null }),
      }),
    },
  });
  open.push({ svc, cleanup: opts.file ? () => {} : t.cleanup });
  return { svc, db: t.db, held, settled, synced, logger, file: t };
}

const evening = (tender: BasketSaleInput['tender'], seats = ['F7', 'F8']): BasketSaleInput => ({
  tickets: { ...EVENING, seats: seats.map((seat) => ({ seat, ticketType: 'Adult' })) },
  concessions: [],
  tender,
  sn: sb.merchant.terminalSn,
});

const request = (orderId: number, over: Partial<ExchangeRequest> = {}): ExchangeRequest => ({
  orderId,
  seats: ['F8'],
  to: { ...LATE, seats: [{ seat: 'A1', ticketType: 'VIP' }] },
  reason: 'customer-request',
  approval: { pin: PIN },
  cashier: 'Ada',
  ...over,
});

async function refusal(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (err) {
    if (isAppError(err)) return err;
    throw err;
  }
  throw new Error('the exchange was not refused');
}

const countOf = (db: ReturnType<typeof openTempDb>['db'], table: string) =>
  (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;

/** A paid cash sale of F7, F8 at 19:30 (₦10,200.00). */
async function paidEvening(svc: CheckoutService) {
  const v = await svc.sell(evening({ kind: 'cash', tenderedKobo: 1_020_000 }));
  expect(v.state).toBe('paid');
  return v;
}

describe('an exchange', () => {
  it('up, paid in cash: the new sale takes only the difference, the old seat is cancelled in the same step, both linked', async () => {
    const { svc, held, synced } = checkout();
    const from = await paidEvening(svc);
    // F8 (₦5,000 + ₦100) → 22:00 A1 VIP (₦7,000 + ₦100): ₦2,000.00 to pay.
    const r = await svc.exchanges.exchange(request(from.id, { tender: { kind: 'cash', tenderedKobo: 500_000 } }));
    expect(r.to.state).toBe('paid');
    expect(r.to.amountKobo).toBe(0);
    expect(r.to.basket!.amounts).toMatchObject({
      totalKobo: 710_000,
      creditKobo: 510_000,
      cashKobo: 200_000,
      cardKobo: 0,
      changeKobo: 300_000,
    });
    expect(r.to.sale).toMatchObject({ showTime: '22:00', seats: 'A1' });
    expect(r.refunds).toEqual([]);
    expect(held).toContain('k-2200:A1');
    const fromLinks = svc.undo.ofOrder(from.id).links;
    expect(fromLinks.cancelledSeats).toEqual(['F8']);
    expect(fromLinks.exchangedTo).toEqual([{ orderId: r.to.id, outOrderNo: r.to.outOrderNo }]);
    expect(svc.undo.ofOrder(r.to.id).links.exchangedFrom).toEqual({ orderId: from.id, outOrderNo: from.outOrderNo });
    // The old seat is free again on this counter's map; the new one is sold.
    expect(svc.ownSeats('k-1930').map((s) => s.seat)).toEqual(['F7']);
    expect(svc.ownSeats('k-2200').map((s) => `${s.seat}:${s.state}`)).toEqual(['A1:sold']);
    // The Hub is told: the new sale with its credit, then the old seat moved, naming the new sale.
    const created = synced.find((e) => e.kind === 'order.created' && e.payload.reference === r.to.outOrderNo);
    expect(created!.payload).toMatchObject({
      amountKobo: 0,
      basket: { amounts: { creditKobo: 510_000, cashKobo: 200_000 } },
    });
    expect(synced.filter((e) => e.kind === 'order.cancelled').map((e) => e.payload)).toEqual([
      {
        reference: from.outOrderNo,
        kind: 'exchange',
        seats: ['F8'],
        refunds: [],
        reason: 'customer-request',
        approvedBy: 'Admin PIN',
        approvedHow: 'pin',
        exchangeTo: r.to.outOrderNo,
      },
    ]);
    // …in the very transaction that made the new sale paid: right after its status event.
    const kinds = synced.map((e) => `${e.kind}:${String(e.payload.status ?? e.payload.kind ?? '')}`);
    expect(kinds.slice(-2)).toEqual(['order.status:paid', 'order.cancelled:exchange']);
  });

  it('up by card: the order on the terminal is for the difference; the old seat stays until it is paid', async () => {
    const { svc } = checkout();
    const from = await paidEvening(svc);
    const r = await svc.exchanges.exchange(request(from.id, { tender: { kind: 'card' }, sn: sb.merchant.terminalSn }));
    expect(r.to.amountKobo).toBe(200_000);
    expect(r.to.basket!.amounts).toMatchObject({ creditKobo: 510_000, cardKobo: 200_000, cashKobo: 0 });
    await inState(svc, r.to.id, 'waiting');
    const po = sb.sandbox.listPosOrders().find((o) => o.outOrderNo === r.to.outOrderNo);
    expect(po!.amountKobo).toBe(200_000);
    // Waiting: nothing moved yet, and the seat cannot be cancelled or exchanged meanwhile.
    expect(svc.undo.ofOrder(from.id).links).toMatchObject({ cancelledSeats: [], exchangedTo: [] });
    expect(svc.ownSeats('k-1930').map((s) => s.seat)).toEqual(['F7', 'F8']);
    expect(
      (
        await refusal(
          svc.exchanges.exchange(request(from.id, { to: { ...LATE, seats: [{ seat: 'A2', ticketType: 'VIP' }] } })),
        )
      ).message,
    ).toMatch(/F8 is already being exchanged/);
    const cancel = svc.undo.cancel({
      orderId: from.id,
      seats: ['F8'],
      reason: 'other',
      note: 'x',
      approval: { pin: PIN },
      cashier: 'Ada',
    });
    expect((await refusal(cancel)).message).toMatch(/F8 is being exchanged/);
    sb.sandbox.present(sb.merchant.terminalSn, 'SUCCESS');
    await inState(svc, r.to.id, 'paid');
    expect(svc.undo.ofOrder(from.id).links).toMatchObject({
      cancelledSeats: ['F8'],
      exchangedTo: [{ orderId: r.to.id, outOrderNo: r.to.outOrderNo }],
    });
    expect(svc.ownSeats('k-1930').map((s) => s.seat)).toEqual(['F7']);
  });

  it('up by card, and the card fails: the exchange is not made, the old seat stays, the new one is released', async () => {
    const { svc, settled } = checkout();
    const from = await paidEvening(svc);
    const r = await svc.exchanges.exchange(request(from.id, { tender: { kind: 'card' }, sn: sb.merchant.terminalSn }));
    await inState(svc, r.to.id, 'waiting');
    sb.sandbox.present(sb.merchant.terminalSn, 'FAIL');
    await inState(svc, r.to.id, 'failed');
    expect(svc.undo.ofOrder(from.id).links).toMatchObject({ cancelledSeats: [], exchangedTo: [] });
    expect(svc.ownSeats('k-1930').map((s) => s.seat)).toEqual(['F7', 'F8']);
    expect(svc.ownSeats('k-2200')).toEqual([]);
    expect(settled).toContainEqual({ orderKey: r.to.outOrderNo, outcome: 'released' });
    // Try again is not the way: exchange again from the original.
    expect((await refusal(svc.retrySale(r.to.id))).code).toBe('CONFLICT');
    const again = await svc.exchanges.exchange(request(from.id, { tender: { kind: 'cash', tenderedKobo: 200_000 } }));
    expect(again.to.state).toBe('paid');
  });

  it('down: the difference is a refund owed, card first (a card sale: owed on the card until returned)', async () => {
    const { svc } = checkout();
    const v = await svc.sell(evening({ kind: 'card' }));
    await inState(svc, v.id, 'waiting');
    sb.sandbox.present(sb.merchant.terminalSn, 'SUCCESS');
    const from = await inState(svc, v.id, 'paid');
    // F7 + F8 (₦10,200) → 13:00 B1, B2 Adult (₦6,200): ₦4,000.00 back, on the card.
    const r = await svc.exchanges.exchange(
      request(from.id, {
        seats: [],
        to: {
          ...MATINEE,
          seats: [
            { seat: 'B1', ticketType: 'Adult' },
            { seat: 'B2', ticketType: 'Adult' },
          ],
        },
        tender: { kind: 'card' },
      }),
    );
    expect(r.to.state).toBe('paid');
    expect(r.to.basket!.tender).toEqual({ kind: 'cash', tenderedKobo: 0 });
    expect(r.to.basket!.amounts).toMatchObject({ totalKobo: 620_000, creditKobo: 620_000, cashKobo: 0, cardKobo: 0 });
    expect(r.refunds.map((x) => [x.kind, x.tender, x.amountKobo, x.returned, x.exchangeOrderId])).toEqual([
      ['exchange', 'card', 400_000, null, r.to.id],
    ]);
    expect(svc.undo.ofOrder(from.id).links.cancelledSeats).toEqual(['F7', 'F8']);
  });

  it('down from a cash sale: the refund is cash from the drawer, returned at once', async () => {
    const { svc } = checkout();
    const from = await paidEvening(svc);
    const r = await svc.exchanges.exchange(
      request(from.id, { to: { ...MATINEE, seats: [{ seat: 'B1', ticketType: 'Adult' }] } }),
    );
    expect(r.refunds.map((x) => [x.tender, x.amountKobo, x.returned?.how])).toEqual([['cash', 200_000, 'cash']]);
    expect(svc.history(from.id).at(-1)!.note).toBe(
      `Exchanged seat F8 to sale ${r.to.outOrderNo} (Customer asked): ${r.refunds[0]!.refundNo} ₦2,000.00 paid back in cash. Approved: Admin PIN`,
    );
  });

  it('equal: nothing paid, nothing owed; the new sale is a cash sale of ₦0.00 with no order on any terminal', async () => {
    const { svc } = checkout();
    const from = await paidEvening(svc);
    const before = sb.sandbox.listPosOrders().length;
    const r = await svc.exchanges.exchange(
      request(from.id, { to: { ...EVENING, seats: [{ seat: 'G1', ticketType: 'Adult' }] } }),
    );
    expect(r.to.state).toBe('paid');
    expect(r.to.basket!.amounts).toMatchObject({ totalKobo: 510_000, creditKobo: 510_000, cashKobo: 0, cardKobo: 0 });
    expect(r.refunds).toEqual([]);
    expect(sb.sandbox.listPosOrders().length).toBe(before);
    expect(svc.history(from.id).at(-1)).toMatchObject({
      from: 'paid',
      to: 'paid',
      note: `Exchanged seat F8 to sale ${r.to.outOrderNo} (Customer asked). Approved: Admin PIN`,
    });
    expect(
      svc
        .ownSeats('k-1930')
        .map((s) => s.seat)
        .sort(),
    ).toEqual(['F7', 'G1']);
  });

  it('new seats taken at another counter: refused, nothing changed on the sale', async () => {
    const { svc, db } = checkout({ takenElsewhere: ['A1'] });
    const from = await paidEvening(svc);
    const undos = countOf(db, 'order_undos');
    const e = await refusal(
      svc.exchanges.exchange(request(from.id, { tender: { kind: 'cash', tenderedKobo: 200_000 } })),
    );
    expect(e.code).toBe('CONFLICT');
    expect(e.message).toMatch(/A1 was just taken at Counter 2.*unchanged/);
    expect(countOf(db, 'order_undos')).toBe(undos);
    expect(countOf(db, 'order_refunds')).toBe(0);
    expect(svc.undo.ofOrder(from.id).links).toEqual({ exchangedFrom: null, exchangedTo: [], cancelledSeats: [] });
    expect(svc.ownSeats('k-1930').map((s) => s.seat)).toEqual(['F7', 'F8']);
  });

  it('a sale made by an exchange (paid wholly by its credit) can be exchanged again, and cancelled by the first sale’s tender', async () => {
    const { svc } = checkout();
    const from = await paidEvening(svc);
    const first = await svc.exchanges.exchange(
      request(from.id, { to: { ...EVENING, seats: [{ seat: 'G1', ticketType: 'Adult' }] } }),
    );
    expect(first.to.basket!.amounts).toMatchObject({ creditKobo: 510_000, cashKobo: 0, cardKobo: 0 });
    const second = await svc.exchanges.exchange(
      request(first.to.id, { seats: [], to: { ...EVENING, seats: [{ seat: 'G2', ticketType: 'Adult' }] } }),
    );
    expect(second.to.state).toBe('paid');
    expect(svc.undo.ofOrder(first.to.id).links).toMatchObject({
      exchangedFrom: { orderId: from.id },
      exchangedTo: [{ orderId: second.to.id }],
      cancelledSeats: ['G1'],
    });
    // The last sale cancelled: its ticket's credit goes back as the first sale paid, in cash.
    const c = await svc.undo.cancel({
      orderId: second.to.id,
      seats: ['G2'],
      reason: 'customer-request',
      approval: { pin: PIN },
      cashier: 'Ada',
    });
    expect(c.refunds.map((r) => [r.tender, r.amountKobo])).toEqual([['cash', 510_000]]);
  });

  it('priced as the cashier picks (credit, new total, to pay or owed back), recording nothing and asking no approval', async () => {
    const { svc, db } = checkout();
    const from = await paidEvening(svc);
    const before = ['order_undos', 'order_refunds', 'order_exchanges', 'orders'].map((t) => countOf(db, t));
    // F8 (₦5,000 + ₦100) → 22:00 A1 VIP (₦7,000 + ₦100): ₦2,000.00 to pay.
    expect(svc.exchanges.price({ orderId: from.id, seats: ['F8'], to: request(from.id).to })).toEqual({
      ok: true,
      creditKobo: 510_000,
      newTotalKobo: 710_000,
      toPayKobo: 200_000,
      refundKobo: 0,
    });
    // Both tickets to one cheaper matinee seat each: a refund owed.
    const down = svc.exchanges.price({
      orderId: from.id,
      seats: [],
      to: {
        ...MATINEE,
        seats: [
          { seat: 'B1', ticketType: 'Adult' },
          { seat: 'B2', ticketType: 'Adult' },
        ],
      },
    });
    expect(down).toMatchObject({ ok: true, toPayKobo: 0 });
    expect(down.ok && down.refundKobo).toBeGreaterThan(0);
    // What to fix, by field: too few new seats; a seat not of the sale.
    expect(svc.exchanges.price({ orderId: from.id, seats: ['F7', 'F8'], to: request(from.id).to })).toEqual({
      ok: false,
      problems: [{ field: 'to.seats', message: expect.stringMatching(/Choose 2 new seats/) }],
    });
    expect(svc.exchanges.price({ orderId: from.id, seats: ['Z9'], to: request(from.id).to })).toMatchObject({
      ok: false,
      problems: [{ field: 'seats', message: expect.stringMatching(/Z9: not a seat/) }],
    });
    expect(['order_undos', 'order_refunds', 'order_exchanges', 'orders'].map((t) => countOf(db, t))).toEqual(before);
  });

  it('the Hub cannot be asked: refused, nothing moved (a sale goes on unchecked; an exchange never does)', async () => {
    const { svc, db } = checkout({ hubDown: true });
    const from = await paidEvening(svc);
    expect(from.state).toBe('paid');
    const e = await refusal(
      svc.exchanges.exchange(request(from.id, { tender: { kind: 'cash', tenderedKobo: 200_000 } })),
    );
    expect(e.code).toBe('CONFLICT');
    expect(e.message).toContain(EXCHANGE_NEEDS_HOLD);
    expect(e.message).toMatch(/unchanged/);
    expect(countOf(db, 'order_refunds')).toBe(0);
    expect(svc.undo.ofOrder(from.id).links).toEqual({ exchangedFrom: null, exchangedTo: [], cancelledSeats: [] });
    expect(svc.ownSeats('k-1930').map((s) => s.seat)).toEqual(['F7', 'F8']);
  });

  it('refused before anything is recorded: a wrong PIN, a seat not of the sale, too few new seats, cash short', async () => {
    const { svc, db } = checkout();
    const from = await paidEvening(svc);
    const orders = countOf(db, 'orders');
    const wrong = request(from.id, { approval: { pin: '0000' }, tender: { kind: 'card' }, sn: sb.merchant.terminalSn });
    expect((await refusal(svc.exchanges.exchange(wrong))).code).toBe('PIN_WRONG');
    expect((await refusal(svc.exchanges.exchange(request(from.id, { seats: ['Z9'] })))).code).toBe('VALIDATION');
    expect((await refusal(svc.exchanges.exchange(request(from.id, { seats: ['F7', 'F8'] })))).code).toBe('VALIDATION');
    const short = await refusal(
      svc.exchanges.exchange(request(from.id, { tender: { kind: 'cash', tenderedKobo: 100 } })),
    );
    expect(short.message).toBe(EXCHANGE_INVALID);
    const noTender = await refusal(svc.exchanges.exchange(request(from.id)));
    expect(noTender.details).toMatchObject({
      fields: { tender: expect.stringMatching(/choose how the customer pays/) },
    });
    const noSn = await refusal(svc.exchanges.exchange(request(from.id, { tender: { kind: 'card' } })));
    expect(noSn.details).toMatchObject({ fields: { sn: expect.stringMatching(/Enter the terminal serial number/) } });
    expect(short.details).toMatchObject({
      fields: { 'tender.tenderedKobo': expect.stringMatching(/less than the difference/) },
    });
    expect(countOf(db, 'orders')).toBe(orders);
  });

  it('two exchanges into the same new seat at once (no Hub): one is made, the other refused; the seat is sold once', async () => {
    const { svc } = checkout();
    const a = await paidEvening(svc);
    const b = await svc.sell(evening({ kind: 'cash', tenderedKobo: 1_020_000 }, ['H1', 'H2']));
    const both = await Promise.allSettled([
      svc.exchanges.exchange(request(a.id, { tender: { kind: 'cash', tenderedKobo: 200_000 } })),
      svc.exchanges.exchange(request(b.id, { seats: ['H1'], tender: { kind: 'cash', tenderedKobo: 200_000 } })),
    ]);
    expect(both.map((x) => x.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(svc.ownSeats('k-2200').map((s) => s.seat)).toEqual(['A1']);
  });

  it('a show cancelled by head office: its paid sales with the seats still valid, to refund or exchange', async () => {
    const { svc } = checkout();
    const a = await paidEvening(svc);
    const b = await svc.sell(evening({ kind: 'cash', tenderedKobo: 1_020_000 }, ['H1', 'H2']));
    await svc.exchanges.exchange(request(a.id, { tender: { kind: 'cash', tenderedKobo: 200_000 } }));
    const list = svc.exchanges.salesOfShow({ ...EVENING, showKey: 'k-1930' });
    expect(list.map((s) => [s.order.outOrderNo, s.seats])).toEqual([
      [a.outOrderNo, ['F7']],
      [b.outOrderNo, ['H1', 'H2']],
    ]);
    expect(svc.exchanges.salesOfShow(LATE).map((s) => s.seats)).toEqual([['A1']]);
  });

  it('the ledger counts only the difference as new money: card total the card difference, cash taken the cash one', async () => {
    const { svc, db } = checkout();
    const a = await paidEvening(svc); // ₦10,200.00 cash
    await svc.exchanges.exchange(request(a.id, { tender: { kind: 'cash', tenderedKobo: 500_000 } })); // + ₦2,000.00 cash
    const r = await svc.exchanges.exchange(
      request(a.id, {
        seats: ['F7'],
        to: { ...LATE, seats: [{ seat: 'A2', ticketType: 'VIP' }] },
        tender: { kind: 'card' },
        sn: sb.merchant.terminalSn,
      }),
    ); // + ₦2,000.00 card
    await inState(svc, r.to.id, 'waiting');
    sb.sandbox.present(sb.merchant.terminalSn, 'SUCCESS');
    await inState(svc, r.to.id, 'paid');
    const to = Date.now() + 1;
    const f = ledger(
      { sales: new OrderJournalReads(db).ledgerSales(0, to), late: [], topups: [] },
      { from: 0, to, excludeDemo: false },
    );
    expect(f.card.amountKobo).toBe(200_000);
    expect(f.tenders.cashTaken.amountKobo).toBe(1_020_000 + 200_000);
    expect(f.salesTotal.amountKobo).toBe(1_020_000 + 200_000 + 200_000);
    // The new tickets at their full price (the credit paid the rest of it).
    expect(f.ticketTypes.find((t) => t.ticketType === 'VIP')).toMatchObject({ quantity: 2, amountKobo: 1_400_000 });
  });

  it('the X/Z counts the exchanges done in the window and the credit they moved; one still waiting or failed is not counted', async () => {
    const { svc, db } = checkout();
    const a = await paidEvening(svc); // ₦10,200.00 cash
    // Up, the difference in cash: F8 (₦5,100) → 22:00 A1 VIP, credit ₦5,100.00.
    const up = await svc.exchanges.exchange(request(a.id, { tender: { kind: 'cash', tenderedKobo: 200_000 } }));
    // Down, a refund owed: F7 (₦5,100) → 13:00 B1 (₦3,100), credit ₦5,100.00 (₦2,000.00 of it back in cash).
    const down = await svc.exchanges.exchange(
      request(a.id, { seats: ['F7'], to: { ...MATINEE, seats: [{ seat: 'B1', ticketType: 'Adult' }] } }),
    );
    expect(down.refunds.map((x) => x.amountKobo)).toEqual([200_000]);
    // One whose card failed: not made, not counted.
    const c = await svc.sell(evening({ kind: 'cash', tenderedKobo: 1_020_000 }, ['G1', 'G2']));
    const failed = await svc.exchanges.exchange(
      request(c.id, {
        seats: ['G1'],
        to: { ...LATE, seats: [{ seat: 'A4', ticketType: 'VIP' }] },
        tender: { kind: 'card' },
        sn: sb.merchant.terminalSn,
      }),
    );
    await inState(svc, failed.to.id, 'waiting');
    sb.sandbox.present(sb.merchant.terminalSn, 'FAIL');
    await inState(svc, failed.to.id, 'failed');
    // …and a card difference not yet paid: waiting, not an exchange done.
    const b = await paidEvening(svc);
    const waiting = await svc.exchanges.exchange(
      request(b.id, {
        to: { ...LATE, seats: [{ seat: 'A3', ticketType: 'VIP' }] },
        tender: { kind: 'card' },
        sn: sb.merchant.terminalSn,
      }),
    );
    await inState(svc, waiting.to.id, 'waiting');
    const to = Date.now() + 1;
    const reads = new OrderJournalReads(db);
    const done = reads.ledgerExchanges(0, to);
    expect(done.map((x) => [x.ref, x.fromRef, x.creditKobo])).toEqual([
      [up.to.outOrderNo, a.outOrderNo, 510_000],
      [down.to.outOrderNo, a.outOrderNo, 510_000],
    ]);
    const f = ledger(
      { sales: reads.ledgerSales(0, to), late: [], topups: [], exchanges: done },
      { from: 0, to, excludeDemo: false },
    );
    expect(f.exchanges).toEqual({ count: 2, amountKobo: 1_020_000 });
    // A window that ends before them: none.
    expect(reads.ledgerExchanges(0, up.to.createdAt)).toEqual([]);
  });

  it('a card difference paid while the counter was stopped: the checkout started again on the same file completes the exchange', async () => {
    const first = checkout();
    const from = await paidEvening(first.svc);
    const r = await first.svc.exchanges.exchange(
      request(from.id, { tender: { kind: 'card' }, sn: sb.merchant.terminalSn }),
    );
    await inState(first.svc, r.to.id, 'waiting');
    await first.svc.stop();
    sb.sandbox.present(sb.merchant.terminalSn, 'SUCCESS');
    const again = checkout({ file: first.file });
    again.svc.resume();
    await inState(again.svc, r.to.id, 'paid');
    expect(again.svc.undo.ofOrder(from.id).links).toMatchObject({
      cancelledSeats: ['F8'],
      exchangedTo: [{ orderId: r.to.id, outOrderNo: r.to.outOrderNo }],
    });
    expect(again.synced.find((e) => e.kind === 'order.cancelled')!.payload).toMatchObject({
      exchangeTo: r.to.outOrderNo,
    });
  });

  it('the paid difference always stands: if the old seats cannot be cancelled, the exchange stays waiting and the log says so', async () => {
    const { svc, db, logger } = checkout();
    const from = await paidEvening(svc);
    const r = await svc.exchanges.exchange(request(from.id, { tender: { kind: 'card' }, sn: sb.merchant.terminalSn }));
    await inState(svc, r.to.id, 'waiting');
    // Something outside the rules took F8 meanwhile (no door can: a waiting exchange keeps it).
    db.prepare(
      `INSERT INTO order_undos (order_id, kind, at, reason, note, approved_how, approved_by, approved_at, cashier, demo, lines_json, amount_kobo)
       VALUES (?, 'cancel', 0, 'other', 'x', 'pin', 'Admin PIN', 0, 'Ada', 0, '[]', 0)`,
    ).run(from.id);
    db.prepare("INSERT INTO order_cancelled_seats (order_id, seat, undo_id) VALUES (?, 'F8', last_insert_rowid())").run(
      from.id,
    );
    sb.sandbox.present(sb.merchant.terminalSn, 'SUCCESS');
    await inState(svc, r.to.id, 'paid');
    expect(svc.undo.ofOrder(from.id).links.exchangedTo).toEqual([]);
    expect(countOf(db, 'order_undos')).toBe(1);
    expect(logger.lines.some((l) => /could not cancel the old seats/.test(l.msg))).toBe(true);
  });

  it('the new sale cancelled later: its credit goes back by the tenders it came from (the old card), its difference by its own', async () => {
    const { svc } = checkout();
    const v = await svc.sell(evening({ kind: 'card' }));
    await inState(svc, v.id, 'waiting');
    sb.sandbox.present(sb.merchant.terminalSn, 'SUCCESS');
    const from = await inState(svc, v.id, 'paid');
    const r = await svc.exchanges.exchange(request(from.id, { tender: { kind: 'cash', tenderedKobo: 200_000 } }));
    const back = await svc.undo.cancel({
      orderId: r.to.id,
      seats: ['A1'],
      reason: 'customer-request',
      approval: { pin: PIN },
      cashier: 'Ada',
    });
    // ₦7,100.00: the ₦5,100.00 credit was paid on the old sale's card, the ₦2,000.00 difference in cash.
    expect(back.refunds.map((x) => [x.tender, x.amountKobo])).toEqual([
      ['card', 510_000],
      ['cash', 200_000],
    ]);
  });

  it('the old sale keeps to what it has left to give back: a split sale whose card paid a credit refunds the rest from its cash', async () => {
    const { svc } = checkout();
    // ₦10,200.00: ₦3,000.00 cash, ₦7,200.00 card.
    const v = await svc.sell(evening({ kind: 'split', cashKobo: 300_000 }));
    await inState(svc, v.id, 'waiting');
    sb.sandbox.present(sb.merchant.terminalSn, 'SUCCESS');
    const from = await inState(svc, v.id, 'paid');
    // F8 to G1 at the same price: its ₦5,100.00 credit came from the card (card first).
    await svc.exchanges.exchange(
      request(from.id, { to: { ...EVENING, seats: [{ seat: 'G1', ticketType: 'Adult' }] } }),
    );
    const back = await svc.undo.cancel({
      orderId: from.id,
      seats: ['F7'],
      reason: 'customer-request',
      approval: { pin: PIN },
      cashier: 'Ada',
    });
    // The card has ₦2,100.00 left to give back; the rest of F7's ₦5,100.00 is cash.
    expect(back.refunds.map((x) => [x.tender, x.amountKobo])).toEqual([
      ['card', 210_000],
      ['cash', 300_000],
    ]);
  });

  it('a cheaper show’s cash refund is never more than the drawer holds: refused before anything is recorded', async () => {
    const { svc, db } = checkout({ drawerHolds: 100_000 });
    const from = await paidEvening(svc);
    const orders = countOf(db, 'orders');
    const e = await refusal(
      svc.exchanges.exchange(request(from.id, { to: { ...MATINEE, seats: [{ seat: 'B1', ticketType: 'Adult' }] } })),
    );
    expect(e.code).toBe('CONFLICT');
    expect(e.message).toMatch(/The drawer should hold ₦1,000.00: a cash refund of ₦2,000.00 cannot be paid from it/);
    expect(countOf(db, 'orders')).toBe(orders);
  });
});
