// Basket sales as the order journal records them (issue 38), built by hand from the basket model:
// checkBasket on the Demo catalogue and two ticket types, the film part on `sale`, the card part as
// the order's amount. For the receipt and pickup slip tests.
import { checkBasket } from '../../../shared/basket-check';
import type { BasketInput } from '../../../shared/basket';
import { filmPartOf } from '../../../shared/basket-sale';
import { DEMO_CATALOGUE } from '../../../shared/catalogue';
import type { OrderView } from '../../../shared/orders';
import type { TicketType } from '../../../shared/programme';
import { buildReceipt } from '../../../core/records/receipts/receipt-model';
import { CINEMA, PAID_AT, PAID_ORDER } from './receipt-fixtures';

export const TYPES: TicketType[] = [
  { name: 'Adult', priceKobo: 450_000, bookingFeeKobo: 20_000 },
  { name: 'Child', priceKobo: 300_000, bookingFeeKobo: 20_000 },
];

export const SHOW = {
  filmName: 'AVENGERS-2D',
  filmTitle: 'Avengers: Doomsday',
  showDate: '2026-11-21',
  showTime: '19:30',
};

/** 2 Adult + 1 Child at F7–F9, a popcorn combo with a Fanta, 2 water. */
export const MIXED: Omit<BasketInput, 'tender'> = {
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
};

/** A recorded basket sale: paid (at once for cash; on the terminal for card and split) unless `state` says otherwise. */
export function basketOrder(input: BasketInput, over: Partial<OrderView> = {}): OrderView {
  const check = checkBasket(input, { ticketTypes: TYPES, catalogue: DEMO_CATALOGUE });
  if (!check.ok) throw new Error(check.problems.map((p) => p.message).join('; '));
  const basket = { lines: check.lines, tender: check.basket.tender, amounts: check.amounts };
  const cash = basket.tender.kind === 'cash';
  const sn = cash ? '' : PAID_ORDER.sn;
  const base: OrderView = {
    id: 57,
    outOrderNo: 'C1-261121-0042',
    state: 'paid',
    sale: { ...filmPartOf(check.basket, basket), sn },
    amountKobo: basket.amounts.cardKobo,
    basket,
    sn,
    createdAt: PAID_AT - 60_000,
    expiresAt: PAID_AT + 240_000,
    attempts: cash ? 0 : 1,
  };
  const provider: Partial<OrderView> = cash
    ? {}
    : {
        orderNo: PAID_ORDER.orderNo!,
        payNo: PAID_ORDER.payNo!,
        senderAccount: PAID_ORDER.senderAccount!,
        transactionTime: PAID_AT,
        completedTime: PAID_AT + 3_000,
        providerStatus: 'SUCCESS',
      };
  return { ...base, ...provider, ...over };
}

export function receiptOf(order: OrderView, reprint = false) {
  return buildReceipt({ order, cinema: CINEMA, counterName: 'Counter 3', cashier: 'Ngozi Eze', reprint });
}
