// The counter's rules before a charge: one unpaid order per terminal (named when it blocks), and a shift open.
import { describe, expect, it } from 'vitest';
import { admitSale, ordersOnTerminal } from '../../../core/orders';
import { canSendQueued } from '../../../core/orders/charge-guard';
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
});
