// A programme sale's receipt names the screen and the ticket type ("2 × Student ₦2,500.00"), so the
// usher at the door can check it; a show typed by hand keeps "2 tickets × ₦2,500.00".
import { describe, expect, it } from 'vitest';
import { buildReceipt, receiptDoc } from '../../../core/records/receipts/receipt-model';
import { SEATS_UNCHECKED, SEATS_UNCHECKED_REASONS } from '../../../shared/seats';
import { CINEMA, PAID_ORDER, seatMapReceipt } from './receipt-fixtures';

const pairs = (r: ReturnType<typeof buildReceipt>) =>
  receiptDoc(r).blocks.flatMap((b) => (b.t === 'pair' ? [[b.label, b.value]] : []));

describe("a programme sale's receipt", () => {
  it('names the screen and the ticket type', () => {
    const r = buildReceipt({
      order: PAID_ORDER,
      cinema: CINEMA,
      counterName: 'Counter 3',
      cashier: 'Ngozi Eze',
      reprint: false,
      programme: { screen: 'Screen 2', ticketType: 'Student' },
    });
    expect(pairs(r)).toContainEqual(['Screen', 'Screen 2']);
    expect(pairs(r)).toContainEqual(['2 × Student ₦2,500.00', '₦5,000.00']);
  });

  it('a show typed by hand says tickets, and no screen', () => {
    const r = buildReceipt({
      order: PAID_ORDER,
      cinema: CINEMA,
      counterName: 'Counter 3',
      cashier: 'Ngozi Eze',
      reprint: false,
    });
    expect(pairs(r).map(([l]) => l)).not.toContain('Screen');
    expect(pairs(r)).toContainEqual(['2 tickets × ₦2,500.00', '₦5,000.00']);
  });
});

describe("a seat map sale's receipt", () => {
  it('prints the screen, and the row, seat and ticket type of each ticket', () => {
    const p = pairs(seatMapReceipt());
    expect(p).toContainEqual(['Screen', 'Screen 1']);
    expect(p).toContainEqual(['Row M, seat 10', 'VIP']);
    expect(p).toContainEqual(['Row M, seat 11', 'VIP']);
    expect(p.map(([l]) => l)).not.toContain('Seats');
  });

  it('a sale of a seat map show not sold from the programme (a box office) still prints the screen, rows and seats', () => {
    const r = buildReceipt({
      order: {
        ...PAID_ORDER,
        seatHold: { showKey: 'k', screen: 'Screen 4', seats: ['AA3'], outcome: 'unchecked', note: 'x' },
      },
      cinema: CINEMA,
      counterName: 'Counter 3',
      cashier: 'Ngozi Eze',
      reprint: false,
    });
    expect(pairs(r)).toContainEqual(['Screen', 'Screen 4']);
    expect(pairs(r)).toContainEqual(['Row AA, seat 3', 'Ticket']);
  });

  it('a sale sent while the Hub was unreachable prints "Seats not checked across counters (Hub unreachable)" under its seats; no other does', () => {
    const receiptOf = (note: string) =>
      buildReceipt({
        order: {
          ...PAID_ORDER,
          seatHold: { showKey: 'k', screen: 'Screen 1', seats: ['F7'], outcome: 'unchecked', note },
        },
        cinema: CINEMA,
        counterName: 'Counter 3',
        cashier: 'Ngozi Eze',
        reprint: false,
      });
    const small = (r: ReturnType<typeof buildReceipt>) =>
      receiptDoc(r).blocks.flatMap((b) => (b.t === 'small' ? [b.text] : []));
    const away = receiptOf(SEATS_UNCHECKED_REASONS.unreachable);
    expect(away.seatsUnchecked).toBe('Seats not checked across counters (Hub unreachable)');
    expect(small(away)).toContain('Seats not checked across counters (Hub unreachable)');
    const slow = receiptOf(SEATS_UNCHECKED_REASONS.slow);
    expect(slow.seatsUnchecked).toBe(SEATS_UNCHECKED.hubUnreachable);
    // A counter without a Hub: nothing across counters to check, nothing printed.
    const alone = receiptOf(SEATS_UNCHECKED_REASONS.noHub);
    expect(alone.seatsUnchecked).toBeUndefined();
    expect(small(alone).join(' ')).not.toMatch(/not checked across counters/);
  });
});
