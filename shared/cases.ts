// "I was debited": the complaint desk (docs/refunds.md). The cashier finds the customer's payment by
// what they know (the card's last four digits, the amount, roughly when, the terminal), the counter
// asks the provider about each candidate and says the truth in one line, and records a **case** with
// a number printed for the customer. The Central Bank expects a disputed POS debit resolved within
// 72 hours: a case open 48 h is flagged, 72 h is overdue. Pure model and wire shapes. zod only.
import { z } from 'zod';
import { RowId } from './contract-kit';

export const CASE_FLAG_MS = 48 * 3_600_000;
export const CASE_OVERDUE_MS = 72 * 3_600_000;
/** How far back the desk looks unless asked for more. */
export const CASE_SEARCH_DEFAULT_MS = 72 * 3_600_000;

export function caseAge(openedAt: number, now: number): 'fresh' | 'flagged' | 'overdue' {
  const age = now - openedAt;
  return age >= CASE_OVERDUE_MS ? 'overdue' : age >= CASE_FLAG_MS ? 'flagged' : 'fresh';
}

export const ComplaintSearchSchema = z
  .object({
    last4: z
      .string()
      .trim()
      .regex(/^\d{4}$/, "The card's last four digits are four digits")
      .optional(),
    amountKobo: z.number().int().positive().optional(),
    /** Roughly when (ms); the desk looks a few hours either side. */
    around: z.number().int().nonnegative().optional(),
    sn: z.string().trim().max(64).optional(),
    /** Look back further than 72 hours. */
    sinceMs: z.number().int().positive().optional(),
  })
  .strict()
  .refine((s) => s.last4 !== undefined || s.amountKobo !== undefined, {
    path: ['amountKobo'],
    message: "Enter the amount or the card's last four digits",
  });
export type ComplaintSearch = z.input<typeof ComplaintSearchSchema>;

/** The one-line truth about a candidate payment, after asking the provider. */
export const CASE_TRUTHS = ['paid-tickets-given', 'paid-after-closing', 'not-paid', 'unknown'] as const;
export type CaseTruth = (typeof CASE_TRUTHS)[number];
export const CASE_TRUTH_LABELS: Record<CaseTruth, string> = {
  'paid-tickets-given': 'Paid and tickets given',
  'paid-after-closing': 'Paid after closing: hand over the tickets',
  'not-paid': 'Not paid: nothing was taken by this merchant',
  unknown: 'The provider could not be asked: try again',
};

export const CASE_RESOLUTIONS = ['tickets-given', 'refund-owed', 'not-debited'] as const;
export type CaseResolution = (typeof CASE_RESOLUTIONS)[number];
export const CASE_RESOLUTION_LABELS: Record<CaseResolution, string> = {
  'tickets-given': 'Tickets given',
  'refund-owed': 'Refund owed',
  'not-debited': 'Not debited by this merchant',
};

export const CaseViewSchema = z.object({
  id: RowId,
  /** Printed on the customer's slip: this counter's code, C and a sequence, e.g. LAG1-C0007. */
  caseNo: z.string(),
  openedAt: z.number(),
  openedBy: z.string(),
  /** What the customer said. */
  search: z.object({
    last4: z.string().optional(),
    amountKobo: z.number().optional(),
    around: z.number().optional(),
    sn: z.string().optional(),
  }),
  customer: z.string(),
  orderId: z.number().int().nullable(),
  outOrderNo: z.string().nullable(),
  truth: z.enum(CASE_TRUTHS).nullable(),
  /** The provider's answer as proof: its status word and when the counter asked. */
  proof: z.object({ providerStatus: z.string(), askedAt: z.number() }).nullable(),
  resolution: z.enum(CASE_RESOLUTIONS).nullable(),
  resolvedBy: z.string().nullable(),
  resolvedAt: z.number().nullable(),
  note: z.string(),
});
export type CaseView = z.infer<typeof CaseViewSchema>;
