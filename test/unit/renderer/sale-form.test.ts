// The Sell form's arithmetic and checks: naira typed as text becomes exact kobo, seats set the
// ticket count, a remembered film fills its price, and every problem is named by its field.
import { describe, expect, it } from 'vitest';
import {
  checkDraft,
  editDraft,
  emptyDraft,
  nairaInput,
  tidyTime,
  type FilmMemory,
  type SaleDraft,
} from '../../../renderer/src/stores/sale-form';

const FILMS: FilmMemory[] = [
  {
    filmName: 'AVENGERS-2D',
    filmTitle: 'Avengers: Doomsday',
    priceKobo: 250_050,
    bookingFeePerTicketKobo: 20_000,
    lastShowTime: '19:30',
  },
];
const good: SaleDraft = {
  filmName: 'AVENGERS-2D',
  filmTitle: 'Avengers',
  showDate: '2025-03-31',
  showTime: '19:30',
  seats: 'f7, F8',
  tickets: '2',
  price: '2,500.50',
  fee: '200',
};

describe('checkDraft', () => {
  it('turns typed naira into exact kobo and totals tickets x (price + booking fee per ticket)', () => {
    const r = checkDraft(good, 'DEMO-POS-0001');
    expect(r.errors).toEqual({});
    // The fee is typed per ticket (as the programme has it); the sale carries it for both tickets.
    expect(r.input).toMatchObject({ priceKobo: 250_050, bookingFeeKobo: 40_000, tickets: 2, sn: 'DEMO-POS-0001' });
    expect(r.ticketsKobo).toBe(500_100);
    expect(r.bookingFeeKobo).toBe(40_000);
    expect(r.totalKobo).toBe(540_100);
  });

  it('the booking fee follows the ticket count, and a per-ticket fee too large for the sale is said on the fee', () => {
    expect(checkDraft({ ...good, seats: 'F7,F8,F9', tickets: '3' }, 'SN-123456').totalKobo).toBe(
      3 * 250_050 + 3 * 20_000,
    );
    const big = checkDraft({ ...good, fee: '6000000' }, 'SN-123456');
    expect(big.input).toBeNull();
    expect(big.errors.fee).toMatch(/booking fee looks wrong/);
  });

  it('names each bad field by its draft key, money errors included', () => {
    const r = checkDraft(
      { ...good, price: '25,00.5x', fee: '-1', seats: 'F7,,F8', showTime: '25:00' },
      'DEMO-POS-0001',
    );
    expect(r.input).toBeNull();
    expect(r.errors.price).toMatch(/is not an amount in naira/);
    expect(r.errors.fee).toMatch(/is not an amount in naira/);
    expect(r.errors.seats).toMatch(/missing between commas/);
    expect(r.errors.showTime).toMatch(/HH:mm/);
    expect(r.totalKobo).toBeNull();
  });

  it('an empty fee means no fee; an empty price is asked for', () => {
    expect(checkDraft({ ...good, fee: '' }, 'SN-123456').input?.bookingFeeKobo).toBe(0);
    expect(checkDraft({ ...good, price: '' }, 'SN-123456').errors.price).toBe('Enter the ticket price');
  });

  it('refuses a sale without a terminal, and seats that do not match the tickets', () => {
    expect(checkDraft(good, null).errors.sn).toMatch(/No terminal yet/);
    expect(checkDraft({ ...good, tickets: '3' }, 'SN-123456').errors.seats).toMatch(/2 seats listed for 3 tickets/);
    expect(checkDraft({ ...good, tickets: '1.5' }, 'SN-123456').errors.tickets).toBeDefined();
  });
});

describe('editDraft', () => {
  it('keeps the ticket count in step with the seats typed', () => {
    let d = emptyDraft('2025-03-31', '19:30');
    d = editDraft(d, 'seats', 'F7', FILMS);
    expect(d.tickets).toBe('1');
    d = editDraft(d, 'seats', 'F7,F8,', FILMS);
    expect(d.tickets).toBe('2');
  });

  it('a known film (any case) fills its title, price and fee as a cashier would type them', () => {
    const d = editDraft(emptyDraft(), 'filmName', 'avengers-2d', FILMS);
    expect(d).toMatchObject({ filmName: 'AVENGERS-2D', filmTitle: 'Avengers: Doomsday', price: '2500.50', fee: '200' });
    expect(editDraft(emptyDraft(), 'filmName', 'AVENGERS', FILMS).price).toBe('');
  });
});

describe('small helpers', () => {
  it('nairaInput drops .00 only', () => {
    expect(nairaInput(250_000)).toBe('2500');
    expect(nairaInput(250_050)).toBe('2500.50');
  });
  it('tidyTime reads quick times and leaves the rest alone', () => {
    expect(tidyTime('1930')).toBe('19:30');
    expect(tidyTime('7:30')).toBe('07:30');
    expect(tidyTime('7.05')).toBe('07:05');
    expect(tidyTime('2530')).toBe('2530');
    expect(tidyTime('evening')).toBe('evening');
  });
});
