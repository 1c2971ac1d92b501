// The Sell form's memory of films: the last price and booking fee per film, and films remembered
// before the booking fee had its own name still offered with their fee.
import { describe, expect, it } from 'vitest';
import type { OrderView } from '../../../shared/orders';
import { createSaleMemory, nextShowTime } from '../../../core/orders/sale-memory';
import { memoryStore } from '../../../core/settings/kv-store';

const paid = (filmName: string, bookingFeeKobo: number): OrderView => ({
  id: 1, outOrderNo: 'CP-1', state: 'paid', amountKobo: 150_000 + bookingFeeKobo, sn: 'DEMO-POS-0001', createdAt: 0, expiresAt: 0, attempts: 1, providerFeeKobo: 750,
  sale: { filmName, filmTitle: `${filmName} (2D)`, showDate: '2026-11-21', showTime: '19:30', seats: 'F7', tickets: 1, priceKobo: 150_000, bookingFeeKobo, sn: 'DEMO-POS-0001' },
});

describe('sale memory', () => {
  it('remembers the booking fee of the last sale of each film (never the provider’s fee), newest first', () => {
    const memory = createSaleMemory(memoryStore());
    memory.remember(paid('DUNE', 10_000));
    memory.remember(paid('AVATAR', 0));
    memory.remember(paid('dune', 20_000));
    expect(memory.films().map((f) => [f.filmName, f.bookingFeeKobo])).toEqual([['dune', 20_000], ['AVATAR', 0]]);
  });

  it('reads films saved under the old name of the booking fee, and skips entries it cannot read', () => {
    const store = memoryStore({ films: [{ filmName: 'DUNE', filmTitle: 'Dune', priceKobo: 300_000, feeKobo: 15_000, lastShowTime: '21:00' }, { filmName: 7 }, 'x'] });
    expect(createSaleMemory(store).films()).toEqual([{ filmName: 'DUNE', filmTitle: 'Dune', priceKobo: 300_000, bookingFeeKobo: 15_000, lastShowTime: '21:00' }]);
  });

  it('offers the next half hour in Lagos', () => {
    expect(nextShowTime(Date.UTC(2026, 10, 21, 17, 10))).toBe('18:30');
  });
});
