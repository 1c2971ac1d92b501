// After the sale, from the counter (docs/refunds.md): cancel tickets or lines of a paid sale,
// exchange tickets to another show or seats, the refunds owed and how each was returned.
// Merged into `calls` and `events` in contract.ts; edit here, not there.
import { z } from 'zod';
import { RowId, type CallsSpec, type EventsSpec } from './contract-kit';
import { OrderViewSchema } from './orders';
import {
  CANCEL_INVALID,
  CancelRequestSchema,
  EXCHANGE_INVALID,
  ExchangePriceSchema,
  ExchangeQuoteSchema,
  ExchangeRequestSchema,
  MARK_RETURNED_INVALID,
  MarkReturnedSchema,
  RefundViewSchema,
  SaleLinksSchema,
} from './refunds';

const RefundList = z.object({ owed: z.number().int().nonnegative(), items: z.array(RefundViewSchema) });

export const refundCalls = {
  /** Cancels seats or concession lines of a paid sale (approval checked in the engine); the refunds owed it made. */
  'refunds.cancel': {
    args: CancelRequestSchema,
    result: z.object({ order: OrderViewSchema, refunds: z.array(RefundViewSchema) }),
    invalid: CANCEL_INVALID,
  },
  /** Moves tickets of a paid sale to another show or seats; `to` is the new sale (null when nothing new was charged and no new order was needed). */
  'refunds.exchange': {
    args: ExchangeRequestSchema,
    result: z.object({ from: OrderViewSchema, to: OrderViewSchema, refunds: z.array(RefundViewSchema) }),
    invalid: EXCHANGE_INVALID,
  },
  /** Card refunds still owed (oldest first), then the last returned ones and today's cash refunds. */
  'refunds.list': { args: z.object({}).strict(), result: RefundList },
  /** One sale's refunds and its links (exchanged from / to, cancelled seats). */
  'refunds.ofOrder': {
    args: z.object({ orderId: RowId }).strict(),
    result: z.object({ refunds: z.array(RefundViewSchema), links: SaleLinksSchema }),
  },
  /** Prices an exchange as the cashier picks (credit, new total, to pay or owed back); records nothing, asks no approval. */
  'refunds.priceExchange': { args: ExchangePriceSchema, result: ExchangeQuoteSchema },
  /**
   * A show cancelled by head office: its paid sales with tickets still valid (not cancelled, not in an
   * exchange waiting for its difference), oldest first, each with those seats, to refund or exchange.
   */
  'refunds.salesOfShow': {
    args: z
      .object({
        filmName: z.string().trim().min(1).max(100),
        showDate: z.string().trim().min(1).max(10),
        showTime: z.string().trim().min(1).max(5),
        /** The programme's show (two screens may play a film at one time). */
        showKey: z.string().trim().min(1).max(200).optional(),
      })
      .strict(),
    result: z.object({ sales: z.array(z.object({ order: OrderViewSchema, seats: z.array(z.string()) })) }),
  },
  /** Records how a card refund owed was given back. */
  'refunds.markReturned': { args: MarkReturnedSchema, result: RefundViewSchema, invalid: MARK_RETURNED_INVALID },
} satisfies CallsSpec;

export const refundEvents = {
  /** A refund was made or returned: the Orders screen and the status bar follow. */
  'refunds.changed': RefundList,
} satisfies EventsSpec;
