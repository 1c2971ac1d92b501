// The outbox does not parse again a basket the engine priced (shared/hub-basket-contract.ts): that
// is sound only if every basket `checkBasket` can make is one the Hub accepts. This proves it for the
// largest baskets the limits allow (50 seats of many ticket types with the longest names and prices,
// 40 combo lines of 10 components with the longest names, the largest quantities), and that the
// outbox still refuses what it must: a marked basket whose order amount is not its card part, and
// any basket the engine did not price.
import { describe, expect, it } from 'vitest';
import { checkBasket } from '../../../shared/basket-check';
import { MAX_CONCESSION_LINES, MAX_LINE_QUANTITY } from '../../../shared/basket';
import type { Catalogue } from '../../../shared/catalogue';
import { HubSoldBasketSchema, isPricedByEngine, markPricedByEngine } from '../../../shared/hub-basket-contract';
import { SYNC_PAYLOADS } from '../../../shared/hub-contract';
import type { SoldBasket } from '../../../shared/basket-sale';
import type { TicketType } from '../../../shared/programme';
import { HubOutbox } from '../../../core/hub-link/outbox';
import { openJournalDb } from '../../../core/schema';
import { createRng } from '../../helpers/chaos-random';

const long = (prefix: string, n: number) => (prefix + 'X'.repeat(n)).slice(0, n);
const TYPES: TicketType[] = Array.from({ length: 10 }, (_, i) => ({
  name: long(`Type ${i} `, 30),
  priceKobo: 1_000_000_000 - i,
  bookingFeeKobo: 1_000_000_000 - i,
}));
const CATALOGUE: Catalogue = {
  items: Array.from({ length: 20 }, (_, i) => ({
    code: `ITEM-${String(i).padStart(2, '0')}X`.slice(0, 12),
    name: long(`Item ${i} `, 40),
    category: long(`Category ${i % 3} `, 30),
    priceKobo: 100_000_000 - i,
    soldOut: false,
  })),
  combos: Array.from({ length: 5 }, (_, c) => ({
    code: `COMBO-${c}XXXXX`.slice(0, 12),
    name: long(`Combo ${c} `, 40),
    category: long('Combos ', 30),
    priceKobo: 100_000_000 - c,
    soldOut: false,
    components: Array.from({ length: 10 }, (_, k) => ({
      name: long(`Component ${k} `, 30),
      options: Array.from({ length: 20 }, (_, o) => `ITEM-${String(o).padStart(2, '0')}X`.slice(0, 12)),
    })),
  })),
};

function largestBasket(seed: number, tender: unknown): unknown {
  const rng = createRng(seed);
  return {
    tickets: {
      filmName: long('Film ', 100),
      filmTitle: long('Title ', 100),
      showDate: '2026-12-07',
      showTime: '19:30',
      seats: Array.from({ length: 50 }, (_, i) => ({
        seat: `ROW${String.fromCharCode(65 + (i % 26))}${String(1000 + i)}`.slice(0, 8),
        ticketType: TYPES[rng.int(0, TYPES.length - 1)]!.name,
      })),
    },
    concessions: Array.from({ length: MAX_CONCESSION_LINES }, (_, i) => {
      const combo = CATALOGUE.combos[i % CATALOGUE.combos.length]!;
      return {
        code: combo.code,
        quantity: MAX_LINE_QUANTITY,
        choices: Object.fromEntries(combo.components.map((k) => [k.name, k.options[rng.int(0, 19)]!])),
      };
    }),
    tender,
  };
}

describe('a basket the engine priced is one the Hub accepts', () => {
  it('the largest baskets the limits allow pass HubSoldBasketSchema, for each tender', () => {
    // Cash is at most ₦10,000,000 handed over: the cash basket has every line at the lowest prices.
    const cheap = {
      ticketTypes: TYPES.map((t) => ({ ...t, priceKobo: 1, bookingFeeKobo: 1 })),
      catalogue: { ...CATALOGUE, combos: CATALOGUE.combos.map((c) => ({ ...c, priceKobo: 1 })) },
    };
    for (const [seed, tender, ctx] of [
      [1, { kind: 'card' }, { ticketTypes: TYPES, catalogue: CATALOGUE }],
      [2, { kind: 'cash', tenderedKobo: 1_000_000_000 }, cheap],
      [3, { kind: 'split', cashKobo: 1_000 }, { ticketTypes: TYPES, catalogue: CATALOGUE }],
    ] as const) {
      const r = checkBasket(largestBasket(seed, tender), ctx);
      if (!r.ok) throw new Error(r.problems.map((p) => `${p.path.join('.')}: ${p.message}`).join('; '));
      const sold: SoldBasket = { lines: r.lines, tender: r.basket.tender, amounts: r.amounts };
      const hub = HubSoldBasketSchema.safeParse(sold);
      expect(hub.success ? [] : hub.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)).toEqual([]);
    }
  });
});

describe('the outbox and a priced basket', () => {
  const priced = () => {
    const r = checkBasket(largestBasket(4, { kind: 'card' }), { ticketTypes: TYPES, catalogue: CATALOGUE });
    if (!r.ok) throw new Error('expected a good basket');
    return markPricedByEngine({ lines: r.lines, tender: r.basket.tender, amounts: r.amounts });
  };
  const payload = (basket: SoldBasket, amountKobo: number) => ({
    reference: 'CP-1',
    amountKobo,
    sn: 'SN1',
    basket,
  });

  it('keeps a marked basket exactly, and refuses it when the order amount is not its card part', () => {
    const db = openJournalDb(':memory:');
    const outbox = new HubOutbox(db);
    const basket = priced();
    expect(isPricedByEngine(basket)).toBe(true);
    db.transaction(() => outbox.append('order.created', payload(basket, basket.amounts.cardKobo), 1))();
    const [event] = outbox.readAfter(0, 10);
    expect((event!.payload as { basket: unknown }).basket).toEqual(basket);
    expect(SYNC_PAYLOADS['order.created'].safeParse(event!.payload).success).toBe(true);
    expect(() =>
      db.transaction(() => outbox.append('order.created', payload(basket, basket.amounts.cardKobo - 1), 2))(),
    ).toThrow(/amountKobo: a basket sale's amount is its card part/);
  });

  it('parses in full a basket the engine did not price (a wrong line amount is refused)', () => {
    const db = openJournalDb(':memory:');
    const outbox = new HubOutbox(db);
    const basket = structuredClone(priced());
    expect(isPricedByEngine(basket)).toBe(false);
    basket.lines[0]!.amountKobo += 1;
    expect(() =>
      db.transaction(() => outbox.append('order.created', payload(basket, basket.amounts.cardKobo), 1))(),
    ).toThrow(/does not match its schema/);
  });
});
