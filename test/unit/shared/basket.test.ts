// The basket: its amounts in kobo (one ticket type by card is exactly today's sale), the tenders
// (card, cash and change, split), and every rule, each problem naming its line and what to fix.
import { describe, expect, it } from 'vitest';
import { basketAmounts, itemsTaken, type BasketInput, type Tender } from '../../../shared/basket';
import { checkBasket, type BasketCheck } from '../../../shared/basket-check';
import { DEMO_CATALOGUE, type Catalogue } from '../../../shared/catalogue';
import { demoProgramme } from '../../../shared/demo-programme';
import { bookingFeeForSale, saleAmounts } from '../../../shared/orders';
import type { TicketType } from '../../../shared/programme';
import { createRng } from '../../helpers/chaos-random';

const DUNE = demoProgramme('2026-12-07', '2026-12-08').shows.find((s) => s.film === 'Dune 2' && s.time === '19:30')!;
const SHOW = { filmName: 'Dune 2', filmTitle: 'DUNE: PART TWO', showDate: '2026-12-07', showTime: '19:30' };
const CTX = { ticketTypes: DUNE.ticketTypes, catalogue: DEMO_CATALOGUE };

function ok(check: BasketCheck) {
  if (!check.ok) throw new Error(`expected a good basket: ${check.problems.map((p) => p.message).join('; ')}`);
  return check;
}
function problems(input: unknown, ctx: Parameters<typeof checkBasket>[1] = CTX): string[] {
  const r = checkBasket(input, ctx);
  return r.ok ? [] : r.problems.map((p) => `${p.path.join('.')}: ${p.message}`);
}
const seats = (...pairs: [string, string][]) => pairs.map(([seat, ticketType]) => ({ seat, ticketType }));

