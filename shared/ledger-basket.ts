// The ledger's basket lines (shared/ledger.ts counts them with its other figures): for the sales
// inside the card total (the ledger decides which: `ledgerRow`), their tickets by show and ticket
// type and their concessions by item and by category, each from the sale's basket (`soldBasketOf`,
// a sale before baskets is one `Ticket` line by card); for the window, the tender lines
// (shared/tender-lines.ts), the drawer (shared/drawer.ts) and the sales total of every tender
// (card total + cash taken). The card total itself stays what the terminal took: a basket's card
// part. Rules: docs/concessions.md ("The drawer and the tenders").
import { cashTakenOf, tenderLines, type SaleTender } from './tender-lines';
import { drawerTotals } from './drawer';
import type { LedgerDrawer, LedgerSale, LedgerWindow } from './ledger-facts';
import type { Bucket } from './records';
import type { SoldBasket } from './basket-sale';
import type { ConcessionCategoryLine, ConcessionItemLine, DrawerFigures, TicketTypeLine } from './ledger-basket-schema';
import type { TenderLines } from './tender-lines';
import { TYPED_TICKET_TYPE } from './basket-sale';

/** The basket figures of a window (the part of `ShiftTotals` this file owns). */
export interface BasketFigures {
  salesTotal: Bucket;
  ticketTypes: TicketTypeLine[];
  concessions: {
    items: ConcessionItemLine[];
    categories: ConcessionCategoryLine[];
    quantity: number;
    amountKobo: number;
  };
  tenders: TenderLines;
  drawer: DrawerFigures;
}

/** A sale's basket: its own, or (a sale before baskets, as `soldBasketOf` reads it) one Ticket line by card. */
export function basketOfSale(s: LedgerSale): SoldBasket {
  if (s.basket) return s.basket;
  const ticketsKobo = s.amountKobo - s.bookingFeeKobo;
  return {
    lines: [
      {
        kind: 'tickets',
        ticketType: TYPED_TICKET_TYPE,
        seats: [],
        quantity: s.tickets,
        unitKobo: s.tickets > 0 && ticketsKobo % s.tickets === 0 ? ticketsKobo / s.tickets : 0,
        feePerTicketKobo: 0,
        amountKobo: ticketsKobo,
        bookingFeeKobo: s.bookingFeeKobo,
      },
    ],
    tender: { kind: 'card' },
    amounts: {
      ticketsKobo,
      bookingFeeKobo: s.bookingFeeKobo,
      concessionsKobo: 0,
      totalKobo: s.amountKobo,
      cashKobo: 0,
      cardKobo: s.amountKobo,
      tenderedKobo: 0,
      changeKobo: 0,
    },
  };
}

/** Paid wholly in cash: no card order, so in no line of the card total (its cash is on the tender lines). */
export const cashOnly = (s: LedgerSale): boolean => s.basket?.tender.kind === 'cash';

/** The tender of each sale that has a basket (a sale without one is a card sale of its amount). */
export function saleTenders(sales: readonly LedgerSale[]): SaleTender[] {
  const out: SaleTender[] = [];
  for (const s of sales) {
    if (!s.basket) continue;
    const a = s.basket.amounts;
    out.push({ ref: s.ref, kind: s.basket.tender.kind, cashKobo: a.cashKobo, cardKobo: a.cardKobo });
  }
  return out;
}

/** A show's tickets as the sale names the show and its tickets: the film part and the basket's ticket lines. */
export function showTicketsOf(s: LedgerSale): { ticketsKobo: number; hasTickets: boolean } {
  const b = basketOfSale(s);
  return {
    ticketsKobo: b.amounts.ticketsKobo + b.amounts.bookingFeeKobo,
    hasTickets: b.lines.some((l) => l.kind === 'tickets' && l.quantity > 0),
  };
}

const byText = (...keys: string[]) => keys.join('\u0000');

/**
 * The basket figures: `counted` are the sales inside the card total (each once), `sales` all the
 * window's sales (for the tenders and the drawer), `card` the ledger's card total.
 */
export function basketFigures(
  counted: readonly LedgerSale[],
  sales: readonly LedgerSale[],
  w: LedgerWindow,
  card: Bucket,
  drawer: LedgerDrawer | undefined,
): BasketFigures {
  const types = new Map<string, TicketTypeLine>();
  const items = new Map<string, ConcessionItemLine>();
  const categories = new Map<string, ConcessionCategoryLine>();
  let quantity = 0,
    amountKobo = 0;
  for (const s of counted) {
    for (const l of basketOfSale(s).lines) {
      if (l.kind === 'tickets') {
        const k = byText(s.show.showDate, s.show.showTime, s.show.filmName, s.show.filmTitle, l.ticketType);
        const t = types.get(k) ?? {
          ...s.show,
          ticketType: l.ticketType,
          quantity: 0,
          amountKobo: 0,
          bookingFeeKobo: 0,
        };
        types.set(k, {
          ...t,
          quantity: t.quantity + l.quantity,
          amountKobo: t.amountKobo + l.amountKobo,
          bookingFeeKobo: t.bookingFeeKobo + l.bookingFeeKobo,
        });
        continue;
      }
      const i = items.get(l.code) ?? { code: l.code, name: l.name, category: l.category, quantity: 0, amountKobo: 0 };
      items.set(l.code, { ...i, quantity: i.quantity + l.quantity, amountKobo: i.amountKobo + l.amountKobo });
      const c = categories.get(l.category) ?? { category: l.category, quantity: 0, amountKobo: 0 };
      categories.set(l.category, {
        ...c,
        quantity: c.quantity + l.quantity,
        amountKobo: c.amountKobo + l.amountKobo,
      });
      quantity += l.quantity;
      amountKobo += l.amountKobo;
    }
  }

  const tenders = saleTenders(sales);
  const lines = tenderLines(sales, tenders, w);
  const d = drawer ?? { floatKobo: 0, cashPaidOut: [], drops: [], counts: [] };
  const totals = drawerTotals(
    {
      floatKobo: d.floatKobo,
      cashTaken: cashTakenOf(sales, tenders, w),
      cashPaidOut: d.cashPaidOut,
      drops: d.drops,
      counts: d.counts,
    },
    w,
  );
  const within = (at: number) => at >= w.from && at < w.to;
  let count: { by: string; at: number } | null = null;
  for (const c of d.counts)
    if (c.at >= w.from && c.at <= w.to && (!count || c.at >= count.at)) count = { by: c.by, at: c.at };

  return {
    salesTotal: {
      count: card.count + lines.cash.count,
      amountKobo: card.amountKobo + lines.cashTaken.amountKobo,
    },
    ticketTypes: [...types.values()].sort(
      (a, b) =>
        a.showDate.localeCompare(b.showDate) ||
        a.showTime.localeCompare(b.showTime) ||
        a.filmName.localeCompare(b.filmName) ||
        a.ticketType.localeCompare(b.ticketType),
    ),
    concessions: {
      items: [...items.values()].sort((a, b) => a.category.localeCompare(b.category) || a.code.localeCompare(b.code)),
      categories: [...categories.values()].sort((a, b) => a.category.localeCompare(b.category)),
      quantity,
      amountKobo,
    },
    tenders: lines,
    drawer: {
      ...totals,
      dropItems: d.drops
        .filter((x) => within(x.at))
        .sort((a, b) => a.at - b.at)
        .map((x) => ({ amountKobo: x.amountKobo, by: x.by, at: x.at, ...(x.note ? { note: x.note } : {}) })),
      count,
    },
  };
}
