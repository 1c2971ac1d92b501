// A basket at the provider's edge: amount is the card part, productInfo the film part, the rest in
// a short ASCII remark within its limit; one ticket type by card sends exactly today's fields.
import { describe, expect, it } from 'vitest';
import { productInfoFor } from '../../../core/orders/sale-wire';
import type { BasketInput } from '../../../shared/basket';
import { checkBasket } from '../../../shared/basket-check';
import { DEMO_CATALOGUE, type Catalogue } from '../../../shared/catalogue';
import { SaleInputSchema, saleAmounts } from '../../../shared/orders';
import { REMARK_MAX_CHARS, basketRemark, providerOrderFor } from '../../../shared/provider-order';
import type { TicketType } from '../../../shared/programme';
import { createRng } from '../../helpers/chaos-random';

const SHOW = { filmName: 'Dune 2', filmTitle: 'DUNE: PART TWO', showDate: '2026-12-07', showTime: '19:30' };
const TYPES: TicketType[] = [
  { name: 'Adult', priceKobo: 450_000, bookingFeeKobo: 20_000 },
  { name: 'Child', priceKobo: 300_000, bookingFeeKobo: 20_000 },
  { name: 'VIP Récliner', priceKobo: 800_000, bookingFeeKobo: 0 },
];
const CATALOGUE: Catalogue = { ...DEMO_CATALOGUE, items: DEMO_CATALOGUE.items.map(({ stock: _s, ...i }) => i) };

function checked(input: BasketInput, ticketTypes: readonly TicketType[] = TYPES) {
  const r = checkBasket(input, { ticketTypes, catalogue: CATALOGUE });
  if (!r.ok) throw new Error(r.problems.map((p) => p.message).join('; '));
  return r;
}

describe('providerOrderFor', () => {
  it('sends exactly today’s amount and productInfo, and no remark, for one ticket type by card (random sales)', () => {
    const rng = createRng(3839);
    for (let round = 0; round < 500; round++) {
      const tickets = rng.int(1, 50);
      const type = { name: 'Adult', priceKobo: rng.int(1, 1_000_000_000), bookingFeeKobo: rng.int(0, 100_000) };
      const seats = Array.from({ length: tickets }, (_, i) => `${'ABCDEFGH'[rng.int(0, 7)]}${i + 1}`);
      const order = providerOrderFor(
        checked(
          {
            tickets: { ...SHOW, seats: seats.map((seat) => ({ seat, ticketType: 'Adult' })) },
            tender: { kind: 'card' },
          },
          [type],
        ),
      );
      const sale = SaleInputSchema.parse({
        ...SHOW,
        seats: seats.join(','),
        tickets,
        priceKobo: type.priceKobo,
        bookingFeeKobo: tickets * type.bookingFeeKobo,
        sn: 'PB0123456789',
      });
      expect(order).toEqual({ amountKobo: saleAmounts(sale).amountKobo, productInfo: productInfoFor(sale) });
    }
  });

  it('sends the card part as amount, the whole film part as productInfo and the rest as remark', () => {
    const order = providerOrderFor(
      checked({
        tickets: {
          ...SHOW,
          seats: [
            { seat: 'F7', ticketType: 'Adult' },
            { seat: 'F8', ticketType: 'Adult' },
            { seat: 'F9', ticketType: 'Child' },
          ],
        },
        concessions: [
          { code: 'CMB1', quantity: 1, choices: { Drink: 'FANTA' } },
          { code: 'WATER', quantity: 2 },
        ],
        tender: { kind: 'split', cashKobo: 500_000 },
      }),
    );
    expect(order).toEqual({
      amountKobo: 1_140_000,
      productInfo: {
        filmName: 'Dune 2',
        filmTitle: 'DUNE: PART TWO',
        filmTicketNum: '3',
        seatNum: 'F7,F8,F9',
        filmTicketAmount: '12000.00',
        filmFeeAmount: '600.00',
        filmDate: '2026-12-07',
        filmTime: '19:30',
      },
      remark: 'T 2xAdult 1xChild; C 1xCMB1(FANTA) 2xWATER =3800.00; CASH 5000.00',
    });
  });

  it('sends no productInfo for concessions alone, and nothing at all for a cash sale', () => {
    expect(
      providerOrderFor(checked({ concessions: [{ code: 'POPS', quantity: 3 }], tender: { kind: 'card' } })),
    ).toEqual({
      amountKobo: 450_000,
      remark: 'C 3xPOPS =4500.00',
    });
    expect(
      providerOrderFor(
        checked({ concessions: [{ code: 'POPS', quantity: 3 }], tender: { kind: 'cash', tenderedKobo: 450_000 } }),
      ),
    ).toBeNull();
  });

  it('writes ticket types in ASCII and names several types even without concessions', () => {
    const r = checked({
      tickets: {
        ...SHOW,
        seats: [
          { seat: 'M5', ticketType: 'vip récliner' },
          { seat: 'M6', ticketType: 'Adult' },
        ],
      },
      tender: { kind: 'card' },
    });
    expect(providerOrderFor(r)?.remark).toBe('T 1xVIP-Recliner 1xAdult');
  });
});