describe('basketAmounts', () => {
  it('is today’s saleAmounts for one ticket type paid by card, over random sales', () => {
    const rng = createRng(3838);
    for (let round = 0; round < 2_000; round++) {
      const tickets = rng.int(1, 50);
      const type: TicketType = {
        name: 'Adult',
        priceKobo: rng.weighted([
          [rng.int(1, 1_000), 1],
          [rng.int(1, 1_000_000_000), 3],
        ]),
        bookingFeeKobo: rng.chance(0.3) ? 0 : rng.int(0, 1_000_000_000),
      };
      const r = ok(
        checkBasket(
          {
            tickets: {
              ...SHOW,
              seats: Array.from({ length: tickets }, (_, i) => ({ seat: `F${i + 1}`, ticketType: 'adult' })),
            },
            tender: { kind: 'card' },
          },
          { ticketTypes: [type] },
        ),
      );
      const today = saleAmounts({
        tickets,
        priceKobo: type.priceKobo,
        bookingFeeKobo: bookingFeeForSale(tickets, type.bookingFeeKobo),
      });
      expect(r.amounts).toEqual({
        ticketsKobo: today.ticketsKobo,
        bookingFeeKobo: today.bookingFeeKobo,
        concessionsKobo: 0,
        totalKobo: today.amountKobo,
        cashKobo: 0,
        cardKobo: today.amountKobo,
        tenderedKobo: 0,
        changeKobo: 0,
      });
      expect(r.lines).toHaveLength(1);
      expect(r.lines[0]).toMatchObject({ kind: 'tickets', ticketType: 'Adult', quantity: tickets });
    }
  });

  it('prices a whole sale: 2 Adult + 1 Child, a popcorn combo with a Fanta, 2 water; ₦5,000 cash, the rest by card', () => {
    const r = ok(
      checkBasket(
        {
          tickets: { ...SHOW, seats: seats(['f7', 'Adult'], ['F8', 'Adult'], ['F9', 'Child']) },
          concessions: [
            { code: 'cmb1', quantity: 1, choices: { drink: 'fanta' } },
            { code: 'WATER', quantity: 2 },
          ],
          tender: { kind: 'split', cashKobo: 500_000 },
        },
        CTX,
      ),
    );
    expect(r.amounts).toEqual({
      ticketsKobo: 1_200_000,
      bookingFeeKobo: 60_000,
      concessionsKobo: 380_000,
      totalKobo: 1_640_000,
      cashKobo: 500_000,
      cardKobo: 1_140_000,
      tenderedKobo: 500_000,
      changeKobo: 0,
    });
    expect(r.lines).toEqual([
      {
        kind: 'tickets',
        ticketType: 'Adult',
        seats: ['F7', 'F8'],
        quantity: 2,
        unitKobo: 450_000,
        feePerTicketKobo: 20_000,
        amountKobo: 900_000,
        bookingFeeKobo: 40_000,
      },
      {
        kind: 'tickets',
        ticketType: 'Child',
        seats: ['F9'],
        quantity: 1,
        unitKobo: 300_000,
        feePerTicketKobo: 20_000,
        amountKobo: 300_000,
        bookingFeeKobo: 20_000,
      },
      {
        kind: 'combo',
        code: 'CMB1',
        name: 'Popcorn combo',
        category: 'Combos',
        quantity: 1,
        unitKobo: 300_000,
        amountKobo: 300_000,
        chosen: [
          { component: 'Popcorn', code: 'POPL', name: 'Popcorn large', choice: false },
          { component: 'Drink', code: 'FANTA', name: 'Fanta 50cl', choice: true },
        ],
      },
      {
        kind: 'item',
        code: 'WATER',
        name: 'Water 75cl',
        category: 'Drinks',
        quantity: 2,
        unitKobo: 40_000,
        amountKobo: 80_000,
        chosen: [],
      },
    ]);
    expect(itemsTaken(r.lines)).toEqual(
      new Map([
        ['POPL', 1],
        ['FANTA', 1],
        ['WATER', 2],
      ]),
    );
  });

  it('gives the change for cash, and sells concessions alone (no show)', () => {
    const r = ok(
      checkBasket(
        { concessions: [{ code: 'POPS', quantity: 3 }], tender: { kind: 'cash', tenderedKobo: 500_000 } },
        { catalogue: DEMO_CATALOGUE },
      ),
    );
    expect(r.amounts).toMatchObject({ totalKobo: 450_000, cashKobo: 450_000, cardKobo: 0, changeKobo: 50_000 });
    const split = ok(
      checkBasket(
        {
          concessions: [{ code: 'NACHO', quantity: 1 }],
          tender: { kind: 'split', cashKobo: 50_000, tenderedKobo: 100_000 },
        },
        { catalogue: DEMO_CATALOGUE },
      ),
    );
    expect(split.amounts).toMatchObject({
      totalKobo: 200_000,
      cashKobo: 50_000,
      cardKobo: 150_000,
      changeKobo: 50_000,
    });
  });

  it('keeps cash + card = total and change = tendered − cash over random baskets', () => {
    const rng = createRng(38);
    const codes = [...DEMO_CATALOGUE.items.map((i) => i.code), 'CMB1'];
    const drinks = ['FANTA', 'COKE', 'WATER'];
    let checked = 0;
    for (let round = 0; round < 1_000; round++) {
      const n = rng.int(0, 6);
      const concessions = Array.from({ length: rng.int(n === 0 ? 1 : 0, 8) }, () => {
        const code = codes[rng.int(0, codes.length - 1)]!;
        return {
          code,
          quantity: rng.int(1, 5),
          ...(code === 'CMB1' ? { choices: { Drink: drinks[rng.int(0, 2)]! } } : {}),
        };
      });
      const types = ['Adult', 'Child', 'VIP'];
      const tickets =
        n === 0
          ? undefined
          : {
              ...SHOW,
              seats: Array.from({ length: n }, (_, i) => ({ seat: `G${i + 1}`, ticketType: types[rng.int(0, 2)]! })),
            };
      const lines = ok(
        checkBasket({ tickets, concessions, tender: { kind: 'card' } }, { ...CTX, catalogue: unlimited }),
      ).lines;
      const total = basketAmounts(lines, { kind: 'card' }).totalKobo;
      expect(total).toBe(lines.reduce((s, l) => s + l.amountKobo + (l.kind === 'tickets' ? l.bookingFeeKobo : 0), 0));
      const tender: Tender = rng.weighted<Tender>([
        [{ kind: 'card' }, 1],
        [{ kind: 'cash', tenderedKobo: total + rng.int(0, 2) * rng.int(0, 1_000_000) }, 1],
        [{ kind: 'split', cashKobo: rng.int(1, total - 1), tenderedKobo: undefined }, 1],
      ]);
      const r = ok(checkBasket({ tickets, concessions, tender }, { ...CTX, catalogue: unlimited }));
      const a = r.amounts;
      expect(a.cashKobo + a.cardKobo).toBe(a.totalKobo);
      expect(a.changeKobo).toBe(a.tenderedKobo - a.cashKobo);
      expect(a.changeKobo).toBeGreaterThanOrEqual(0);
      expect(a.cardKobo).toBe(tender.kind === 'cash' ? 0 : tender.kind === 'card' ? total : total - tender.cashKobo);
      for (const v of Object.values(a)) expect(Number.isSafeInteger(v)).toBe(true);
      checked++;
    }
    expect(checked).toBe(1_000);
  });
});

