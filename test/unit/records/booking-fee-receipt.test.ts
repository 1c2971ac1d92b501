// The booking fee is per ticket on both Sell forms; a stored sale holds the fee of all its tickets.
// The receipt shows "Booking fee 2 × ₦100.00" beside the sale's fee, and a sale typed when the form
// took one fee for the whole sale (which may not divide over its tickets) reads as it was charged.
import { describe, expect, it } from 'vitest';
import { formatNaira } from '../../../shared/money';
import { bookingFeeForSale, bookingFeePerTicket, bookingFeeText } from '../../../shared/orders';
import { buildReceipt, receiptDoc } from '../../../core/records/receipts/receipt-model';
import { CINEMA, PAID_ORDER } from './receipt-fixtures';

const pairs = (order: typeof PAID_ORDER) =>
  receiptDoc(
    buildReceipt({ order, cinema: CINEMA, counterName: 'Counter 3', cashier: 'Ngozi Eze', reprint: false }),
  ).blocks.flatMap((b) => (b.t === 'pair' ? [[b.label, b.value]] : []));

describe('booking fee per ticket', () => {
  it('a sale carries the fee per ticket times its tickets, and gives it back per ticket', () => {
    expect(bookingFeeForSale(3, 15_000)).toBe(45_000);
    expect(bookingFeePerTicket({ tickets: 3, bookingFeeKobo: 45_000 })).toBe(15_000);
    expect(bookingFeeText({ tickets: 3, bookingFeeKobo: 45_000 }, formatNaira)).toBe('3 × ₦150.00');
    expect(bookingFeeText({ tickets: 1, bookingFeeKobo: 15_000 }, formatNaira)).toBe('₦150.00');
  });

  it('the receipt names our number "Sale no.", the provider\'s "Provider order no.", and the fee per ticket with the sale\'s fee', () => {
    const p = pairs(PAID_ORDER);
    expect(p).toContainEqual(['Booking fee 2 × ₦100.00', '₦200.00']);
    expect(p).toContainEqual(['Sale no.', 'C1-261121-0007']);
    expect(p).toContainEqual(['Provider order no.', '250102050012345678']);
    expect(p.map(([l]) => l)).not.toContain('Order no.');
  });

  it('an older typed sale whose fee does not divide over its tickets keeps its fee, not reinterpreted', () => {
    const old = {
      ...PAID_ORDER,
      sale: { ...PAID_ORDER.sale, seats: 'F7,F8,F9', tickets: 3, bookingFeeKobo: 50_000 },
      amountKobo: 800_000,
    };
    expect(bookingFeePerTicket(old.sale)).toBeNull();
    expect(pairs(old)).toContainEqual(['Booking fee', '₦500.00']);
  });
});