describe('basketRemark', () => {
  it('stays within its limit, in ASCII, keeping the concessions total, over random baskets', () => {
    const rng = createRng(3840);
    const codes = ['POPS', 'POPL', 'FANTA', 'COKE', 'WATER', 'NACHO', 'CMB1'];
    for (let round = 0; round < 500; round++) {
      const concessions = Array.from({ length: rng.int(1, 40) }, () => {
        const code = codes[rng.int(0, codes.length - 1)]!;
        return { code, quantity: rng.int(1, 99), ...(code === 'CMB1' ? { choices: { Drink: 'COKE' } } : {}) };
      });
      const seats = Array.from({ length: rng.int(0, 50) }, (_, i) => ({
        seat: `K${i + 1}`,
        ticketType: TYPES[rng.int(0, 2)]!.name,
      }));
      const r = checked({
        ...(seats.length > 0 ? { tickets: { ...SHOW, seats } } : {}),
        concessions,
        tender: { kind: 'split', cashKobo: 100 },
      });
      const max = rng.weighted([
        [64, 1],
        [REMARK_MAX_CHARS, 3],
        [255, 1],
      ]);
      const remark = basketRemark(r.lines, r.amounts, max)!;
      expect(remark.length).toBeLessThanOrEqual(max);
      expect(remark).toMatch(/^[\x20-\x7e]+$/);
      expect(remark).toContain(`=${(r.amounts.concessionsKobo / 100).toFixed(2)}`);
      expect(remark.endsWith('; CASH 1.00')).toBe(true);
      // Every concession line is either shown or counted in "+N more".
      const c = remark.split('; ').find((p) => p.startsWith('C '))!;
      const words = c.split(' ').slice(1, -1);
      const more = words.at(-1) === 'more' ? Number(words.at(-2)!.slice(1)) : 0;
      expect(words.length - (more > 0 ? 2 : 0) + more).toBe(concessions.length);
    }
  });

  it('gives way line by line: "+N more" first, then the tickets by count', () => {
    const r = checked({
      concessions: Array.from({ length: 30 }, (_, i) => ({ code: i % 2 ? 'NACHO' : 'POPL', quantity: 10 + i })),
      tender: { kind: 'card' },
    });
    const remark = basketRemark(r.lines, r.amounts)!;
    expect(remark).toMatch(/^C 10xPOPL 11xNACHO 12xPOPL .* \+\d+ more =\d+\.00$/);
    expect(remark.length).toBeLessThanOrEqual(REMARK_MAX_CHARS);
    expect(() => basketRemark(r.lines, r.amounts, 63)).toThrow(RangeError);
  });
});
