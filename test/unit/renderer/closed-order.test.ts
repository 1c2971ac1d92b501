// What a closed sale offers the cashier on the Sell panel and the order detail, driven with the
// views main sends (checked against the contract by the fake main):
// - closed unpaid: Check with the provider is the main action; Try again only once that check (the
//   engine's `lastCheck`) said not paid; its answer in cashier words, in Lagos time;
// - paid after closing: a paid sale, never checked or tried again; its facts are the late
//   payment's (lateAt, payment number), never the closed order's card time or provider word.
// The stores: Check with the provider calls `orders.checkNow` and shows the recorded answer; Try
// again then calls `orders.retry` and opens the new sale.
import { afterEach, describe, expect, it } from 'vitest';
import type { LateOutcome } from '../../../shared/late-payments';
import type { OrderView } from '../../../shared/orders';
import { lagosInstant } from '../../../shared/time';
import {
  checkAnswerText,
  closedStep,
  latePaidFacts,
  paidAfterClosing,
} from '../../../renderer/src/screens/closed-order';
import { useOrders } from '../../../renderer/src/stores/orders-store';
import { useSale } from '../../../renderer/src/stores/sale-store';
import { connectBridge } from '../../../renderer/src/transport/bridge';
import { PAID_ORDER } from '../records/receipt-fixtures';
import { fakeMain } from './fake-main';

const AT_2104 = lagosInstant('2026-11-21', '21:04');
const { payNo: _p, transactionTime: _t, completedTime: _c, senderAccount: _a, senderName: _n, ...unpaid } = PAID_ORDER;
const closed = (state: 'failed' | 'cancelled' | 'expired', patch: Partial<OrderView> = {}): OrderView => ({
  ...unpaid,
  id: 9,
  outOrderNo: 'C1-261121-0009',
  state,
  providerStatus: 'CLOSE',
  reason: 'Nobody paid in time',
  ...patch,
});
const LATE: LateOutcome = {
  kind: 'paid-after-closing',
  providerStatus: 'SUCCESS',
  closedAs: 'expired',
  amountKobo: 520_000,
  payNo: 'PAY2611210042',
  senderAccount: '539983******4321',
  providerAt: lagosInstant('2026-11-21', '21:48'),
  foundAt: lagosInstant('2026-11-21', '21:50'),
  source: 'webhook',
  handled: null,
};

afterEach(() => {
  connectBridge(null);
  useSale.setState(useSale.getInitialState(), true);
  useOrders.setState(useOrders.getInitialState(), true);
});

describe('a closed unpaid sale: Check with the provider first, Try again only when it said not paid', () => {
  it.each(['failed', 'cancelled', 'expired'] as const)(
    '%s, not yet checked: the main action is Check with the provider, no Try again',
    (state) => {
      expect(closedStep(closed(state))).toEqual({ kind: 'check' });
    },
  );

  it('checked, not paid: its answer with the Lagos time, and Try again', () => {
    const step = closedStep(closed('expired', { lastCheck: { at: AT_2104, providerStatus: 'CLOSE', paid: false } }));
    expect(step).toEqual({ kind: 'checked', retry: true, answer: 'The provider says not paid at 21:04 (CLOSE).' });
  });

  it('checked, the provider has no such order: not paid, and Try again', () => {
    expect(
      closedStep(closed('failed', { lastCheck: { at: AT_2104, providerStatus: 'NOT_FOUND', paid: false } })),
    ).toEqual({
      kind: 'checked',
      retry: true,
      answer: 'The provider says not paid at 21:04: it has no payment for this sale.',
    });
  });

  it('checked, paid (before the late payment is on the view): no Try again', () => {
    const step = closedStep(closed('cancelled', { lastCheck: { at: AT_2104, providerStatus: 'SUCCESS', paid: true } }));
    expect(step).toMatchObject({ kind: 'checked', retry: false });
    expect(checkAnswerText({ at: AT_2104, providerStatus: 'SUCCESS', paid: true })).toMatch(
      /^The provider says paid at 21:04.*Do not charge again\.$/,
    );
  });

  it('open, paid and paid-after-closing sales offer none of it', () => {
    for (const state of ['queued', 'creating', 'waiting', 'unknown', 'paid'] as const)
      expect(closedStep({ ...PAID_ORDER, state }), state).toEqual({ kind: 'none' });
    // Even with a not-paid check on record: the money was taken after, so it is never charged again.
    expect(
      closedStep(closed('expired', { late: LATE, lastCheck: { at: AT_2104, providerStatus: 'CLOSE', paid: false } })),
    ).toEqual({ kind: 'none' });
  });
});