/** The Demo catalogue without stock counts (random baskets may take any number). */
const unlimited: Catalogue = {
  ...DEMO_CATALOGUE,
  items: DEMO_CATALOGUE.items.map(({ stock: _stock, ...i }) => i),
};

describe('checkBasket', () => {
  const card = { kind: 'card' } as const;
  const withItems = (over: Record<string, Partial<Catalogue['items'][number]>>): Catalogue => ({
    ...DEMO_CATALOGUE,
    items: DEMO_CATALOGUE.items.map((i) => ({ ...i, ...over[i.code] })),
  });

  it('refuses an empty basket', () => {
    expect(problems({ tender: card })).toEqual([': The basket is empty: add tickets or concessions']);
  });

  it('names the seat whose ticket type the show does not have, and a seat listed twice', () => {
    expect(problems({ tickets: { ...SHOW, seats: seats(['F7', 'Senior'], ['F8', 'Adult']) }, tender: card })).toEqual([
      'tickets.seats.0.ticketType: Seat F7: the show has no ticket type "Senior"; choose Adult, Child or VIP',
    ]);
    expect(problems({ tickets: { ...SHOW, seats: seats(['F7', 'Adult'], ['f7', 'Child']) }, tender: card })).toEqual([
      'tickets.seats.1.seat: Seat F7: listed twice; remove one',
    ]);
  });

  it('names the concession line of an unknown code, a sold-out item, a quantity out of bounds', () => {
    const input = (line: object, catalogue = DEMO_CATALOGUE) =>
      problems({ concessions: [{ code: 'POPS', quantity: 1 }, line], tender: card }, { catalogue });
    expect(input({ code: 'CHIPS', quantity: 1 })).toEqual([
      'concessions.1.code: Concessions, line 2: no item or combo has the code CHIPS; check the code',
    ]);
    expect(input({ code: 'COKE', quantity: 1 }, withItems({ COKE: { soldOut: true } }))).toEqual([
      'concessions.1.code: Concessions, line 2 (Coke 50cl): sold out; remove the line',
    ]);
    expect(input({ code: 'WATER', quantity: 1 }, withItems({ WATER: { stock: 0 } }))).toEqual([
      'concessions.1.code: Concessions, line 2 (Water 75cl): sold out; remove the line',
    ]);
    expect(input({ code: 'nacho', quantity: 0 })).toEqual([
      'concessions.1.quantity: Concessions, line 2 (NACHO): The quantity is a whole number from 1 to 99: remove the line to sell none',
    ]);
    expect(input({ code: 'NACHO', quantity: 100 })).toEqual([
      'concessions.1.quantity: Concessions, line 2 (NACHO): At most 99 of one line: add another line for more',
    ]);
    expect(input({ code: 'NACHO', quantity: 1, choices: { Drink: 'COKE' } })).toEqual([
      'concessions.1.choices: Concessions, line 2 (Nachos with cheese): an item has no choices; only a combo does',
    ]);
  });

  it('asks for a combo’s missing choice, refuses a wrong or sold-out one, and a combo whose fixed part is sold out', () => {
    const combo = (choices: Record<string, string>, catalogue = DEMO_CATALOGUE) =>
      problems({ concessions: [{ code: 'CMB1', quantity: 2, choices }], tender: card }, { catalogue });
    expect(combo({})).toEqual([
      'concessions.0.choices.Drink: Concessions, line 1 (Popcorn combo): choose the Drink: Fanta 50cl, Coke 50cl or Water 75cl',
    ]);
    expect(combo({ Drink: 'NACHO' })).toEqual([
      'concessions.0.choices.Drink: Concessions, line 1 (Popcorn combo): NACHO is not a Drink of this combo: choose Fanta 50cl, Coke 50cl or Water 75cl',
    ]);
    expect(combo({ drink: 'COKE' }, withItems({ COKE: { soldOut: true } }))).toEqual([
      'concessions.0.choices.drink: Concessions, line 1 (Popcorn combo): Coke 50cl is sold out: choose another Drink (Fanta 50cl or Water 75cl)',
    ]);
    expect(combo({ Drink: 'COKE' }, withItems({ POPL: { soldOut: true } }))).toEqual([
      'concessions.0.choices.Popcorn: Concessions, line 1 (Popcorn combo): Popcorn large is sold out, and so the combo: remove it',
    ]);
    expect(combo({ Drink: 'COKE', Size: 'POPS' })).toEqual([
      'concessions.0.choices.Size: Concessions, line 1 (Popcorn combo): the combo has no Size to choose; its parts are Popcorn or Drink',
    ]);
    expect(combo({ Drink: 'COKE', Popcorn: 'POPL' })).toEqual([]);
  });

  it('refuses more of a counted item than is left, counting combos and lines together', () => {
    const catalogue = withItems({ WATER: { stock: 3 } });
    const r = problems(
      {
        concessions: [
          { code: 'POPS', quantity: 1 },
          { code: 'CMB1', quantity: 2, choices: { Drink: 'WATER' } },
          { code: 'WATER', quantity: 2 },
        ],
        tender: card,
      },
      { catalogue },
    );
    expect(r).toEqual([
      'concessions.1.quantity: Concessions, line 2 (Popcorn combo): only 3 Water 75cl left and the basket takes 4; sell at most 3',
    ]);
  });

  it('refuses cash below the total, a split with no cash or no card part, and cash tendered below the cash part', () => {
    const b = (tender: object) => problems({ concessions: [{ code: 'POPL', quantity: 2 }], tender });
    expect(b({ kind: 'cash', tenderedKobo: 499_999 })).toEqual([
      'tender.tenderedKobo: ₦4,999.99 tendered is less than the ₦5,000.00 to pay: take at least ₦5,000.00, or split with card',
    ]);
    expect(b({ kind: 'cash', tenderedKobo: 500_000 })).toEqual([]);
    expect(b({ kind: 'split', cashKobo: 0 })).toEqual([
      'tender.cashKobo: Enter the cash part (more than ₦0.00), or take it all by card',
    ]);
    expect(b({ kind: 'split', cashKobo: 500_000 })).toEqual([
      'tender.cashKobo: The cash part ₦5,000.00 covers the whole ₦5,000.00: take it all as cash (a split leaves more than ₦0.00 for the card)',
    ]);
    expect(b({ kind: 'split', cashKobo: 200_000, tenderedKobo: 100_000 })).toEqual([
      'tender.tenderedKobo: ₦1,000.00 tendered is less than the cash part ₦2,000.00: take at least ₦2,000.00',
    ]);
    expect(b({ kind: 'cheque' })).toEqual(['tender.kind: Choose how the customer pays: card, cash or split']);
    expect(b({ kind: 'cash', tenderedKobo: 1.5 })).toEqual([
      'tender.tenderedKobo: The cash tendered must be a whole number of kobo',
    ]);
  });

  it('refuses a field it does not know rather than dropping it', () => {
    const input: BasketInput & { discountKobo: number } = {
      concessions: [{ code: 'POPL', quantity: 1 }],
      tender: card,
      discountKobo: 5,
    };
    expect(problems(input)).toEqual([': Unrecognized key: "discountKobo"']);
  });
});
