// The journal-sync events of what comes after the sale (docs/refunds.md): cancels and exchanges,
// card refunds returned, complaint cases. Part of SYNC_PAYLOADS (shared/hub-contract.ts), kept here
// so that the one list stays readable; the Hub validates with these, the counter checks its own.
import { z } from 'zod';
import { counterText as Text, Kobo } from './hub-text';

export const AFTER_SALE_SYNC_PAYLOADS = {
  /**
   * Tickets or lines of a paid sale were cancelled (or moved by an exchange): the seats are free
   * again on every counter, and each refund owed is listed until returned (docs/refunds.md).
   */
  'order.cancelled': z
    .object({
      reference: Text(64).pipe(z.string().min(1)),
      kind: z.enum(['cancel', 'exchange']),
      seats: z.array(Text(8)).max(50),
      /** The refunds owed, by tender (a split sale's cancel may owe both). */
      refunds: z
        .array(
          z
            .object({ refundNo: Text(16).pipe(z.string().min(1)), tender: z.enum(['cash', 'card']), amountKobo: Kobo })
            .strict(),
        )
        .max(2),
      reason: Text(40).pipe(z.string().min(1)),
      note: Text(200).optional(),
      approvedBy: Text(80).pipe(z.string().min(1)),
      approvedHow: z.enum(['pin', 'code']),
      /** The new sale of an exchange (its reference). */
      exchangeTo: Text(64).optional(),
    })
    .strict(),
  /** A card refund owed was given back: how, the reference, who. */
  'refund.returned': z
    .object({
      refundNo: Text(16).pipe(z.string().min(1)),
      reference: Text(64).pipe(z.string().min(1)),
      how: z.enum(['provider-reversal', 'bank-transfer', 'cash']),
      returnReference: Text(64).pipe(z.string().min(1)),
      by: Text(80).pipe(z.string().min(1)),
    })
    .strict(),
  /** A complaint case was opened at the desk ("I was debited"). */
  'case.opened': z
    .object({
      caseNo: Text(32).pipe(z.string().min(1)),
      openedBy: Text(80).pipe(z.string().min(1)),
      reference: Text(64).optional(),
      amountKobo: Kobo.optional(),
      last4: z
        .string()
        .regex(/^\d{4}$/)
        .optional(),
      truth: z.enum(['paid-tickets-given', 'paid-after-closing', 'not-paid', 'unknown']).optional(),
      /** The counter's profile when the case was opened (a Demo case is practice); absent: the counter's profile now. */
      profile: Text(32).optional(),
    })
    .strict(),
  'case.resolved': z
    .object({
      caseNo: Text(32).pipe(z.string().min(1)),
      resolution: z.enum(['tickets-given', 'refund-owed', 'not-debited']),
      by: Text(80).pipe(z.string().min(1)),
      note: Text(200).optional(),
    })
    .strict(),
} as const;
