// Mapping POS order details to the app's types: Naira strings to kobo, ms strings to numbers.
import { describe, expect, it } from 'vitest';
import { PosOrderWire, toPosOrderDetails } from '../../../core/provider/pos-schemas';

const sample = {
  outOrderNo: 'CP-1',
  orderNo: '2401',
  payNo: 'P1',
  headMerchantId: 'H',
  merchantId: 'M',
  status: 'SUCCESS',
  senderName: 'A',
  senderAccount: '123****789',
  recipientName: 'B',
  recipientAccount: '999',
  amount: '3500.00',
  fee: '17.5',
  feePattern: 'OUT_DEDUCT',
  currency: 'NGN',
  transactionTime: '1763726400000',
  completedTime: '1763726412345',
  transactionType: 'apiCheckout',
  transactionName: 'Checkout',
  payType: 'POS',
  productInfo: { filmName: 'Lagos Nights', seatNum: 'F7,F8' },
  sn: 'PB0123456789',
  remark: null,
};

describe('PosOrderWire', () => {
  it('maps amounts to kobo and times to numbers', () => {
    expect(toPosOrderDetails(PosOrderWire.parse(sample))).toEqual({
      outOrderNo: 'CP-1',
      orderNo: '2401',
      payNo: 'P1',
      headMerchantId: 'H',
      merchantId: 'M',
      status: 'SUCCESS',
      senderName: 'A',
      senderAccount: '123****789',
      recipientName: 'B',
      recipientAccount: '999',
      amountKobo: 350000,
      feeKobo: 1750,
      feePattern: 'OUT_DEDUCT',
      currency: 'NGN',
      transactionTime: 1763726400000,
      completedTime: 1763726412345,
      transactionType: 'apiCheckout',
      transactionName: 'Checkout',
      payType: 'POS',
      productInfo: { filmName: 'Lagos Nights', seatNum: 'F7,F8' },
      sn: 'PB0123456789',
      remark: null,
    });
  });
  it('tolerates absent optional fields and empty times', () => {
    const d = toPosOrderDetails(
      PosOrderWire.parse({ outOrderNo: 'a', orderNo: 'b', status: 'PENDING', amount: '1', completedTime: '' }),
    );
    expect(d).toEqual({ outOrderNo: 'a', orderNo: 'b', status: 'PENDING', amountKobo: 100 });
  });
  it('refuses amounts with more than two decimals and non-numeric times', () => {
    expect(PosOrderWire.safeParse({ ...sample, amount: '1.005' }).success).toBe(false);
    expect(PosOrderWire.safeParse({ ...sample, transactionTime: 'yesterday' }).success).toBe(false);
    expect(PosOrderWire.safeParse({ ...sample, status: '' }).success).toBe(false);
  });
});
