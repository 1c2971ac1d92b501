// The receipt of a basket sale: every line with its quantity, unit price and amount (tickets by
// type with their seats, the booking fee, each concession with a combo's items under it), then the
// tenders (card, cash tendered and the change in large type, a split's two parts). All figures are
// the recorded basket's (`soldBasketOf`): nothing is added up here. A sale of one ticket type by
// card is not a basket receipt: it prints as it did before baskets (receipt-model.ts).
import { formatNaira } from '../../../shared/money';
import { TYPED_TICKET_TYPE } from '../../../shared/basket-sale';
import type { ConcessionPricedLine, TicketsLine } from '../../../shared/basket';
import type { SoldBasket } from '../../../shared/basket-sale';
import type { Receipt } from '../../../shared/records';
import type { Block } from '../printing/print-doc';

/** One tickets line, no concessions, paid by card: the receipt of a sale before baskets, unchanged. */
export function isSingleTypeCardSale(s: SoldBasket): boolean {
  return s.tender.kind === 'card' && s.lines.length === 1 && s.lines[0]!.kind === 'tickets';
}

const ticketLines = (s: SoldBasket): TicketsLine[] => s.lines.filter((l): l is TicketsLine => l.kind === 'tickets');
const concessionLines = (s: SoldBasket): ConcessionPricedLine[] =>
  s.lines.filter((l): l is ConcessionPricedLine => l.kind !== 'tickets');

/** The ticket type each seat was sold at, from the basket's lines (a sale before baskets has none). */
export function seatTypes(s: SoldBasket): Map<string, string> {
  const m = new Map<string, string>();
  for (const l of ticketLines(s))
    if (l.ticketType !== TYPED_TICKET_TYPE) for (const seat of l.seats) m.set(seat, l.ticketType);
  return m;
}

/** "Booking fee 3 × ₦200.00" when every ticket has the same fee, else "Booking fee". */
function bookingFeeLabel(lines: readonly TicketsLine[]): string {
  const count = lines.reduce((n, l) => n + l.quantity, 0);
  const fees = new Set(lines.map((l) => l.feePerTicketKobo));
  const [fee] = fees;
  return fees.size === 1 && count > 1 && fee !== undefined
    ? `Booking fee ${count} × ${formatNaira(fee)}`
    : 'Booking fee';
}

/** The film and its tickets by type (seats under each type unless each seat is listed above), the booking fee. */
export function ticketBlocks(r: Receipt, s: SoldBasket, show: string, seatList: Block[]): Block[] {
  const lines = ticketLines(s);
  if (lines.length === 0) return [];
  const b: Block[] = [{ t: 'heading', text: r.filmTitle }];
  if (r.filmName !== r.filmTitle) b.push({ t: 'pair', label: 'Film', value: r.filmName });
  b.push({ t: 'pair', label: 'Show', value: show });
  if (r.screen) b.push({ t: 'pair', label: 'Screen', value: r.screen });
  const perSeat = r.seatTickets !== undefined;
  if (perSeat) b.push(...seatList);
  if (r.seatsUnchecked) b.push({ t: 'small', text: r.seatsUnchecked });
  for (const l of lines) {
    b.push({
      t: 'pair',
      label: `${l.quantity} × ${l.ticketType} ${formatNaira(l.unitKobo)}`,
      value: formatNaira(l.amountKobo),
    });
    if (!perSeat && l.seats.length > 0)
      b.push({ t: 'sub', text: `${l.seats.length === 1 ? 'Seat' : 'Seats'} ${l.seats.join(', ')}` });
  }
  b.push({ t: 'pair', label: bookingFeeLabel(lines), value: formatNaira(s.amounts.bookingFeeKobo) });
  return b;
}

/** Each concession line: "2 × Water 75cl ₦400.00 … ₦800.00", a combo's items under it ("Drink: Fanta 50cl"). */
export function concessionBlocks(s: SoldBasket): Block[] {
  return concessionLines(s).flatMap((l): Block[] => [
    { t: 'pair', label: `${l.quantity} × ${l.name} ${formatNaira(l.unitKobo)}`, value: formatNaira(l.amountKobo) },
    ...l.chosen.map((c): Block => ({ t: 'sub', text: `${c.component}: ${c.name}` })),
  ]);
}

/** The tenders under the total: the card part, the cash tendered, the change in large type; a split's two parts. */
export function tenderBlocks(s: SoldBasket): Block[] {
  const a = s.amounts;
  const money = formatNaira;
  switch (s.tender.kind) {
    case 'card':
      return [{ t: 'pair', label: 'Card', value: money(a.cardKobo) }];
    case 'cash':
      return [
        { t: 'pair', label: 'Cash tendered', value: money(a.tenderedKobo) },
        { t: 'total', label: 'CHANGE', value: money(a.changeKobo) },
      ];
    case 'split': {
      const tendered = a.tenderedKobo !== a.cashKobo;
      return [
        { t: 'pair', label: 'Cash part', value: money(a.cashKobo) },
        ...(tendered ? [{ t: 'pair' as const, label: 'Cash tendered', value: money(a.tenderedKobo) }] : []),
        { t: 'pair', label: 'Card part', value: money(a.cardKobo) },
        ...(tendered ? [{ t: 'total' as const, label: 'CHANGE', value: money(a.changeKobo) }] : []),
      ];
    }
  }
}

/** A split whose card part was not paid: the cashier hands back the cash part (the change was given already). */
export function handBackBlocks(s: SoldBasket): Block[] {
  if (s.tender.kind !== 'split') return [];
  return [
    {
      t: 'small',
      text: `The card part was not paid: hand back the cash part ${formatNaira(s.amounts.cashKobo)}, or sell the basket again.`,
    },
  ];
}

export const hasConcessions = (s: SoldBasket | undefined): boolean => !!s && concessionLines(s).length > 0;
export const hasTickets = (s: SoldBasket): boolean => ticketLines(s).length > 0;
