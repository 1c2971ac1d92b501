// The sale form's schema, the amount arithmetic and the productInfo sent to the provider.
import { describe, expect, it } from 'vitest';
import {
  SaleInputSchema,
  saleAmounts,
  ORDER_STATES,
  ORDER_STATE_LABELS,
  ORDER_STATE_CUSTOMER_LINES,
  OrderViewSchema,
} from '../../../shared/orders';
import { maskAccount, productInfoFor, detailsMismatch, factsFromDetails } from '../../../core/orders/sale-wire';

const good = {
  filmName: 'Lagos Nights',
  filmTitle: 'Hall 2 (3D)',
  showDate: '2025-01-31',
  showTime: '19:30',
  seats: 'F7,F8',
  tickets: 2,
  priceKobo: 350_000,
  bookingFeeKobo: 10_000,
  sn: 'P30-0012345',
};

function errorsOf(input: unknown): Record<string, string> {
  const r = SaleInputSchema.safeParse(input);
  if (r.success) return {};
  const out: Record<string, string> = {};
  for (const i of r.error.issues) out[i.path.join('.')] ??= i.message;
  return out;
}

describe('SaleInputSchema', () => {
  it('accepts a good sale, normalising seats and filling a missing fee with 0', () => {
    const { bookingFeeKobo: _f, ...noFee } = good;
    const s = SaleInputSchema.parse({ ...noFee, seats: ' f7 , F8' });
    expect(s.seats).toBe('F7,F8');
    expect(s.bookingFeeKobo).toBe(0);
  });

  it('refuses a field it does not know (a fee under another name) instead of charging without it', () => {
    const { bookingFeeKobo, ...rest } = good;
    const r = SaleInputSchema.safeParse({ ...rest, feeKobo: bookingFeeKobo });
    expect(r.success).toBe(false);
  });

  it.each([
    ['filmName', '', 'Enter the film name'],
    ['filmTitle', '   ', 'Enter the film title'],
    ['showDate', '31/01/2025', 'yyyy-MM-dd'],
    ['showDate', '2025-02-30', 'yyyy-MM-dd'],
    ['showTime', '7:30pm', 'HH:mm'],
    ['showTime', '24:00', 'HH:mm'],
    ['tickets', 0, '1 to 50'],
    ['tickets', 51, 'At most 50 tickets'],
    ['tickets', 1.5, 'whole number'],
    ['priceKobo', 0, 'more than ₦0.00'],
    ['priceKobo', 10.5, 'whole number of kobo'],
    ['bookingFeeKobo', -1, 'cannot be negative'],
    ['sn', 'ab', 'serial number (SN)'],
    ['sn', 'P30 0012345', 'serial number (SN)'],
  ])('refuses %s = %j with a message a cashier can act on', (field, value, words) => {
    const errs = errorsOf({ ...good, [field]: value });
    expect(errs[field]).toContain(words);
  });

  it('checks seat labels, duplicates and one seat per ticket', () => {
    expect(errorsOf({ ...good, seats: 'F7,,F8' }).seats).toMatch(/missing between commas/);
    expect(errorsOf({ ...good, seats: 'F7;F8' }).seats).toMatch(/not a seat/);
    expect(errorsOf({ ...good, seats: 'F7,f7' }).seats).toBe('Seat F7 is listed twice');
    expect(errorsOf({ ...good, seats: 'F7', tickets: 2 }).seats).toBe(
      '1 seat listed for 2 tickets: list one seat per ticket',
    );
    expect(errorsOf({ ...good, seats: 'F7,F8,F9', tickets: 2 }).seats).toBe(
      '3 seats listed for 2 tickets: list one seat per ticket',
    );
  });

  it('names a missing field instead of a type error', () => {
    expect(errorsOf({ ...good, tickets: undefined }).tickets).toMatch(/Enter the number of tickets/);
    expect(errorsOf({ ...good, sn: undefined }).sn).toMatch(/Enter the terminal serial number/);
  });
});

