// The Sell form's memory of films: the last price and booking fee per ticket per film; films
// remembered when the typed fee was for the whole sale are offered without a fee (never misread).
import { describe, expect, it } from 'vitest';
import type { OrderView } from '../../../shared/orders';
import { createSaleMemory, nextShowTime } from '../../../core/orders/sale-memory';
import { memoryStore } from '../../../core/settings/kv-store';

const paid = (filmName: string, bookingFeeKobo: number, seats = 'F7'): OrderView => {
  const tickets = seats.split(',').length;
  return {
    id: 1,
    outOrderNo: 'CP-1',
    state: 'paid',
    amountKobo: tickets * 150_000 + bookingFeeKobo,
    sn: 'DEMO-POS-0001',
    createdAt: 0,
    expiresAt: 0,
    attempts: 1,
    providerFeeKobo: 750,
    sale: {
      filmName,
      filmTitle: `${filmName} (2D)`,
      showDate: '2026-11-21',
      showTime: '19:30',
      seats,
      tickets,
      priceKobo: 150_000,
      bookingFeeKobo,
      sn: 'DEMO-POS-0001',
    },
  };
};

describe('sale memory', () => {
  it('remembers the booking fee per ticket of the last sale of each film (never the provider’s fee), newest first', () => {
    const memory = createSaleMemory(memoryStore());
    memory.remember(paid('DUNE', 10_000));
    memory.remember(paid('AVATAR', 0));
    memory.remember(paid('dune', 40_000, 'F7,F8'));
    expect(memory.films().map((f) => [f.filmName, f.bookingFeePerTicketKobo])).toEqual([
      ['dune', 20_000],
      ['AVATAR', 0],
    ]);
  });

  it('a stored sale whose fee does not divide over its tickets (typed for the whole sale, before) offers no fee', () => {
    const memory = createSaleMemory(memoryStore());
    memory.remember(paid('DUNE', 50_000, 'F7,F8,F9'));
    expect(memory.films()[0]).toEqual({
      filmName: 'DUNE',
      filmTitle: 'DUNE (2D)',
      priceKobo: 150_000,
      lastShowTime: '19:30',
    });
  });

  it('films remembered when the fee was for the whole sale (feeKobo, bookingFeeKobo) keep title and price but offer no fee; unreadable entries are skipped', () => {
    const store = memoryStore({
      films: [
        { filmName: 'DUNE', filmTitle: 'Dune', priceKobo: 300_000, feeKobo: 15_000, lastShowTime: '21:00' },
        { filmName: 'AVATAR', filmTitle: 'Avatar', priceKobo: 250_000, bookingFeeKobo: 40_000, lastShowTime: null },
        { filmName: 7 },
        'x',
      ],
    });
    expect(createSaleMemory(store).films()).toEqual([
      { filmName: 'DUNE', filmTitle: 'Dune', priceKobo: 300_000, lastShowTime: '21:00' },
      { filmName: 'AVATAR', filmTitle: 'Avatar', priceKobo: 250_000, lastShowTime: null },
    ]);
  });

  it('offers the next half hour in Lagos', () => {
    expect(nextShowTime(Date.UTC(2026, 10, 21, 17, 10))).toBe('18:30');
  });
});
