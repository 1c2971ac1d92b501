// The counter's rules before a charge: one unpaid order per terminal (named when it blocks), and a shift open.
import { describe, expect, it } from 'vitest';
import { admitSale, ordersOnTerminal } from '../../../core/orders';
import { canSendQueued, nextQueued, terminalChanged } from '../../../core/orders/charge-guard';
import type { OrderView } from '../../../shared/orders';

function order(p: Partial<OrderView>): OrderView {
  return {
    id: 1,
    outOrderNo: 'COU1-251125-0017',
    amountKobo: 1_370_000,
    sn: 'DEMO-POS-0001',
    state: 'waiting',
    ...p,
  } as OrderView;
}

describe("admitSale (the checkout's rules for a new sale)", () => {
  it('refuses a second charge on a terminal that still holds an unpaid order, naming it', () => {
    const open = [order({})];
    expect(() => admitSale({ open, sn: 'demo-pos-0001' })).toThrowError(
      expect.objectContaining({
        code: 'TERMINAL_BUSY',
        message: '₦13,700.00 COU1-251125-0017 is still on the terminal: ask the customer to cancel it there, or wait.',
      }),
    );
  });

  it('lets the charge go when the cashier named the waiting order, or it is on another terminal', () => {
    expect(() =>
      admitSale({ open: [order({})], sn: 'DEMO-POS-0001', besideWaiting: 'COU1-251125-0017' }),
    ).not.toThrow();
    expect(() => admitSale({ open: [order({})], sn: 'OTHER-POS-0002' })).not.toThrow();
    // Naming one order does not let a second one through.
    const two = [order({}), order({ id: 2, outOrderNo: 'COU1-251125-0018', state: 'unknown' })];
    expect(() => admitSale({ open: two, sn: 'DEMO-POS-0001', besideWaiting: 'COU1-251125-0017' })).toThrowError(
      /COU1-251125-0018/,
    );
    expect(ordersOnTerminal(two, 'DEMO-POS-0001').map((o) => o.outOrderNo)).toEqual([
      'COU1-251125-0017',
      'COU1-251125-0018',
    ]);
  });

  it('a sale queued for the terminal keeps it busy too (it goes there first), named as waiting to be sent', () => {
    // Before: a queued sale did not count, and the queue sender later put both on the terminal.
    expect(() => admitSale({ open: [order({ state: 'queued' })], sn: 'DEMO-POS-0001' })).toThrowError(
      expect.objectContaining({
        code: 'TERMINAL_BUSY',
        message: expect.stringMatching(/COU1-251125-0017 is waiting to be sent to the terminal/),
      }),
    );
    expect(() =>
      admitSale({ open: [order({ state: 'queued' })], sn: 'DEMO-POS-0001', besideWaiting: 'COU1-251125-0017' }),
    ).not.toThrow();
  });

  it('a queued sale may be sent only during a shift, to a free terminal, and only the oldest for its terminal', () => {
    const q1 = order({ id: 1, state: 'queued', outOrderNo: 'Q1' });
    const q2 = order({ id: 2, state: 'queued', outOrderNo: 'Q2' });
    const other = order({ id: 3, state: 'queued', outOrderNo: 'Q3', sn: 'OTHER-POS-0002' });
    expect(canSendQueued([q1, q2, other], q1)).toBe(true);
    expect(canSendQueued([q1, q2, other], q2)).toBe(false);
    expect(canSendQueued([q1, q2, other], other)).toBe(true);
    expect(canSendQueued([q1, q2], q1, () => false)).toBe(false);
    const onIt = order({ id: 4, state: 'unknown', outOrderNo: 'U4' });
    expect(canSendQueued([onIt, q1], q1)).toBe(false);
    expect(canSendQueued([onIt, q1, other], other)).toBe(true);
  });

  it('a door that queues gets the order in the way instead of a refusal', () => {
    expect(admitSale({ open: [order({})], sn: 'DEMO-POS-0001', whenBusy: 'queue' })?.outOrderNo).toBe(
      'COU1-251125-0017',
    );
    expect(admitSale({ open: [], sn: 'DEMO-POS-0001', whenBusy: 'queue' })).toBeNull();
  });

  it('refuses any charge with no shift open', () => {
    expect(() => admitSale({ open: [], sn: 'DEMO-POS-0001', shiftOpen: () => false })).toThrowError(
      expect.objectContaining({ code: 'NO_SHIFT' }),
    );
    expect(() => admitSale({ open: [], sn: 'DEMO-POS-0001', shiftOpen: () => true })).not.toThrow();
  });

  it("a box office's queued charge gives way to the cashier: never TERMINAL_BUSY for the cashier's door, still in the way of another charge", () => {
    const charge = order({ id: 7, state: 'queued', outOrderNo: 'C7' });
    const yields = (o: { id: number }) => o.id === 7;
    expect(admitSale({ open: [charge], sn: 'DEMO-POS-0001', yields })).toBeNull();
    expect(admitSale({ open: [charge], sn: 'DEMO-POS-0001', yields, whenBusy: 'queue' })?.outOrderNo).toBe('C7');
    // The cashier's own queued sale (offline) still keeps the cashier's door busy, as before.
    const own = order({ id: 8, state: 'queued', outOrderNo: 'S8' });
    expect(() => admitSale({ open: [charge, own], sn: 'DEMO-POS-0001', yields })).toThrowError(
      expect.objectContaining({ code: 'TERMINAL_BUSY', details: expect.objectContaining({ outOrderNo: 'S8' }) }),
    );
    // An order on the terminal keeps it busy for everyone.
    expect(() =>
      admitSale({ open: [order({ id: 9, outOrderNo: 'W9' }), charge], sn: 'DEMO-POS-0001', yields }),
    ).toThrowError(
      expect.objectContaining({ code: 'TERMINAL_BUSY', details: expect.objectContaining({ outOrderNo: 'W9' }) }),
    );
  });

  it("the cashier's queued sales go before the box office's older charges, each oldest first", () => {
    const c1 = order({ id: 1, state: 'queued', outOrderNo: 'C1' });
    const c2 = order({ id: 2, state: 'queued', outOrderNo: 'C2' });
    const s3 = order({ id: 3, state: 'queued', outOrderNo: 'S3' });
    const s4 = order({ id: 4, state: 'queued', outOrderNo: 'S4' });
    const yields = (o: { id: number }) => o.id <= 2;
    const open = [c1, c2, s3, s4];
    expect(nextQueued(open, 'demo-pos-0001', yields)?.outOrderNo).toBe('S3');
    expect(open.filter((o) => canSendQueued(open, o, undefined, yields)).map((o) => o.outOrderNo)).toEqual(['S3']);
    expect(nextQueued([c1, c2], 'DEMO-POS-0001', yields)?.outOrderNo).toBe('C1');
    expect(nextQueued(open, 'DEMO-POS-0001')?.outOrderNo).toBe('C1');
  });

  it('a queued sale is judged against the terminal the counter charges on when it is sent', () => {
    expect(terminalChanged({ sn: 'DEMO-POS-0001' }, 'demo-pos-0001')).toBe(false);
    expect(terminalChanged({ sn: 'DEMO-POS-0001' }, 'DEMO-POS-0002')).toBe(true);
    // No terminal known just now (a serial link reconnecting): it waits, it is not ended.
    expect(terminalChanged({ sn: 'DEMO-POS-0001' }, null)).toBe(false);
  });
});
