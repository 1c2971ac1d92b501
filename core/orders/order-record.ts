// An order as the order journal holds it (OrderRecord): how a row of `orders` becomes one, the
// renderer's view of it (no merchant ids, no raw details), and what the Hub is told of it. The
// journal itself, which writes orders and their events, is order-journal.ts.
import { clipText } from '../journal-sink';
import type { OrderState, OrderView } from '../../shared/orders';
import type { RecordProfile } from '../../shared/record-profile';
import { isFinalState } from './order-state';
import type { ProviderFacts } from './sale-wire';
import type { SoldBasket } from '../../shared/basket-sale';

/** An order as the journal holds it: the view plus what only the core needs. */
export interface OrderRecord extends Omit<OrderView, 'nextActionAt'> {
  headMerchantId: string;
  merchantId: string;
  expireSeconds: number;
  businessDay: string;
  profile: RecordProfile;
  /** When the order reached the terminal (first accepted create, or first PENDING seen). */
  waitingSince?: number;
  detailsJson?: string;
}

/** A row of `orders` as SQLite returns it. */
export type Row = Record<string, unknown>;

/** The provider's facts and their columns: the one map both ways. */
export const FACT_COLUMNS: Record<keyof ProviderFacts, string> = {
  orderNo: 'order_no',
  payNo: 'pay_no',
  providerFeeKobo: 'provider_fee_kobo',
  feePattern: 'fee_pattern',
  senderName: 'sender_name',
  senderAccount: 'sender_account',
  transactionTime: 'transaction_time',
  completedTime: 'completed_time',
  providerStatus: 'provider_status',
  detailsJson: 'details_json',
};

/** The baskets last read: a sale's row is read several times over its life (sent, waiting, paid), its basket never changes. */
const BASKETS_KEPT = 64;
const basketsRead = new Map<string, SoldBasket>();

/** Freezes a parsed basket all the way down: readers share it, none may change it. */
function frozen<T>(v: T): T {
  if (typeof v === 'object' && v !== null) {
    for (const x of Object.values(v)) frozen(x);
    Object.freeze(v);
  }
  return v;
}

/** A stored basket, as the journal wrote it from the engine's pricing; unreadable: none (the row reads as its film part). */
function basketOf(json: unknown): SoldBasket | undefined {
  if (typeof json !== 'string') return undefined;
  const known = basketsRead.get(json);
  if (known) return known;
  try {
    const basket = frozen(JSON.parse(json) as SoldBasket);
    if (basketsRead.size >= BASKETS_KEPT) basketsRead.delete(basketsRead.keys().next().value!);
    basketsRead.set(json, basket);
    return basket;
  } catch {
    return undefined;
  }
}

/** Is this a sale paid wholly in cash (no card order on any terminal, nothing to ask the provider)? */
export function isCashSale(rec: Pick<OrderRecord, 'basket'>): boolean {
  return rec.basket?.tender.kind === 'cash';
}

function opt<T>(v: unknown): T | undefined {
  return v === null || v === undefined ? undefined : (v as T);
}

export function toRecord(r: Row): OrderRecord {
  const rec: OrderRecord = {
    id: r.id as number,
    outOrderNo: r.out_order_no as string,
    state: r.state as OrderState,
    sale: {
      filmName: r.film_name as string,
      filmTitle: r.film_title as string,
      showDate: r.show_date as string,
      showTime: r.show_time as string,
      seats: r.seats as string,
      tickets: r.tickets as number,
      priceKobo: r.price_kobo as number,
      bookingFeeKobo: r.booking_fee_kobo as number,
      sn: r.sn as string,
    },
    amountKobo: r.amount_kobo as number,
    sn: r.sn as string,
    createdAt: r.created_at as number,
    expiresAt: r.expires_at as number,
    attempts: r.attempts as number,
    headMerchantId: r.head_merchant_id as string,
    merchantId: r.merchant_id as string,
    expireSeconds: r.expire_seconds as number,
    businessDay: r.business_day as string,
    profile: r.profile as RecordProfile,
  };
  const set = <K extends keyof OrderRecord>(k: K, v: unknown) => {
    const val = opt<OrderRecord[K]>(v);
    if (val !== undefined) rec[k] = val;
  };
  // The provider's facts, through their one column map.
  for (const [k, col] of Object.entries(FACT_COLUMNS) as [keyof ProviderFacts, string][]) set(k, r[col]);
  set('reason', r.reason);
  const basket = basketOf(r.basket_json);
  if (basket) rec.basket = basket;
  set('retryOf', r.retry_of);
  set('waitingSince', r.waiting_since);
  return rec;
}

/** The renderer's view of a record (no merchant ids, no raw details). */
export function toView(rec: OrderRecord, nextActionAt?: number): OrderView {
  const {
    headMerchantId: _h,
    merchantId: _m,
    expireSeconds: _e,
    businessDay: _b,
    waitingSince: _w,
    detailsJson: _d,
    ...view
  } = rec;
  return nextActionAt === undefined || isFinalState(rec.state) ? view : { ...view, nextActionAt };
}

/** An order's `order.status` event for the Hub: its state and the provider's numbers as they are now. */
export function statusEvent(rec: OrderRecord, note?: string) {
  return {
    reference: rec.outOrderNo,
    status: rec.state,
    ...(rec.orderNo ? { orderNo: clipText(rec.orderNo, 64) } : {}),
    ...(rec.payNo ? { payNo: clipText(rec.payNo, 64) } : {}),
    ...(note ? { note: clipText(note, 200) } : {}),
  };
}

/** The provider's numbers the Hub routes by (a notification names the order by its orderNo). */
export const learntNumbers = (before: OrderRecord, after: OrderRecord | null) =>
  after !== null && (after.orderNo !== before.orderNo || after.payNo !== before.payNo);
