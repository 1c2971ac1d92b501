// A basket as the checkout records it: what a door sends (`BasketSaleSchema`: the basket and the
// terminal its card part goes to), what a recorded sale holds (`SoldBasket`: the priced lines, the
// tender and the amounts, as the engine computed them), and the one reading of every sale as a
// basket (`soldBasketOf`): a sale made before baskets (one ticket type, by card) reads as a basket of
// one tickets line. Receipts, the ledger, the Hub and the screens read lines and amounts from here;
// none of them adds up money. Rules: docs/concessions.md.
import { z } from 'zod';
import { BasketSchema, type BasketAmounts, type BasketLine, type Tender } from './basket';
import { BesideWaiting, SaleInputSchema, saleAmounts, type Sale } from './orders';
import { splitSeats } from './seat-list';

/** A recorded sale's basket: its priced lines, how it is paid, and its amounts (the engine's; its view schema is SoldBasketSchema). */
export interface SoldBasket {
  lines: BasketLine[];
  tender: Tender;
  amounts: BasketAmounts;
}

/** What a door sends to sell a basket: the basket, and the terminal its card part goes to (left out for cash). */
export const BasketSaleSchema = z
  .object({
    ...BasketSchema.shape,
    sn: SaleInputSchema.shape.sn.optional(),
    /** The cashier's decision to charge while this sale number still waits on the same terminal. */
    besideWaiting: BesideWaiting,
  })
  .strict();
export type BasketSaleInput = z.input<typeof BasketSaleSchema>;

/** The ticket type a sale typed by hand (or made before ticket types) reads as. */
export const TYPED_TICKET_TYPE = 'Ticket';

/** The sale's film part as the order's `sale` fields hold it (and the provider's productInfo says it). */
export type FilmPart = Omit<Sale, 'sn' | 'besideWaiting'>;

/**
 * The film part of a basket: its show and all its seats, the ticket count, the booking fee of all
 * the tickets, and `priceKobo` the one unit price when every ticket is of one type (0 when the types
 * differ: the lines say each price). A basket without tickets has an empty film part.
 */
export function filmPartOf(
  basket: z.output<typeof BasketSchema>,
  sold: Pick<SoldBasket, 'lines' | 'amounts'>,
): FilmPart {
  const t = basket.tickets;
  const ticketLines = sold.lines.filter((l) => l.kind === 'tickets');
  const unit = ticketLines.length === 1 ? ticketLines[0]!.unitKobo : 0;
  return {
    filmName: t?.filmName ?? '',
    filmTitle: t?.filmTitle ?? '',
    showDate: t?.showDate ?? '',
    showTime: t?.showTime ?? '',
    seats: t ? t.seats.map((s) => s.seat).join(',') : '',
    tickets: t ? t.seats.length : 0,
    priceKobo: unit,
    bookingFeeKobo: sold.amounts.bookingFeeKobo,
  };
}

/** A sale as the order view holds it. */
interface SaleLike {
  sale: Pick<Sale, 'seats' | 'tickets' | 'priceKobo' | 'bookingFeeKobo'>;
  basket?: SoldBasket;
}

/**
 * Every sale as a basket: a basket sale's own; a sale made before baskets (or typed by hand) as one
 * tickets line of type `Ticket` paid by card, with exactly its amounts (`saleAmounts`).
 */
export function soldBasketOf(o: SaleLike): SoldBasket {
  if (o.basket) return o.basket;
  const a = saleAmounts(o.sale);
  const seats = o.sale.seats === '' ? [] : splitSeats(o.sale.seats);
  return {
    lines: [
      {
        kind: 'tickets',
        ticketType: TYPED_TICKET_TYPE,
        seats,
        quantity: o.sale.tickets,
        unitKobo: o.sale.priceKobo,
        feePerTicketKobo:
          o.sale.tickets > 0 && a.bookingFeeKobo % o.sale.tickets === 0 ? a.bookingFeeKobo / o.sale.tickets : 0,
        amountKobo: a.ticketsKobo,
        bookingFeeKobo: a.bookingFeeKobo,
      },
    ],
    tender: { kind: 'card' },
    amounts: {
      ticketsKobo: a.ticketsKobo,
      bookingFeeKobo: a.bookingFeeKobo,
      concessionsKobo: 0,
      totalKobo: a.amountKobo,
      cashKobo: 0,
      cardKobo: a.amountKobo,
      tenderedKobo: 0,
      changeKobo: 0,
    },
  };
}

/** A recorded basket as a door would send it again (Try again): the same show, seats at their types, lines, tender and terminal. */
export function basketInputOf(o: {
  sale: Pick<Sale, 'filmName' | 'filmTitle' | 'showDate' | 'showTime' | 'sn'>;
  basket: SoldBasket;
}): BasketSaleInput {
  const seats: { seat: string; ticketType: string }[] = [];
  const concessions: { code: string; quantity: number; choices: Record<string, string> }[] = [];
  for (const l of o.basket.lines) {
    if (l.kind === 'tickets') for (const seat of l.seats) seats.push({ seat, ticketType: l.ticketType });
    else
      concessions.push({
        code: l.code,
        quantity: l.quantity,
        choices: Object.fromEntries(l.chosen.filter((c) => c.choice).map((c) => [c.component, c.code])),
      });
  }
  const { filmName, filmTitle, showDate, showTime } = o.sale;
  return {
    ...(seats.length > 0 ? { tickets: { filmName, filmTitle, showDate, showTime, seats } } : {}),
    concessions,
    tender: o.basket.tender,
    ...(o.sale.sn !== '' ? { sn: o.sale.sn } : {}),
  };
}
