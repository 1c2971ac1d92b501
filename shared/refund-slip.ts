// The refund slip: what the customer takes away when tickets or lines of a paid sale are cancelled,
// or an exchange to a cheaper show gives money back (docs/refunds.md). One slip per refund owed; it
// names the original sale, what went back, by which tender, and for card money still owed that it
// is owed (with its refund number to quote). Printed as its own print job (kind `refund-slip`).
import { z } from 'zod';
import { REFUND_TENDERS, RefundReturnedSchema } from './refunds';

export const RefundSlipSchema = z.object({
  refundId: z.number().int().positive(),
  refundNo: z.string(),
  kind: z.enum(['cancel', 'exchange']),
  /** The original sale. */
  orderId: z.number().int().positive(),
  outOrderNo: z.string(),
  /** The film and show of the original sale ('' for a sale without tickets). */
  filmTitle: z.string(),
  show: z.string(),
  seats: z.array(z.string()),
  lines: z.array(z.object({ name: z.string(), quantity: z.number().int(), amountKobo: z.number().int() })),
  tender: z.enum(REFUND_TENDERS),
  amountKobo: z.number().int().positive(),
  reason: z.string(),
  note: z.string(),
  approvedBy: z.string(),
  cashier: z.string(),
  at: z.number(),
  returned: RefundReturnedSchema.nullable(),
  /** The new sale of an exchange. */
  exchangeOutOrderNo: z.string().optional(),
  cinemaName: z.string(),
  counterName: z.string(),
  demo: z.boolean(),
  reprint: z.boolean(),
});
export type RefundSlip = z.infer<typeof RefundSlipSchema>;
