// The receipt of a basket sale (issue 38): every line with its quantity, unit price and amount, the
// tenders and the change; a cash sale shows no provider fields; a sale before baskets (or of one
// ticket type by card) prints exactly as it did.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { escposOf } from '../../../core/records/printing/escpos';
import { htmlFragmentOf } from '../../../core/records/printing/print-html';
import { receiptDoc } from '../../../core/records/receipts/receipt-model';
import { soldBasketOf } from '../../../shared/basket-sale';
import { ReceiptSchema } from '../../../shared/records';
import { escposLines, escposText } from '../../helpers/loopback-printer';
import { basketOrder, MIXED, receiptOf } from './basket-fixtures';
import { PAID_ORDER, paidReceipt } from './receipt-fixtures';

const FIXTURES = resolve(__dirname, '../../fixtures');
/** The printed lines from the first rule to the payment line: the sale's lines, the total and the tenders. */
function body(bytes: Buffer): string[] {
  const lines = escposText(bytes);
  const from = lines.findIndex((l) => l.startsWith('---'));
  const to = lines.findIndex((l) => l.startsWith('Payment '));
  return lines.slice(from + 1, to + 1);
}
const labels = (bytes: Buffer) => escposText(bytes).map((l) => l.split(/\s{2,}/)[0]);
/** A label and its value across a line of `cols` characters, as the printer sets a pair. */
const pair = (label: string, value: string, cols: number) => label + value.padStart(cols - label.length);

describe('a sale before baskets', () => {
  it('prints exactly as before baskets: the same ESC/POS bytes and the same HTML (captured before the change)', () => {
    const r = paidReceipt();
    expect(escposOf(receiptDoc(r), '80').equals(readFileSync(`${FIXTURES}/escpos/receipt-paid-80.bin`))).toBe(true);
    expect(htmlFragmentOf(receiptDoc(r), '80') + '\n').toBe(
      readFileSync(`${FIXTURES}/receipts/receipt-paid-80.html`, 'utf8'),
    );
  });

  it('held as a basket of one ticket type by card, and a receipt journaled before baskets, print the same', () => {
    const before = escposOf(receiptDoc(paidReceipt()), '58');
    const asBasket = receiptOf({ ...PAID_ORDER, basket: soldBasketOf(PAID_ORDER) });
    expect(escposOf(receiptDoc(asBasket), '58').equals(before)).toBe(true);
    // A print job's receipt from before baskets has no basket: it renders as it did.
    const { basket: _b, soldAt: _s, ...journaled } = paidReceipt();
    expect(escposOf(receiptDoc(ReceiptSchema.parse(journaled)), '58').equals(before)).toBe(true);
  });

  it('a basket of one ticket type by card says the type, as a programme sale of that type did', () => {
    const one = basketOrder({
      tickets: {
        ...MIXED.tickets!,
        seats: [
          { seat: 'F7', ticketType: 'Adult' },
          { seat: 'F8', ticketType: 'Adult' },
        ],
      },
      tender: { kind: 'card' },
    });
    expect(body(escposOf(receiptDoc(receiptOf(one)), '80'))).toEqual([
      'Avengers: Doomsday',
      'Film                                 AVENGERS-2D',
      'Show                     Sat, 21 Nov 2026, 19:30',
      'Seats                                     F7, F8',
      '2 x Adult N4,500.00                    N9,000.00',
      'Booking fee 2 x N200.00                  N400.00',
      '================================================',
      'TOTAL PAID                             N9,400.00',
      'Payment                                     PAID',
    ]);
  });
});

