// Baskets in the chaos runs: the ticket types, catalogue and seats the chaos app prices them against
// (stock left read from its own journal, as a counter does), random baskets for the driver (several
// ticket types, items and combos, card, cash or split), and the driver's own model of each one —
// its total, its cash part and the items it takes — written apart from the engine's arithmetic, so
// that the drawer and the stock can be checked against it after the run.
import type { Db } from '../../core/db';
import type { BasketSources, SeatPlanner } from '../../core/orders';
import { seatList } from '../../shared/seat-list';
import type { BasketSaleInput } from '../../shared/basket-sale';
import type { SaleInput } from '../../shared/orders';
import type { Catalogue } from '../../shared/catalogue';
import type { Rng } from './chaos-random';

export const CHAOS_TICKET_TYPES = [
  { name: 'Adult', priceKobo: 300_000, bookingFeeKobo: 10_000 },
  { name: 'Child', priceKobo: 200_000, bookingFeeKobo: 10_000 },
  { name: 'Student', priceKobo: 250_000, bookingFeeKobo: 0 },
];

/** Water and nachos are counted, with little stock, so that some run out during a run. */
export const CHAOS_STOCK: Record<string, number> = { WATER: 25, NACHO: 12 };

export const CHAOS_CATALOGUE: Catalogue = {
  items: [
    { code: 'POPS', name: 'Popcorn small', category: 'Popcorn', priceKobo: 150_000, soldOut: false },
    { code: 'POPL', name: 'Popcorn large', category: 'Popcorn', priceKobo: 250_000, soldOut: false },
    { code: 'FANTA', name: 'Fanta 50cl', category: 'Drinks', priceKobo: 70_000, soldOut: false },
    { code: 'WATER', name: 'Water 75cl', category: 'Drinks', priceKobo: 40_000, soldOut: false, stock: 25 },
    { code: 'NACHO', name: 'Nachos', category: 'Snacks', priceKobo: 200_000, soldOut: false, stock: 12 },
  ],
  combos: [
    {
      code: 'CMB1',
      name: 'Popcorn combo',
      category: 'Combos',
      priceKobo: 300_000,
      soldOut: false,
      components: [
        { name: 'Popcorn', options: ['POPL'] },
        { name: 'Drink', options: ['FANTA', 'WATER'] },
      ],
    },
  ],
};

/** The driver's price table, in kobo (the catalogue's figures, added up by the model, not the engine). */
const PRICE: Record<string, number> = {
  POPS: 150_000,
  POPL: 250_000,
  FANTA: 70_000,
  WATER: 40_000,
  NACHO: 200_000,
  CMB1: 300_000,
};
const TYPE_PRICE: Record<string, [number, number]> = {
  Adult: [300_000, 10_000],
  Child: [200_000, 10_000],
  Student: [250_000, 0],
};

/** Items a paid basket line takes, by the model: an item itself; a combo its popcorn and its chosen drink. */
export function modelTaken(b: BasketSaleInput): Map<string, number> {
  const out = new Map<string, number>();
  const add = (code: string, n: number) => out.set(code, (out.get(code) ?? 0) + n);
  for (const c of b.concessions ?? []) {
    if (c.code === 'CMB1') {
      add('POPL', c.quantity);
      add(c.choices?.Drink ?? '?', c.quantity);
    } else add(c.code, c.quantity);
  }
  return out;
}

/** The basket's total by the model. */
export function modelTotal(b: BasketSaleInput): number {
  let total = 0;
  for (const s of b.tickets?.seats ?? []) total += TYPE_PRICE[s.ticketType]![0] + TYPE_PRICE[s.ticketType]![1];
  for (const c of b.concessions ?? []) total += PRICE[c.code]! * c.quantity;
  return total;
}

/**
 * What a seat of a sale gives back when cancelled, by the model: its ticket type's price and booking
 * fee; a sale of one ticket type its price and its share of the sale's fee (a sale's fee is for all
 * its tickets), the price alone when the fee does not divide evenly (docs/refunds.md).
 */
export function modelSeatKobo(sale: SaleInput | BasketSaleInput, seat: string): number {
  if (!('tender' in sale)) {
    const fee = sale.bookingFeeKobo ?? 0;
    return sale.priceKobo + (fee % sale.tickets === 0 ? fee / sale.tickets : 0);
  }
  const t = sale.tickets?.seats.find((s) => s.seat.toUpperCase() === seat)?.ticketType ?? '?';
  const [price, fee] = TYPE_PRICE[t] ?? [Number.NaN, 0];
  return price + fee;
}

/** A ticket type's price and booking fee, by the model. */
export const modelTypeKobo = (type: string): number => {
  const [price, fee] = TYPE_PRICE[type] ?? [Number.NaN, 0];
  return price + fee;
};

