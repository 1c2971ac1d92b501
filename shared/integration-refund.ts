// The box office's refund request (docs/integration.md, "Cancel tickets of a paid charge"): part of
// the integration's wire (shared/integration.ts re-exports it), kept apart for its size. zod only.
import { z } from 'zod';
import { ApprovalSchema, UndoReason } from './refunds';
import { SEAT_LABEL_RE } from './seat-list';

/**
 * `POST /v1/charges/{reference}/refund`: cancels tickets of a paid charge (the customer cancelled,
 * the show was cancelled). `seats` left out: every seat still valid. A supervisor's approval is
 * needed as at the counter: a manager's one-time approval code from the Hub (or the counter's admin
 * PIN, typed by the supervisor; wrong PINs lock it as at the counter).
 */
export const ChargeRefundRequestSchema = z
  .object({
    seats: z
      .array(
        z
          .string()
          .trim()
          .toUpperCase()
          .refine((v) => SEAT_LABEL_RE.test(v), 'A seat is letters and digits only, for example F7'),
      )
      .max(50)
      .optional(),
    reason: UndoReason,
    note: z.string().trim().max(200, 'At most 200 characters').optional(),
    approval: ApprovalSchema,
  })
  .strict();
export type ChargeRefundRequest = z.input<typeof ChargeRefundRequestSchema>;
