// A sale at the provider's edge: the productInfo block of createOrder (Naira, two decimals), and
// the parts of the provider's order details we keep (sender account always masked).
import { koboToNairaString } from '../../shared/money';
import { saleAmounts, type Sale } from '../../shared/orders';
import { splitSeats } from '../../shared/seat-list';
import type { PosOrderDetails, PosProductInfo } from '../provider';
import { providerOrderFor } from '../../shared/provider-order';
import type { SoldBasket } from '../../shared/basket-sale';

/** productInfo as the spec names it: ticket subtotal and booking fee in Naira with two decimals. */
/**
 * What a recorded sale puts in the create request beside its amount: a sale of one ticket type its
 * productInfo; a basket its film part as productInfo and the rest in `remark` (shared/provider-order.ts).
 */
export function providerFieldsFor(rec: { sale: Sale; basket?: SoldBasket | undefined }): {
  productInfo?: PosProductInfo;
  remark?: string;
} {
  if (!rec.basket) return { productInfo: productInfoFor(rec.sale) };
  const { lines, amounts, tender } = rec.basket;
  const s = rec.sale;
  const seats = s.tickets > 0 ? splitSeats(s.seats).map((seat) => ({ seat, ticketType: '' })) : [];
  const f = providerOrderFor({
    basket: {
      ...(seats.length > 0
        ? {
            tickets: {
              filmName: s.filmName,
              filmTitle: s.filmTitle,
              showDate: s.showDate,
              showTime: s.showTime,
              seats,
            },
          }
        : {}),
      concessions: [],
      tender,
    },
    lines,
    amounts,
  });
  return {
    ...(f?.productInfo ? { productInfo: f.productInfo } : {}),
    ...(f?.remark !== undefined ? { remark: f.remark } : {}),
  };
}

export function productInfoFor(sale: Sale): PosProductInfo {
  const { ticketsKobo, bookingFeeKobo } = saleAmounts(sale);
  return {
    filmName: sale.filmName,
    filmTitle: sale.filmTitle,
    filmTicketNum: String(sale.tickets),
    seatNum: splitSeats(sale.seats).join(','),
    filmTicketAmount: koboToNairaString(ticketsKobo),
    filmFeeAmount: koboToNairaString(bookingFeeKobo),
    filmDate: sale.showDate,
    filmTime: sale.showTime,
  };
}

/**
 * Masks an account number so that at most its last four digits show. The provider says it
 * masks already; we do not rely on that for anything we store or show.
 */
export function maskAccount(account: string): string {
  const s = account.trim();
  if (s === '') return s;
  const digits = s.replace(/\D/g, '');
  if (digits.length <= 4 && /[*xX•]/.test(s)) return s;
  let toKeep = 4;
  let out = '';
  for (let i = s.length - 1; i >= 0; i--) {
    const c = s[i] as string;
    if (/\d/.test(c)) {
      out = (toKeep > 0 ? c : '*') + out;
      toKeep--;
    } else {
      out = c + out;
    }
  }
  return out;
}

/** The columns of the journal that the provider's details fill in. */
export interface ProviderFacts {
  orderNo?: string;
  payNo?: string;
  providerFeeKobo?: number;
  feePattern?: string;
  senderName?: string;
  senderAccount?: string;
  transactionTime?: number;
  completedTime?: number;
  providerStatus?: string;
  detailsJson?: string;
}

const nonEmpty = (v: string | undefined | null): string | undefined =>
  typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
const time = (v: number | undefined): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : undefined;

export function factsFromDetails(d: PosOrderDetails): ProviderFacts {
  const facts: ProviderFacts = {};
  const put = <K extends keyof ProviderFacts>(k: K, v: ProviderFacts[K] | undefined) => {
    if (v !== undefined) facts[k] = v;
  };
  put('orderNo', nonEmpty(d.orderNo));
  put('payNo', nonEmpty(d.payNo));
  put('providerFeeKobo', Number.isSafeInteger(d.feeKobo) ? d.feeKobo : undefined);
  put('feePattern', nonEmpty(d.feePattern));
  put('senderName', nonEmpty(d.senderName));
  const account = nonEmpty(d.senderAccount);
  put('senderAccount', account === undefined ? undefined : maskAccount(account));
  put('transactionTime', time(d.transactionTime));
  put('completedTime', time(d.completedTime));
  put('providerStatus', nonEmpty(d.status));
  // The raw details are kept for disputes, with the account masked like everywhere else.
  facts.detailsJson = JSON.stringify({
    ...d,
    ...(account === undefined ? {} : { senderAccount: maskAccount(account) }),
  });
  return facts;
}

/**
 * Why the provider's details cannot be about this order (another counter's order under the same
 * number, a different amount or terminal), or null when they fit.
 */
export function detailsMismatch(
  order: { outOrderNo: string; amountKobo: number; sn: string },
  d: PosOrderDetails,
): string | null {
  if (nonEmpty(d.outOrderNo) !== undefined && d.outOrderNo.trim() !== order.outOrderNo) {
    return `The provider answered about order ${d.outOrderNo}, not ${order.outOrderNo}.`;
  }
  if (Number.isSafeInteger(d.amountKobo) && d.amountKobo !== order.amountKobo) {
    return `The provider has this sale number for ${koboToNairaString(d.amountKobo)} Naira, not ${koboToNairaString(order.amountKobo)}.`;
  }
  if (nonEmpty(d.sn) !== undefined && d.sn!.trim().toUpperCase() !== order.sn.toUpperCase()) {
    return `The provider has this sale number on terminal ${d.sn}, not ${order.sn}.`;
  }
  return null;
}
