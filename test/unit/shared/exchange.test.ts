// The money of an exchange (shared/exchange.ts): the credit of the moved tickets from the sale's
// basket lines, the difference, the new sale's tender, and the new sale's amounts with the credit
// (basketAmounts): only the difference is cash or card, so the ledger counts only it as new money.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { basketAmounts, type BasketLine } from '../../../shared/basket';
import { soldBasketOf } from '../../../shared/basket-sale';
import { exchangeCredit, exchangeMoney, exchangeTender } from '../../../shared/exchange';
import { HubSoldBasketSchema } from '../../../shared/hub-basket-contract';

const tickets = (ticketType: string, seats: string[], unitKobo: number, feePerTicketKobo: number): BasketLine => ({
  kind: 'tickets',
  ticketType,
  seats,
  quantity: seats.length,
  unitKobo,
  feePerTicketKobo,
  amountKobo: unitKobo * seats.length,
  bookingFeeKobo: feePerTicketKobo * seats.length,
});

const SOLD = {
  lines: [
    tickets('Adult', ['F7', 'F8'], 500_000, 10_000),
    tickets('Child', ['F9'], 300_000, 10_000),
    {
      kind: 'item' as const,
      code: 'WATER',
      name: 'Water',
      category: 'Drinks',
      quantity: 2,
      unitKobo: 40_000,
      amountKobo: 80_000,
      chosen: [],
    },
  ],
};

describe('the credit of the moved tickets', () => {
  it('is each seat’s unit price and booking fee per ticket, as its line recorded them', () => {
    const r = exchangeCredit(SOLD, ['F8', 'f9']);
    expect(r.ok && r.creditKobo).toBe(510_000 + 310_000);
    expect(r.ok && [...r.types]).toEqual([
      ['F8', 'Adult'],
      ['F9', 'Child'],
    ]);
  });

  it('names the seats the sale does not hold', () => {
    expect(exchangeCredit(SOLD, ['F7', 'A1', 'B2'])).toEqual({ ok: false, missing: ['A1', 'B2'] });
  });

  it('reads a sale made before baskets as one Ticket line (its fee split per ticket)', () => {
    const old = soldBasketOf({ sale: { seats: 'A1,A2', tickets: 2, priceKobo: 200_000, bookingFeeKobo: 20_000 } });
    const r = exchangeCredit(old, ['A2']);
    expect(r.ok && r.creditKobo).toBe(210_000);
  });
});

describe('the difference and the tender of the new sale', () => {
  it('higher: the difference is paid by card or in cash (at least the difference tendered); a split is not offered', () => {
    const m = exchangeMoney(510_000, 710_000);
    expect(m).toEqual({
      creditKobo: 510_000,
      newTotalKobo: 710_000,
      differenceKobo: 200_000,
      toPayKobo: 200_000,
      refundKobo: 0,
    });
    expect(exchangeTender(m, { kind: 'card' })).toEqual({ ok: true, tender: { kind: 'card' } });
    expect(exchangeTender(m, { kind: 'cash', tenderedKobo: 500_000 })).toEqual({
      ok: true,
      tender: { kind: 'cash', tenderedKobo: 500_000 },
    });
    const short = exchangeTender(m, { kind: 'cash', tenderedKobo: 100_000 });
    expect(short.ok || short.message).toBe(
      '₦1,000.00 tendered is less than the difference of ₦2,000.00: take at least ₦2,000.00, or pay by card',
    );
    expect(exchangeTender(m, undefined).ok).toBe(false);
    expect(exchangeTender(m, { kind: 'split', cashKobo: 100_000 }).ok).toBe(false);
  });

  it('lower: the rest is a refund owed, nothing is paid (a cash sale of ₦0.00 whatever tender was asked)', () => {
    const m = exchangeMoney(710_000, 510_000);
    expect(m).toMatchObject({ differenceKobo: -200_000, toPayKobo: 0, refundKobo: 200_000 });
    expect(exchangeTender(m, { kind: 'card' })).toEqual({ ok: true, tender: { kind: 'cash', tenderedKobo: 0 } });
  });

  it('equal: nothing paid, nothing owed', () => {
    const m = exchangeMoney(510_000, 510_000);
    expect(m).toMatchObject({ toPayKobo: 0, refundKobo: 0 });
    expect(exchangeTender(m, undefined)).toEqual({ ok: true, tender: { kind: 'cash', tenderedKobo: 0 } });
  });
});

describe('the new sale’s amounts with the credit', () => {
  const lines = [tickets('VIP', ['A1'], 700_000, 10_000)];

  it('by card: the card part is the difference; the total stays the new tickets’ price', () => {
    expect(basketAmounts(lines, { kind: 'card' }, 510_000)).toEqual({
      ticketsKobo: 700_000,
      bookingFeeKobo: 10_000,
      concessionsKobo: 0,
      totalKobo: 710_000,
      cashKobo: 0,
      cardKobo: 200_000,
      tenderedKobo: 0,
      changeKobo: 0,
      creditKobo: 510_000,
    });
  });

  it('in cash: the cash part is the difference, the change from what was tendered', () => {
    expect(basketAmounts(lines, { kind: 'cash', tenderedKobo: 500_000 }, 510_000)).toMatchObject({
      cashKobo: 200_000,
      cardKobo: 0,
      changeKobo: 300_000,
      creditKobo: 510_000,
    });
  });

  it('a credit above the price pays all of it (the rest is the refund owed, not here)', () => {
    expect(basketAmounts(lines, { kind: 'cash', tenderedKobo: 0 }, 900_000)).toMatchObject({
      totalKobo: 710_000,
      cashKobo: 0,
      cardKobo: 0,
      changeKobo: 0,
      creditKobo: 710_000,
    });
  });

  it('without a credit, the amounts are exactly as before (no creditKobo key)', () => {
    expect(Object.keys(basketAmounts(lines, { kind: 'card' }))).not.toContain('creditKobo');
  });

  it('the Hub accepts a new sale with its credit, and refuses one whose credit does not match its parts', () => {
    const amounts = basketAmounts(lines, { kind: 'card' }, 510_000);
    expect(HubSoldBasketSchema.safeParse({ lines, tender: { kind: 'card' }, amounts }).success).toBe(true);
    const lie = { ...amounts, creditKobo: 0 };
    expect(HubSoldBasketSchema.safeParse({ lines, tender: { kind: 'card' }, amounts: lie }).success).toBe(false);
  });

  it('new money (cash + card parts) plus the credit is always the total, the credit never above it', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2_000_000 }),
        fc.integer({ min: 0, max: 50_000 }),
        fc.integer({ min: 0, max: 5_000_000 }),
        fc.boolean(),
        (unit, fee, credit, cash) => {
          const l = [tickets('Adult', ['A1'], unit, fee)];
          const m = exchangeMoney(credit, unit + fee);
          const t = exchangeTender(m, cash ? { kind: 'cash', tenderedKobo: m.toPayKobo } : { kind: 'card' });
          if (!t.ok) return false;
          const a = basketAmounts(l, t.tender, credit);
          return (
            a.cashKobo + a.cardKobo + (a.creditKobo ?? 0) === a.totalKobo &&
            a.cashKobo + a.cardKobo === m.toPayKobo &&
            (a.creditKobo ?? 0) <= a.totalKobo &&
            (credit === 0 || a.creditKobo === Math.min(credit, a.totalKobo))
          );
        },
      ),
    );
  });
});