describe('the receipt of a basket', () => {
  it('2 Adult + 1 Child, a combo with a Fanta, 2 water, ₦5,000 cash and the rest by card: every line, both parts', () => {
    const order = basketOrder({ ...MIXED, tender: { kind: 'split', cashKobo: 500_000 } });
    expect(order.amountKobo).toBe(1_140_000); // the order's amount is the card part
    const bytes = escposOf(receiptDoc(receiptOf(order)), '80');
    expect(body(bytes)).toEqual([
      'Avengers: Doomsday',
      'Film                                 AVENGERS-2D',
      'Show                     Sat, 21 Nov 2026, 19:30',
      '2 x Adult N4,500.00                    N9,000.00',
      '  Seats F7, F8',
      '1 x Child N3,000.00                    N3,000.00',
      '  Seat F9',
      'Booking fee 3 x N200.00                  N600.00',
      '------------------------------------------------',
      '1 x Popcorn combo N3,000.00            N3,000.00',
      '  Popcorn: Popcorn large',
      '  Drink: Fanta 50cl',
      '2 x Water 75cl N400.00                   N800.00',
      '================================================',
      'TOTAL PAID                            N16,400.00',
      'Cash part                              N5,000.00',
      'Card part                             N11,400.00',
      'Payment                                     PAID',
    ]);
    // The card part went through the provider: its numbers are on the receipt.
    expect(labels(bytes)).toEqual(
      expect.arrayContaining(['Provider order no.', 'Payment no.', 'Card / account', 'Terminal']),
    );
  });

  it('a split with more cash handed over than its cash part: the cash tendered and the change in large type', () => {
    const order = basketOrder({ ...MIXED, tender: { kind: 'split', cashKobo: 500_000, tenderedKobo: 600_000 } });
    const lines = escposLines(escposOf(receiptDoc(receiptOf(order)), '58'));
    const text = lines.map((l) => l.text);
    const at = text.indexOf(pair('Cash part', 'N5,000.00', 32));
    expect(text.slice(at, at + 4)).toEqual([
      pair('Cash part', 'N5,000.00', 32),
      pair('Cash tendered', 'N6,000.00', 32),
      pair('Card part', 'N11,400.00', 32),
      pair('CHANGE', 'N1,000.00', 32),
    ]);
  });

  it('cash with change: the cash tendered, the change big and bold, and no provider or terminal fields at all', () => {
    const order = basketOrder({
      tickets: { ...MIXED.tickets!, seats: [{ seat: 'F7', ticketType: 'Adult' }] },
      concessions: [{ code: 'POPS', quantity: 1 }],
      tender: { kind: 'cash', tenderedKobo: 1_000_000 },
    });
    expect(order).toMatchObject({ amountKobo: 0, sn: '' });
    const r = receiptOf(order);
    const bytes = escposOf(receiptDoc(r), '58');
    expect(body(bytes)).toEqual([
      'Avengers: Doomsday',
      'Film                 AVENGERS-2D',
      'Show     Sat, 21 Nov 2026, 19:30',
      '1 x Adult N4,500.00    N4,500.00',
      '  Seat F7',
      'Booking fee              N200.00',
      '--------------------------------',
      '1 x Popcorn small N1,500.00',
      '                       N1,500.00',
      '================================',
      'TOTAL PAID             N6,200.00',
      'Cash tendered         N10,000.00',
      'CHANGE                 N3,800.00',
      'Payment                     PAID',
    ]);
    // The change is printed bold (ESC E 1) and double height (GS ! 0x01), like the total.
    expect(bytes.includes(Buffer.from([0x1b, 0x45, 1, 0x1d, 0x21, 0x01, ...Buffer.from('CHANGE')]))).toBe(true);
    const l = labels(bytes);
    for (const none of ['Provider order no.', 'Payment no.', 'Card / account', 'Terminal'])
      expect(l).not.toContain(none);
    expect(escposText(bytes)).toContain('Paid at    21 Nov 2026, 19:01:11'); // when it was made: paid at once
    expect(r.qrText).toBe('C1-261121-0042');
    const html = htmlFragmentOf(receiptDoc(r), '58');
    expect(html).toContain(
      '<div class="rp-pair rp-total"><span class="rp-label">CHANGE</span><span class="rp-value">₦3,800.00</span></div>',
    );
    expect(html).not.toMatch(/Terminal|Provider order|Payment no\.|Card \/ account/);
    expect(html).not.toMatch(/<span class="rp-value"><\/span>/); // no blank values anywhere
  });

  it('concessions only: a receipt (not a ticket receipt) with no film, no show and no booking fee', () => {
    const order = basketOrder({ concessions: [{ code: 'NACHO', quantity: 3 }], tender: { kind: 'card' } });
    expect(order.sale).toMatchObject({ filmName: '', tickets: 0 });
    const bytes = escposOf(receiptDoc(receiptOf(order)), '80');
    expect(escposText(bytes)).toContain('Receipt');
    expect(escposText(bytes)).not.toContain('Ticket receipt');
    expect(body(bytes)).toEqual([
      '3 x Nachos with cheese N2,000.00       N6,000.00',
      '================================================',
      'TOTAL PAID                             N6,000.00',
      'Card                                   N6,000.00',
      'Payment                                     PAID',
    ]);
  });

  it('a split whose card part failed is a payment slip that says to hand back the cash part', () => {
    const order = basketOrder(
      { ...MIXED, tender: { kind: 'split', cashKobo: 500_000 } },
      { state: 'failed', payNo: undefined, completedTime: undefined, reason: 'Declined by the bank' },
    );
    const text = escposText(escposOf(receiptDoc(receiptOf(order)), '80')).join(' ');
    expect(text).toContain('Payment slip (not a ticket)');
    expect(text).toContain('NOT PAID');
    expect(text).toContain('The card part was not paid: hand back the cash part N5,000.00, or sell the basket again.');
  });

  it('keeps every printed line within the paper: 32 columns on 58 mm, 48 on 80 mm', () => {
    const orders = [
      basketOrder({ ...MIXED, tender: { kind: 'split', cashKobo: 500_000, tenderedKobo: 600_000 } }),
      basketOrder({ ...MIXED, tender: { kind: 'cash', tenderedKobo: 2_000_000 } }),
    ];
    for (const [paper, cols, small] of [
      ['58', 32, 42],
      ['80', 48, 64],
    ] as const)
      for (const o of orders)
        for (const l of escposLines(escposOf(receiptDoc(receiptOf(o)), paper)))
          expect(l.text.length, `"${l.text}"`).toBeLessThanOrEqual(l.small ? small : l.wide ? cols / 2 : cols);
  });
});
