// The payment panel's store re-reads an open payment from main in the background: a late answer
// never replaces the sale the cashier has moved on to, and a failed background read shows nothing
// (the next one repairs it) while a read the cashier asked for says what went wrong.
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors';
import type { OrderView } from '../../../shared/orders';
import { useSale } from '../../../renderer/src/stores/sale-store';
import { connectBridge } from '../../../renderer/src/transport/bridge';
import { PAID_ORDER } from '../records/receipt-fixtures';
import { fakeMain, later } from './fake-main';

const A: OrderView = { ...PAID_ORDER, id: 7, outOrderNo: 'C1-261121-0007', state: 'unknown' };
const B: OrderView = { ...PAID_ORDER, id: 8, outOrderNo: 'C1-261121-0008', state: 'creating' };

afterEach(() => {
  connectBridge(null);
  useSale.setState(useSale.getInitialState(), true);
});

describe('sale store: re-reading the open payment', () => {
  it('a late answer about the previous sale does not replace the one on screen', async () => {
    const main = fakeMain();
    const answer = later<OrderView>();
    main.answer('orders.get', () => answer.promise);
    connectBridge(main.bridge);
    useSale.getState().showOrder(A);
    const reading = useSale.getState().refreshOrder(true);
    useSale.getState().showOrder(B);
    answer.resolve({ ...A, state: 'paid' });
    await reading;
    expect(useSale.getState().order?.id).toBe(B.id);
  });

  it('a newer state read from main replaces the one shown', async () => {
    const main = fakeMain({ 'orders.get': () => ({ ...A, state: 'paid', payNo: 'P-1' }) });
    connectBridge(main.bridge);
    useSale.getState().showOrder(A);
    await useSale.getState().refreshOrder(true);
    expect(useSale.getState().order?.state).toBe('paid');
  });

  it('a failed background read shows no message; a read the cashier asked for does', async () => {
    const main = fakeMain({
      'orders.get': () => {
        throw new AppError('INTERNAL', 'CounterPay is not answering. Is it still running?');
      },
    });
    connectBridge(main.bridge);
    useSale.getState().showOrder(A);
    await useSale.getState().refreshOrder(true);
    expect(useSale.getState().actionMessage).toBeNull();
    await useSale.getState().refreshOrder();
    expect(useSale.getState().actionMessage).toContain('not answering');
  });
});