describe('a sale paid after closing is a paid sale', () => {
  it('its facts are the late payment’s: when the provider took the money (lateAt), the payment number, the card', () => {
    const o = closed('expired', { late: LATE, transactionTime: PAID_ORDER.createdAt });
    expect(paidAfterClosing(o)).toBe(LATE);
    const facts = Object.fromEntries(latePaidFacts(LATE));
    expect(facts).toEqual({
      'Paid at': '21 Nov 2026, 21:48:00',
      'Payment number': 'PAY2611210042',
      Card: '539983******4321',
      'Closed on the counter as': 'Expired',
    });
    // Without the provider's time, when the counter learnt it.
    const { providerAt: _x, ...noTime } = LATE;
    expect(Object.fromEntries(latePaidFacts(noTime))['Paid at']).toBe('21 Nov 2026, 21:50:00');
  });

  it('a paid order the provider later reports otherwise is not paid after closing', () => {
    expect(
      paidAfterClosing({ late: { ...LATE, kind: 'reported-otherwise', providerStatus: 'FAIL', closedAs: 'paid' } }),
    ).toBeNull();
  });
});

describe('the stores: Check with the provider, then Try again', () => {
  it('Sell panel: the check calls orders.checkNow and shows its answer; Try again then calls orders.retry and opens the new sale', async () => {
    const checked = closed('expired', { lastCheck: { at: AT_2104, providerStatus: 'CLOSE', paid: false } });
    const again: OrderView = { ...unpaid, id: 10, outOrderNo: 'C1-261121-0010', state: 'creating', retryOf: 9 };
    const main = fakeMain({ 'orders.checkNow': () => checked, 'orders.retry': () => again });
    connectBridge(main.bridge);
    useSale.getState().showOrder(closed('expired'));
    expect(closedStep(useSale.getState().order!)).toEqual({ kind: 'check' });
    await useSale.getState().checkNow();
    expect(main.calls.filter((c) => c.name === 'orders.checkNow')).toEqual([
      { name: 'orders.checkNow', args: { id: 9 } },
    ]);
    expect(closedStep(useSale.getState().order!)).toMatchObject({
      kind: 'checked',
      retry: true,
      answer: 'The provider says not paid at 21:04 (CLOSE).',
    });
    await useSale.getState().retry();
    expect(main.calls.filter((c) => c.name === 'orders.retry')).toEqual([{ name: 'orders.retry', args: { id: 9 } }]);
    expect(useSale.getState()).toMatchObject({ order: { id: 10 }, retriedFrom: 'C1-261121-0009', paymentOpen: true });
  });

  it('Sell panel: a check that finds the money taken turns the panel into the paid-after-closing view', async () => {
    const main = fakeMain({
      'orders.checkNow': () =>
        closed('cancelled', {
          late: { ...LATE, closedAs: 'cancelled', source: 'query' },
          lastCheck: { at: AT_2104, providerStatus: 'SUCCESS', paid: true },
        }),
    });
    connectBridge(main.bridge);
    useSale.getState().showOrder(closed('cancelled'));
    await useSale.getState().checkNow();
    const order = useSale.getState().order!;
    expect(paidAfterClosing(order)?.payNo).toBe('PAY2611210042');
    expect(closedStep(order)).toEqual({ kind: 'none' });
  });

  it('order detail: the check calls orders.checkNow for the opened order and the detail shows its answer', async () => {
    const checked = closed('failed', { lastCheck: { at: AT_2104, providerStatus: 'FAIL', paid: false } });
    const main = fakeMain({
      'orders.get': () => closed('failed'),
      'orders.history': () => [],
      'orders.checkNow': () => checked,
    });
    connectBridge(main.bridge);
    await useOrders.getState().open(9);
    expect(closedStep(useOrders.getState().opened!)).toEqual({ kind: 'check' });
    await useOrders.getState().checkNow(9);
    expect(closedStep(useOrders.getState().opened!)).toMatchObject({
      kind: 'checked',
      retry: true,
      answer: 'The provider says not paid at 21:04 (FAIL).',
    });
  });
});
