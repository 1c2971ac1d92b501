// The counter's rules before a charge: one unpaid order per terminal (named when it blocks), and a shift open.
import { describe, expect, it } from 'vitest';
import { assertCanCharge, ordersOnTerminal } from '../../../core/orders';
import type { OrderView } from '../../../shared/orders';

function order(p: Partial<OrderView>): OrderView {
  return { id: 1, outOrderNo: 'COU1-251125-0017', amountKobo: 1_370_000, sn: 'DEMO-POS-0001', state: 'waiting', ...p } as OrderView;
}

describe('assertCanCharge', () => {
  it('refuses a second charge on a terminal that still holds an unpaid order, naming it', () => {
    const open = [order({})];
    expect(() => assertCanCharge({ open, sn: 'demo-pos-0001' })).toThrowError(
      expect.objectContaining({ code: 'TERMINAL_BUSY', message: '₦13,700.00 COU1-251125-0017 is still on the terminal: ask the customer to cancel it there, or wait.' }),
    );
  });

  it('lets the charge go when the cashier named the waiting order, or it is on another terminal, queued or final', () => {
    expect(() => assertCanCharge({ open: [order({})], sn: 'DEMO-POS-0001', besideWaiting: 'COU1-251125-0017' })).not.toThrow();
    expect(() => assertCanCharge({ open: [order({})], sn: 'OTHER-POS-0002' })).not.toThrow();
    expect(() => assertCanCharge({ open: [order({ state: 'queued' })], sn: 'DEMO-POS-0001' })).not.toThrow();
    // Naming one order does not let a second one through.
    const two = [order({}), order({ id: 2, outOrderNo: 'COU1-251125-0018', state: 'unknown' })];
    expect(() => assertCanCharge({ open: two, sn: 'DEMO-POS-0001', besideWaiting: 'COU1-251125-0017' })).toThrowError(/COU1-251125-0018/);
    expect(ordersOnTerminal(two, 'DEMO-POS-0001').map((o) => o.outOrderNo)).toEqual(['COU1-251125-0017', 'COU1-251125-0018']);
  });

  it('refuses any charge with no shift open', () => {
    expect(() => assertCanCharge({ open: [], sn: 'DEMO-POS-0001', shiftOpen: () => false })).toThrowError(expect.objectContaining({ code: 'NO_SHIFT' }));
    expect(() => assertCanCharge({ open: [], sn: 'DEMO-POS-0001', shiftOpen: () => true })).not.toThrow();
  });
});