/** The cash a paid basket leaves in the drawer, by the model: the total (cash), the cash part (split), 0 (card). */
export function modelCash(b: BasketSaleInput): number {
  return b.tender.kind === 'cash' ? modelTotal(b) : b.tender.kind === 'split' ? b.tender.cashKobo : 0;
}

/** Stock left by the engine's reading of a journal: each counted item less what the paid baskets took. */
export function journalStockLeft(db: Db): Map<string, number> {
  const left = new Map(Object.entries(CHAOS_STOCK));
  const rows = db
    .prepare("SELECT basket_json AS b FROM orders WHERE state = 'paid' AND basket_json IS NOT NULL")
    .all() as { b: string }[];
  for (const r of rows) {
    const basket = JSON.parse(r.b) as {
      lines: { kind: string; code?: string; quantity: number; chosen?: { code: string }[] }[];
    };
    for (const l of basket.lines) {
      const codes = l.kind === 'item' ? [l.code!] : l.kind === 'combo' ? (l.chosen ?? []).map((c) => c.code) : [];
      for (const code of codes) if (left.has(code)) left.set(code, left.get(code)! - l.quantity);
    }
  }
  return left;
}

/** A show's key in the chaos runs (its ticket types and its seats). */
export const chaosShowKey = (s: { filmName: string; showDate: string; showTime: string }): string =>
  `${s.filmName}|${s.showDate}|${s.showTime}`;

/** Every show has a seat map of any seat (no layout): the show's key as the basket's ticket types name it. */
export const chaosSeatPlanner: SeatPlanner = {
  plan: (sale) => {
    const seats = seatList(sale.seats);
    if (seats.length === 0) return null;
    return {
      showKey: chaosShowKey(sale),
      show: {
        filmName: sale.filmName,
        filmTitle: sale.filmTitle,
        date: sale.showDate,
        time: sale.showTime,
        screen: '',
      },
      seats,
    };
  },
};

/** What the chaos app prices baskets against: every show has the three ticket types; the catalogue with stock left. */
export function chaosBasketSources(db: Db): BasketSources {
  return {
    show: (t) => ({ showKey: chaosShowKey(t), ticketTypes: CHAOS_TICKET_TYPES }),
    catalogue: () => {
      const left = journalStockLeft(db);
      return {
        ...CHAOS_CATALOGUE,
        items: CHAOS_CATALOGUE.items.map((i) =>
          left.has(i.code) ? { ...i, stock: Math.max(0, left.get(i.code)!) } : i,
        ),
      };
    },
  };
}

/** A random basket: tickets of one to three types (or none), zero to three concession lines, card, cash or split. */
export function randomBasket(
  rng: Rng,
  show: { filmName: string; filmTitle: string; showDate: string; showTime: string; seats: string[] },
  sn: string,
): BasketSaleInput {
  const types = ['Adult', 'Child', 'Student'];
  const withTickets = rng.chance(0.7);
  const concessions: NonNullable<BasketSaleInput['concessions']> = [];
  const lines = withTickets ? rng.int(0, 3) : rng.int(1, 3);
  const codes = ['POPS', 'POPL', 'FANTA', 'WATER', 'NACHO', 'CMB1'];
  const used = new Set<string>();
  for (let i = 0; i < lines; i++) {
    const code = codes[rng.int(0, codes.length - 1)]!;
    if (used.has(code)) continue;
    used.add(code);
    concessions.push({
      code,
      quantity: rng.int(1, 3),
      ...(code === 'CMB1' ? { choices: { Drink: rng.chance(0.5) ? 'FANTA' : 'WATER' } } : {}),
    });
  }
  const basket: BasketSaleInput = {
    ...(withTickets
      ? {
          tickets: {
            filmName: show.filmName,
            filmTitle: show.filmTitle,
            showDate: show.showDate,
            showTime: show.showTime,
            seats: show.seats.map((seat) => ({ seat, ticketType: types[rng.int(0, 2)]! })),
          },
        }
      : {}),
    concessions,
    tender: { kind: 'card' },
    sn,
  };
  const total = modelTotal(basket);
  const kind = rng.weighted([
    ['card', 2],
    ['cash', 1],
    ['split', 1],
  ] as const);
  if (kind === 'cash') {
    // Tendered: the total rounded up to the next ₦1,000 note (the change handed back).
    const { sn: _sn, ...cash } = basket;
    return { ...cash, tender: { kind: 'cash', tenderedKobo: Math.ceil(total / 100_000) * 100_000 } };
  }
  if (kind === 'split' && total > 100_000) {
    const part = rng.int(1, Math.floor((total - 1) / 100_000)) * 100_000;
    if (part > 0 && part < total) return { ...basket, tender: { kind: 'split', cashKobo: part } };
  }
  return basket;
}
