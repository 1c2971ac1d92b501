// The one receipt model, built from an order's final details, the sale, the cinema settings and the
// shift's cashier, and the print document every output (HTML, ESC/POS, PDF) is rendered from.
import { formatNaira } from '../../../shared/money';
import { bookingFeeText, ORDER_STATE_LABELS, OrderState, type OrderView } from '../../../shared/orders';
import { lateAt } from '../../../shared/late-payments';
import { seatList } from '../../../shared/seat-list';
import { seatsUncheckedLine } from '../../../shared/seats';
import { PAYMENT_STATUS_TEXT, type CinemaSettings, type Receipt } from '../../../shared/records';
import { paymentTimes } from '../../../shared/payment-times';
import { formatLagosDateTime } from '../../../shared/time';
import { DEMO_RECEIPT_BANNER, isDemoRecord } from '../../../shared/record-profile';
import type { Block, PrintDoc } from '../printing/print-doc';
import type { SaleLinks } from '../../../shared/refunds';
import { soldBasketOf } from '../../../shared/basket-sale';
import type { SoldBasket } from '../../../shared/basket-sale';
import {
  concessionBlocks,
  handBackBlocks,
  hasTickets,
  isSingleTypeCardSale,
  seatTypes,
  tenderBlocks,
  ticketBlocks,
} from './receipt-basket';

/** The mark on the receipt of a sale the provider paid after the counter closed it. */
const PAID_AFTER_CLOSING_MARK = 'Paid after closing';

interface ReceiptInput {
  order: OrderView;
  cinema: CinemaSettings;
  counterName: string;
  cashier: string;
  reprint: boolean;
  /** A sale from the programme: the screen (when recorded) and the ticket type. */
  programme?: { screen: string | null; ticketType: string };
  /** The sale's links after the sale (exchanged from / to, seats no longer valid). */
  links?: SaleLinks;
}

export function buildReceipt(i: ReceiptInput): Receipt {
  const o = i.order;
  const s = o.sale;
  const ticketsKobo = s.tickets * s.priceKobo;
  // Every sale read as a basket; a basket's amount on the order is its card part, not its total.
  const sold = soldBasketOf(o);
  const r: Receipt = {
    orderId: o.id,
    cinemaName: i.cinema.name,
    branch: i.cinema.branch,
    footer: i.cinema.footer,
    counterName: i.counterName,
    filmName: s.filmName,
    filmTitle: s.filmTitle,
    showDate: s.showDate,
    showTime: s.showTime,
    seats: seatList(s.seats),
    tickets: s.tickets,
    priceKobo: s.priceKobo,
    ticketsKobo,
    bookingFeeKobo: s.bookingFeeKobo,
    totalKobo: o.basket ? sold.amounts.totalKobo : o.amountKobo,
    state: o.state,
    outOrderNo: o.outOrderNo,
    cashier: i.cashier,
    terminalSn: o.sn,
    qrText: o.orderNo ?? o.outOrderNo,
    reprint: i.reprint,
    demo: isDemoRecord(o.profile),
    basket: sold,
    soldAt: o.createdAt,
  };
  if (o.orderNo !== undefined) r.orderNo = o.orderNo;
  if (i.links?.exchangedFrom) r.exchangedFrom = i.links.exchangedFrom.outOrderNo;
  if (i.links?.exchangedTo.length) r.exchangedTo = i.links.exchangedTo.map((t) => t.outOrderNo);
  if (i.links?.cancelledSeats.length) r.cancelledSeats = i.links.cancelledSeats;
  if (i.programme?.screen) r.screen = i.programme.screen;
  if (i.programme) r.ticketType = i.programme.ticketType;
  // A basket of one ticket type by card prints as a sale of that type did before baskets.
  const types = o.basket ? seatTypes(sold) : new Map<string, string>();
  const [onlyType] = new Set(types.values());
  if (!r.ticketType && isSingleTypeCardSale(sold) && onlyType !== undefined) r.ticketType = onlyType;
  const held = o.seatHold;
  if (held && held.outcome !== 'taken' && held.outcome !== 'refused') {
    r.screen ??= held.screen;
    r.seatTickets = seatTickets(held.seats, (seat) => types.get(seat) ?? i.programme?.ticketType);
  }
  const unchecked = seatsUncheckedLine(held);
  if (unchecked) r.seatsUnchecked = unchecked;
  if (o.late?.kind === 'paid-after-closing') {
    // The closed order's own payment facts (the card shown before it closed, its times) are not
    // the payment: the late outcome's are.
    const late = o.late;
    r.paidAfterClosing = {
      at: lateAt(late),
      closedAs: late.closedAs,
      ...(late.payNo !== undefined ? { payNo: late.payNo } : {}),
    };
    if (late.payNo !== undefined) r.payNo = late.payNo;
    if (late.senderAccount !== undefined) r.senderAccount = late.senderAccount;
    return r;
  }
  if (o.payNo !== undefined) r.payNo = o.payNo;
  if (o.senderAccount !== undefined) r.senderAccount = o.senderAccount;
  if (o.senderName !== undefined) r.senderName = o.senderName;
  if (o.transactionTime !== undefined) r.transactionTime = o.transactionTime;
  if (o.completedTime !== undefined) r.completedTime = o.completedTime;
  return r;
}