describe('amounts', () => {
  it('amount = tickets x price + fee, in integer kobo', () => {
    expect(saleAmounts({ tickets: 2, priceKobo: 350_000, bookingFeeKobo: 10_000 })).toEqual({
      ticketsKobo: 700_000,
      bookingFeeKobo: 10_000,
      amountKobo: 710_000,
    });
    expect(saleAmounts({ tickets: 3, priceKobo: 333, bookingFeeKobo: 1 })).toEqual({
      ticketsKobo: 999,
      bookingFeeKobo: 1,
      amountKobo: 1000,
    });
    expect(saleAmounts({ tickets: 50, priceKobo: 1_000_000_000, bookingFeeKobo: 0 }).amountKobo).toBe(50_000_000_000);
  });

  it('productInfo carries the spec names with Naira to two decimals', () => {
    const sale = SaleInputSchema.parse({
      ...good,
      tickets: 3,
      seats: 'A1,A2,A3',
      priceKobo: 250_050,
      bookingFeeKobo: 5,
    });
    expect(productInfoFor(sale)).toEqual({
      filmName: 'Lagos Nights',
      filmTitle: 'Hall 2 (3D)',
      filmTicketNum: '3',
      seatNum: 'A1,A2,A3',
      filmTicketAmount: '7501.50',
      filmFeeAmount: '0.05',
      filmDate: '2025-01-31',
      filmTime: '19:30',
    });
  });
});

describe('provider details kept', () => {
  it('masks account numbers to at most the last four digits', () => {
    expect(maskAccount('0123456789')).toBe('******6789');
    expect(maskAccount('012****789')).toBe('**2****789');
    expect(maskAccount('******6789')).toBe('******6789');
    expect(maskAccount('')).toBe('');
  });

  it('keeps the final details, with the raw JSON masked too', () => {
    const f = factsFromDetails({
      outOrderNo: 'X',
      orderNo: 'O1',
      payNo: 'P1',
      status: 'SUCCESS',
      amountKobo: 100,
      feeKobo: 150,
      feePattern: 'IN_DEDUCT',
      senderName: 'ADA',
      senderAccount: '0123456789',
      transactionTime: 5,
      completedTime: 6,
    });
    expect(f).toMatchObject({
      orderNo: 'O1',
      payNo: 'P1',
      providerFeeKobo: 150,
      feePattern: 'IN_DEDUCT',
      senderName: 'ADA',
      senderAccount: '******6789',
      transactionTime: 5,
      completedTime: 6,
      providerStatus: 'SUCCESS',
    });
    expect(f.detailsJson).not.toContain('0123456789');
    expect(JSON.parse(f.detailsJson!)).toMatchObject({ payNo: 'P1', senderAccount: '******6789' });
  });

  it('notices details that are not about this sale', () => {
    const order = { outOrderNo: 'C1-250131-0001', amountKobo: 710_000, sn: 'P30-0012345' };
    const d = { outOrderNo: 'C1-250131-0001', orderNo: 'O', status: 'PENDING', amountKobo: 710_000, sn: 'P30-0012345' };
    expect(detailsMismatch(order, d)).toBeNull();
    expect(detailsMismatch(order, { ...d, amountKobo: 700_000 })).toMatch(/7000.00 Naira, not 7100.00/);
    expect(detailsMismatch(order, { ...d, sn: 'OTHER-TERM' })).toMatch(/terminal OTHER-TERM/);
    expect(detailsMismatch(order, { ...d, outOrderNo: 'C2-250131-0001' })).toMatch(/not C1-250131-0001/);
  });
});

describe('state words', () => {
  it('has a label and a customer line for every state', () => {
    for (const s of ORDER_STATES) {
      expect(ORDER_STATE_LABELS[s].length).toBeGreaterThan(2);
      expect(ORDER_STATE_CUSTOMER_LINES[s].length).toBeGreaterThan(10);
    }
    expect(ORDER_STATE_CUSTOMER_LINES.unknown).toMatch(/do not pay again/i);
    expect(OrderViewSchema.shape.state.options).toEqual([...ORDER_STATES]);
  });
});
