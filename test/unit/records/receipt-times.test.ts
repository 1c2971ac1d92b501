// A receipt's payment times say what happened when: "Paid at" is when the payment was taken (the
// provider's completedTime), not when its order was made (transactionTime, the sale's start); an
// order nobody paid has no "Card used at" unless a card was used.
import { describe, expect, it } from 'vitest';
import { receiptPaymentTimes as paymentTimes, receiptDoc } from '../../../core/records/receipts/receipt-model';
import { formatLagosDateTime } from '../../../shared/time';
import type { Receipt } from '../../../shared/records';
import { paidReceipt, PAID_AT } from './receipt-fixtures';

const pairs = (r: Receipt) => receiptDoc(r).blocks.flatMap((b) => (b.t === 'pair' ? [[b.label, b.value]] : []));

describe('receipt payment times', () => {
  it('"Paid at" is the payment\'s completion, not the sale\'s start 12 s before', () => {
    const r: Receipt = { ...paidReceipt(), transactionTime: PAID_AT - 12_000, completedTime: PAID_AT };
    expect(paymentTimes(r)).toEqual([['Paid at', PAID_AT]]);
    expect(pairs(r)).toContainEqual(['Paid at', formatLagosDateTime(PAID_AT)]);
    expect(pairs(r).map(([, v]) => v)).not.toContain(formatLagosDateTime(PAID_AT - 12_000));
  });

  it('a paid receipt without a completion time does not call the start "Paid at"', () => {
    const { completedTime: _c, ...rest } = { ...paidReceipt(), transactionTime: PAID_AT - 12_000 };
    expect(paymentTimes(rest)).toEqual([['Payment started', PAID_AT - 12_000]]);
  });

  it('an order nobody paid (cancelled on the terminal, no card) shows no "Card used at"', () => {
    const { senderAccount: _a, senderName: _n, payNo: _p, ...rest } = paidReceipt();
    const r: Receipt = {
      ...rest,
      state: 'cancelled',
      transactionTime: PAID_AT - 12_000,
      completedTime: PAID_AT + 30_000,
    };
    expect(pairs(r).map(([l]) => l)).not.toContain('Card used at');
    expect(paymentTimes(r)).toEqual([['Ended at', PAID_AT + 30_000]]);
  });

  it('a declined card says when it was used', () => {
    const r: Receipt = { ...paidReceipt(), state: 'failed', transactionTime: PAID_AT, completedTime: PAID_AT + 5_000 };
    expect(paymentTimes(r)).toEqual([
      ['Card used at', PAID_AT],
      ['Ended at', PAID_AT + 5_000],
    ]);
  });
});