/** Each ticket of a seat map sale: "F7" is row F, seat 7 (a seat's name is its row's letters then its number). */
function seatTickets(
  seats: readonly string[],
  typeOf: (seat: string) => string | undefined,
): NonNullable<Receipt['seatTickets']> {
  return seats.map((id) => {
    const m = /^([A-Z]+)(\d+)$/.exec(id);
    const t = m ? { row: m[1]!, seat: m[2]! } : { row: '', seat: id };
    const ticketType = typeOf(id);
    return ticketType ? { ...t, ticketType } : t;
  });
}

/** The seats as the receipt lists them: one line per ticket with its row, seat and type (a seat map sale), or the seats in one line. */
function seatLines(r: Receipt): Block[] {
  if (!r.seatTickets) return [{ t: 'pair', label: r.seats.length === 1 ? 'Seat' : 'Seats', value: r.seats.join(', ') }];
  return r.seatTickets.map((t) => ({
    t: 'pair' as const,
    label: t.row ? `Row ${t.row}, seat ${t.seat}` : `Seat ${t.seat}`,
    value: t.ticketType ?? 'Ticket',
  }));
}

/** "Sat, 21 Nov 2026, 19:30": the show's calendar date, which no time zone may move. */
function receiptShowWhen(date: string, time: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return `${date} ${time}`;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), 12));
  const day = new Intl.DateTimeFormat('en-GB', {
    weekday: 'short',
    day: '2-digit',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(d);
  return `${day}, ${time}`;
}

/** "Booking fee" for one ticket, "Booking fee 2 × ₦200.00" for more (the fee is per ticket; the line's amount is all of it). */
function bookingFeeLabel(r: Receipt): string {
  const text = bookingFeeText(r, formatNaira);
  return text === formatNaira(r.bookingFeeKobo) ? 'Booking fee' : `Booking fee ${text}`;
}

/** "Closed on the counter as Expired" for a paid-after-closing receipt's fine print. */
function closedAsText(closedAs: string): string {
  const s = OrderState.safeParse(closedAs);
  return s.success ? ORDER_STATE_LABELS[s.data] : closedAs;
}

/**
 * The payment's times as the receipt states them (shared/payment-times.ts; a late payment's own time).
 * @internal for tests
 */
export function receiptPaymentTimes(r: Receipt): [label: string, at: number][] {
  if (r.paidAfterClosing) return [['Paid at', r.paidAfterClosing.at]];
  const times = paymentTimes(r);
  // A cash sale is paid when it is made, with no provider to say when.
  if (times.length === 0 && r.state === 'paid' && r.basket?.tender.kind === 'cash' && r.soldAt !== undefined)
    return [['Paid at', r.soldAt]];
  return times;
}

/** The film, its seats and its one ticket type, the booking fee: a sale before baskets, as it always printed. */
function singleTypeBlocks(r: Receipt): Block[] {
  const b: Block[] = [{ t: 'heading', text: r.filmTitle }];
  if (r.filmName !== r.filmTitle) b.push({ t: 'pair', label: 'Film', value: r.filmName });
  b.push(
    { t: 'pair', label: 'Show', value: receiptShowWhen(r.showDate, r.showTime) },
    ...(r.screen ? [{ t: 'pair' as const, label: 'Screen', value: r.screen }] : []),
    ...seatLines(r),
    ...(r.seatsUnchecked ? [{ t: 'small' as const, text: r.seatsUnchecked }] : []),
    // "2 × Student ₦2,500.00": the ticket type names what the usher checks at the door.
    {
      t: 'pair',
      label: r.ticketType
        ? `${r.tickets} × ${r.ticketType} ${formatNaira(r.priceKobo)}`
        : `${r.tickets} ticket${r.tickets === 1 ? '' : 's'} × ${formatNaira(r.priceKobo)}`,
      value: formatNaira(r.ticketsKobo),
    },
    { t: 'pair', label: bookingFeeLabel(r), value: formatNaira(r.bookingFeeKobo) },
  );
  return b;
}

/** Every line of a basket: its tickets by type, then its concessions. */
function basketBlocks(r: Receipt, sold: SoldBasket): Block[] {
  const tickets = ticketBlocks(r, sold, receiptShowWhen(r.showDate, r.showTime), seatLines(r));
  const concessions = concessionBlocks(sold);
  return [
    ...tickets,
    ...(tickets.length > 0 && concessions.length > 0 ? [{ t: 'rule' as const }] : []),
    ...concessions,
  ];
}

/** An exchange receipt names the sale it replaces; a sale exchanged or cancelled in part says which seats no longer hold. */
function linkBlocks(r: Receipt): Block[] {
  const b: Block[] = [];
  if (r.exchangedFrom)
    b.push(
      { t: 'mark', text: 'EXCHANGE' },
      { t: 'pair', label: 'Exchange of sale', value: r.exchangedFrom, bold: true },
    );
  if (r.exchangedTo?.length)
    b.push({ t: 'pair', label: 'Exchanged to sale', value: r.exchangedTo.join(', '), bold: true });
  if (r.cancelledSeats?.length)
    b.push({
      t: 'pair',
      label: 'No longer valid',
      value: `Seat${r.cancelledSeats.length === 1 ? '' : 's'} ${r.cancelledSeats.join(', ')}`,
      bold: true,
    });
  return b;
}

export function receiptDoc(r: Receipt): PrintDoc {
  const late = r.paidAfterClosing;
  const paid = r.state === 'paid' || late !== undefined;
  // A receipt journaled before baskets, or of one ticket type by card, prints as it always did.
  const sold = r.basket && !isSingleTypeCardSale(r.basket) ? r.basket : null;
  const b: Block[] = [];
  // First and last, so even a torn-off half of a Demo receipt says it is not a payment.
  if (r.demo) b.push({ t: 'banner', text: DEMO_RECEIPT_BANNER });
  b.push({ t: 'title', text: r.cinemaName });
  if (r.branch) b.push({ t: 'center', text: r.branch });
  if (r.reprint) b.push({ t: 'mark', text: 'REPRINT' });
  const kind = sold && !hasTickets(sold) ? 'Receipt' : 'Ticket receipt';
  b.push({ t: 'center', text: paid ? kind : 'Payment slip (not a ticket)', bold: true });
  if (late) b.push({ t: 'mark', text: PAID_AFTER_CLOSING_MARK });
  b.push(...linkBlocks(r), { t: 'rule' });
  b.push(...(sold ? basketBlocks(r, sold) : singleTypeBlocks(r)));
  b.push(
    { t: 'rule', double: true },
    { t: 'total', label: paid ? 'TOTAL PAID' : 'TOTAL', value: formatNaira(r.totalKobo) },
    ...(sold ? tenderBlocks(sold) : []),
    { t: 'pair', label: 'Payment', value: late ? 'PAID' : PAYMENT_STATUS_TEXT[r.state], bold: true },
  );
  if (!paid) b.push({ t: 'mark', text: 'NOT PAID' }, ...(sold ? handBackBlocks(sold) : []));
  b.push({ t: 'rule' }, { t: 'pair', label: 'Sale no.', value: r.outOrderNo });
  if (r.orderNo) b.push({ t: 'pair', label: 'Provider order no.', value: r.orderNo });
  if (r.payNo) b.push({ t: 'pair', label: 'Payment no.', value: r.payNo });
  if (r.senderAccount) b.push({ t: 'pair', label: 'Card / account', value: r.senderAccount });
  for (const [label, at] of receiptPaymentTimes(r)) b.push({ t: 'pair', label, value: formatLagosDateTime(at) });
  b.push(
    { t: 'pair', label: 'Cashier', value: r.cashier || '-' },
    { t: 'pair', label: 'Counter', value: r.counterName },
    // A cash sale has no terminal, no provider order and no payment number: nothing, not blanks.
    ...(r.terminalSn ? [{ t: 'pair' as const, label: 'Terminal', value: r.terminalSn }] : []),
    { t: 'qr', data: r.qrText, caption: r.qrText },
  );
  if (late)
    b.push({
      t: 'small',
      text: `${PAID_AFTER_CLOSING_MARK}: the counter had closed this sale (${closedAsText(late.closedAs)}) before the provider took the payment.`,
    });
  if (r.footer) b.push({ t: 'small', text: r.footer });
  b.push({ t: 'small', text: 'Times are Lagos time (WAT).' });
  if (r.demo) b.push({ t: 'banner', text: DEMO_RECEIPT_BANNER });
  return { title: `${r.reprint ? 'Reprint of receipt' : 'Receipt'} ${r.outOrderNo}`, blocks: b };
}
