// Webhook delivery checks: this part of the one contract. The provider is asked what happened when
// it sent a paid order's notification to our webhook receiver (its deposit callback record).
// Merged into `calls` in contract.ts; edit here, not there.
import { z } from 'zod';
import { Empty, type CallsSpec } from './contract-kit';

/**
 * delivered: the receiver answered 2xx. refused: it answered, with another HTTP status.
 * not-delivered: no HTTP answer recorded (no attempt yet, or the connection failed).
 * not-registered: the provider has no webhook address for this merchant.
 */
const DELIVERY_OUTCOMES = ['delivered', 'refused', 'not-delivered', 'not-registered'] as const;
export const DeliveryOutcome = z.enum(DELIVERY_OUTCOMES);
export type DeliveryOutcome = z.infer<typeof DeliveryOutcome>;

const DeliveryCheckSchema = z.object({
  orderId: z.number().int().positive(),
  outOrderNo: z.string(),
  /** The provider's order number the question was asked with. */
  orderNo: z.string(),
  outcome: DeliveryOutcome,
  /** As the provider reported it: a three-digit HTTP status, or '' when there was none. */
  httpCode: z.string(),
  /** The provider's text about the last attempt (our receiver's answer, or why nothing was sent); at most 300 characters. */
  httpMessage: z.string(),
  /** One line for the admin: "HTTP 200: our receiver accepted it", "Not delivered: …". */
  summary: z.string(),
  /** When our own receiver recorded this order's notification, if it did. */
  receivedHereAt: z.number().nullable(),
  checkedAt: z.number(),
});
export type DeliveryCheck = z.infer<typeof DeliveryCheckSchema>;

export const deliveryCalls = {
  /** Asks the provider how its notification of this order reached our webhook receiver. */
  'delivery.check': { args: z.object({ orderId: z.number().int().positive() }).strict(), result: DeliveryCheckSchema },
  /** The same, for the newest paid order of the active profile (Settings → Webhook receiver). */
  'delivery.checkLastPaid': { args: Empty, result: DeliveryCheckSchema, admin: true },
} satisfies CallsSpec;
