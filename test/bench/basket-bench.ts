// The basket's bench: the create overhead of a 20-line basket (two ticket types on four seats and 18
// concession lines, by card) against a one-ticket sale's, measured in turn in the same run (issue
// 38: basket.createOverheadRatio = basket p95 / one-ticket p95, target <= 1.2).
import type { BasketSources } from '../../core/orders';
import type { Catalogue } from '../../shared/catalogue';
import { runCreateOverheads, type CreateOverheadFigures } from './create-overhead-bench';

export interface BasketBenchFigures {
  oneTicketMs: CreateOverheadFigures;
  basket20Ms: CreateOverheadFigures;
  /** basket20Ms.p95 / oneTicketMs.p95. */
  createOverheadRatio: number;
}

const ITEMS = Array.from({ length: 18 }, (_, i) => `B${String(i + 1).padStart(2, '0')}`);
const CATALOGUE: Catalogue = {
  items: ITEMS.map((code, i) => ({
    code,
    name: `Bench item ${i + 1}`,
    category: i % 2 ? 'Drinks' : 'Snacks',
    priceKobo: 50_000 + i * 1_000,
    soldOut: false,
    ...(i % 3 === 0 ? { stock: 1_000_000 } : {}),
  })),
  combos: [],
};
const SHOW = { filmName: 'Bench Film', filmTitle: 'Hall 1', showDate: '2025-03-31', showTime: '19:30' };
const SOURCES: BasketSources = {
  show: () => ({
    showKey: 'bench',
    ticketTypes: [
      { name: 'Adult', priceKobo: 250_000, bookingFeeKobo: 10_000 },
      { name: 'Child', priceKobo: 150_000, bookingFeeKobo: 10_000 },
    ],
  }),
  catalogue: () => CATALOGUE,
};

export async function runBasketBench(o: {
  creates: number;
  warmup: number;
  baseDir: string;
}): Promise<BasketBenchFigures> {
  const [one, basket] = await runCreateOverheads({
    ...o,
    withRecords: true,
    basket: SOURCES,
    kinds: [
      {
        name: 'one ticket',
        input: (sn) => ({ ...SHOW, seats: 'A1', tickets: 1, priceKobo: 250_000, bookingFeeKobo: 10_000, sn }),
      },
      {
        name: '20-line basket',
        input: (sn) => ({
          tickets: {
            ...SHOW,
            seats: [
              { seat: 'A1', ticketType: 'Adult' },
              { seat: 'A2', ticketType: 'Adult' },
              { seat: 'A3', ticketType: 'Child' },
              { seat: 'A4', ticketType: 'Child' },
            ],
          },
          concessions: ITEMS.map((code, i) => ({ code, quantity: 1 + (i % 3) })),
          tender: { kind: 'card' },
          sn,
        }),
      },
    ],
  });
  const ratio = basket!.figures.p95 / one!.figures.p95;
  return {
    oneTicketMs: one!.figures,
    basket20Ms: basket!.figures,
    createOverheadRatio: Math.round(ratio * 100) / 100,
  };
}
