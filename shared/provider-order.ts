// A checked basket at the provider's edge: the fields of the POS create request it fills. `amount`
// is the card part; `productInfo` carries the film part as the provider's fields name it (ticket
// count, seats, ticket and fee amounts in naira with two decimals); what those fields cannot say
// (several ticket types, concessions, a cash part) goes in `remark` in a short form. A basket of one
// ticket type paid by card fills exactly what a sale fills today (no remark). The choices made where
// the provider's specification is silent: docs/concessions.md.
import type { Basket, BasketAmounts, BasketLine, ConcessionPricedLine, TicketsLine } from './basket';
import { koboToNairaString } from './money';

/** productInfo of the create request, as the provider names its fields (all strings). */
export interface PosProductInfo {
  filmName?: string;
  filmTitle?: string;
  filmTicketNum?: string;
  seatNum?: string;
  filmTicketAmount?: string;
  filmFeeAmount?: string;
  filmDate?: string;
  filmTime?: string;
}

/**
 * The longest remark sent. The provider's specification gives no length for `remark` ("free
 * text"): 120 characters fits the common 128-character column with room; a longer basket is
 * shortened (`basketRemark`).
 */
export const REMARK_MAX_CHARS = 120;
/** The shortest limit `basketRemark` can always keep to (50 tickets, 40 lines, the largest amounts). */
const REMARK_MIN_CHARS = 64;

/** What a basket puts in the create request; its other fields (sn, outOrderNo, expiry…) are the sale's, as today. */
export interface ProviderOrderFields {
  /** The card part, in kobo (sent in naira with two decimals). */
  amountKobo: number;
  /** Absent for a basket without tickets: the spec marks productInfo optional, and its fields are all the film's. */
  productInfo?: PosProductInfo;
  /** Absent when productInfo says it all (one ticket type, no concessions, no cash part). */
  remark?: string;
}

/** The film part of a basket as productInfo: all its tickets, whatever their types. */
export function basketProductInfo(basket: Basket, amounts: BasketAmounts): PosProductInfo | undefined {
  const t = basket.tickets;
  if (!t) return undefined;
  return {
    filmName: t.filmName,
    filmTitle: t.filmTitle,
    filmTicketNum: String(t.seats.length),
    seatNum: t.seats.map((s) => s.seat).join(','),
    filmTicketAmount: koboToNairaString(amounts.ticketsKobo),
    filmFeeAmount: koboToNairaString(amounts.bookingFeeKobo),
    filmDate: t.showDate,
    filmTime: t.showTime,
  };
}

/** A name as a remark token: ASCII letters and digits (accents dropped), other runs as one dash ("VIP Recliner" → "VIP-Recliner"). */
function token(name: string): string {
  return (
    name
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^A-Za-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || '-'
  );
}

function concessionToken(l: ConcessionPricedLine): string {
  const chosen = l.chosen.filter((c) => c.choice).map((c) => c.code);
  return `${l.quantity}x${l.code}${chosen.length > 0 ? `(${chosen.join('+')})` : ''}`;
}

/**
 * The basket's remark, or undefined when there is nothing productInfo does not say. Its form,
 * parts joined by "; " and only ASCII (the escaping of other characters in signed JSON is open):
 *
 *   T 2xAdult 1xChild; C 1xCMB1(FANTA) 2xWATER =3800.00; CASH 5000.00
 *
 * `T`: the tickets by type; `C`: the concession lines (quantity x code, a combo's choices in
 * brackets joined by +) and their total in naira; `CASH`: the cash part of a split. Longer than
 * `max`: the last concession lines give way to "+N more" (the total stays), then the tickets to
 * their count ("T 3").
 */
export function basketRemark(
  lines: readonly BasketLine[],
  amounts: BasketAmounts,
  max = REMARK_MAX_CHARS,
): string | undefined {
  if (max < REMARK_MIN_CHARS) throw new RangeError(`a remark of at most ${max} characters cannot be kept to`);
  const tickets = lines.filter((l): l is TicketsLine => l.kind === 'tickets');
  const concessions = lines.filter((l): l is ConcessionPricedLine => l.kind !== 'tickets');
  if (tickets.length <= 1 && concessions.length === 0 && amounts.cashKobo === 0) return undefined;
  const ticketParts = [
    tickets.map((l) => `${l.quantity}x${token(l.ticketType)}`).join(' '),
    String(tickets.reduce((n, l) => n + l.quantity, 0)),
  ];
  const words = concessions.map(concessionToken);
  for (const ticketPart of ticketParts) {
    for (let shown = words.length; shown >= 0; shown--) {
      const parts: string[] = [];
      if (tickets.length > 0) parts.push(`T ${ticketPart}`);
      if (concessions.length > 0) {
        const more = shown < words.length ? [`+${words.length - shown} more`] : [];
        parts.push(
          ['C', ...words.slice(0, shown), ...more, `=${koboToNairaString(amounts.concessionsKobo)}`].join(' '),
        );
      }
      if (amounts.cashKobo > 0) parts.push(`CASH ${koboToNairaString(amounts.cashKobo)}`);
      const remark = parts.join('; ');
      if (remark.length <= max) return remark;
    }
  }
  throw new RangeError('the remark does not fit');
}

/**
 * The create request's fields for a checked basket, or null when nothing is paid by card (a cash
 * sale sends no order to the provider).
 */
export function providerOrderFor(
  checked: { basket: Basket; lines: readonly BasketLine[]; amounts: BasketAmounts },
  opts: { remarkMaxChars?: number } = {},
): ProviderOrderFields | null {
  const { basket, lines, amounts } = checked;
  if (amounts.cardKobo <= 0) return null;
  const productInfo = basketProductInfo(basket, amounts);
  const remark = basketRemark(lines, amounts, opts.remarkMaxChars);
  return {
    amountKobo: amounts.cardKobo,
    ...(productInfo ? { productInfo } : {}),
    ...(remark !== undefined ? { remark } : {}),
  };
}
