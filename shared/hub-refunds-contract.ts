// After the sale on the Hub (docs/hub.md "Refunds", "Complaint cases", "Approval codes"): a manager's
// one-time approval code for a branch and its redemption by a counter; the dashboard's Refunds and
// Cases views and the figures Today shows of them. Money is integer kobo; instants epoch ms. zod only.
import { z } from 'zod';
import { BranchId, Kobo, Ms } from './hub-dashboard-fields';
import { CASE_RESOLUTIONS, CASE_TRUTHS } from './cases';

// ---- approval codes ----

/** The code's letters: no look-alikes (no 0/O, 1/I/L). 31 letters, 8 of them: about 2^39 codes. */
export const APPROVAL_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const APPROVAL_CODE_TTL_MS = 15 * 60_000;
/** ABCD2345 or abcd-2345 reads as ABCD2345 (what is hashed). */
export const normalApprovalCode = (code: string): string => code.trim().toUpperCase().replace(/-/g, '');
/** ABCD2345 shown as ABCD-2345. */
export const showApprovalCode = (code: string): string => `${code.slice(0, 4)}-${code.slice(4, 8)}`;

export const APPROVAL_CODES_PATH = '/api/v1/dashboard/approval-codes';
export const IssueApprovalCodeRequestSchema = z.object({ branch: BranchId.nullable().default(null) }).strict();
export const IssuedApprovalCodeSchema = z.object({
  /** Shown once, in large type: ABCD-2345. */
  code: z.string(),
  branch: z.string(),
  issuedBy: z.string(),
  issuedAt: Ms,
  expiresAt: Ms,
});
export type IssuedApprovalCode = z.infer<typeof IssuedApprovalCodeSchema>;

export const APPROVAL_REDEEM_PATH = '/api/v1/approvals/redeem';
export const RedeemApprovalRequestSchema = z
  .object({
    code: z.string().trim().min(1).max(16),
    /** What the code approves, for the audit: e.g. "cancel COU1-261207-0004 seats F7". */
    what: z.string().trim().min(1).max(200),
  })
  .strict();
export const RedeemApprovalResponseSchema = z.object({ by: z.string() });
/** Why a code is refused (the error's details.reason). */
export const APPROVAL_REFUSALS = ['unknown', 'used', 'expired', 'other-branch'] as const;
export type ApprovalRefusal = (typeof APPROVAL_REFUSALS)[number];

// ---- refunds ----

export const RefundsQuerySchema = z.object({ branch: BranchId.optional() }).strict();
const RefundRowSchema = z.object({
  branch: z.string(),
  counterId: z.string(),
  counterName: z.string(),
  refundNo: z.string(),
  reference: z.string(),
  orderId: z.string().nullable(),
  kind: z.string(),
  tender: z.enum(['cash', 'card']),
  amountKobo: Kobo,
  seats: z.array(z.string()),
  reason: z.string(),
  note: z.string().nullable(),
  approvedBy: z.string(),
  approvedHow: z.string(),
  at: Ms,
  /** How old an owed refund is, in ms (now minus at); returned ones: how long it took. */
  ageMs: z.number().int().nonnegative(),
  returned: z
    .object({ at: Ms, how: z.string(), reference: z.string().nullable(), by: z.string().nullable() })
    .nullable(),
});
export type RefundRow = z.infer<typeof RefundRowSchema>;
const TenderSumSchema = z.object({ count: z.number().int(), amountKobo: Kobo });
export const RefundsViewSchema = z.object({
  at: Ms,
  /** Card refunds not yet returned, oldest first. */
  owed: z.array(RefundRowSchema),
  /** Per branch: how many and how much is owed, and the oldest's age. */
  owedByBranch: z.array(
    z.object({ branch: z.string(), count: z.number().int(), amountKobo: Kobo, oldestAt: Ms, oldestAgeMs: z.number() }),
  ),
  /** The latest refunds returned (cash at once, card when recorded), newest first. */
  returned: z.array(RefundRowSchema),
  /** Refunds paid (returned), by tender, over the same rows' whole history in scope. */
  paidByTender: z.object({ cash: TenderSumSchema, card: TenderSumSchema }),
});
export type RefundsView = z.infer<typeof RefundsViewSchema>;

// ---- complaint cases ----

export const CasesQuerySchema = z.object({ branch: BranchId.optional() }).strict();
const CaseRowSchema = z.object({
  branch: z.string(),
  counterId: z.string(),
  counterName: z.string(),
  caseNo: z.string(),
  openedBy: z.string(),
  openedAt: Ms,
  reference: z.string().nullable(),
  amountKobo: Kobo.nullable(),
  last4: z.string().nullable(),
  truth: z.enum(CASE_TRUTHS).nullable(),
  resolution: z.enum(CASE_RESOLUTIONS).nullable(),
  resolvedBy: z.string().nullable(),
  resolvedAt: Ms.nullable(),
  note: z.string().nullable(),
  ageMs: z.number().int().nonnegative(),
  /** caseAge (shared/cases.ts): open 48 h flagged, 72 h overdue; resolved ones by how long they took. */
  age: z.enum(['fresh', 'flagged', 'overdue']),
});
export type CaseRow = z.infer<typeof CaseRowSchema>;
export const CasesViewSchema = z.object({
  at: Ms,
  /** Open cases, oldest first. */
  open: z.array(CaseRowSchema),
  openByBranch: z.array(
    z.object({
      branch: z.string(),
      open: z.number().int(),
      flagged: z.number().int(),
      overdue: z.number().int(),
      oldestAt: Ms,
    }),
  ),
  /** The latest resolved cases, newest first. */
  resolved: z.array(CaseRowSchema),
});
export type CasesView = z.infer<typeof CasesViewSchema>;

/** What Today shows of refunds and cases: figures the store computed (screens never add money). */
export const AfterSaleFiguresSchema = z.object({
  /** Card refunds not yet returned (now, whatever the day). */
  owedCount: z.number().int(),
  owedKobo: Kobo,
  /** Refunds paid on the day: cash out of the drawer when made, card when recorded returned. */
  paidCashCount: z.number().int(),
  paidCashKobo: Kobo,
  paidCardCount: z.number().int(),
  paidCardKobo: Kobo,
  /** Open complaint cases (now), of them flagged (48 h) and overdue (72 h). */
  openCases: z.number().int(),
  flaggedCases: z.number().int(),
  overdueCases: z.number().int(),
});
export type AfterSaleFigures = z.infer<typeof AfterSaleFiguresSchema>;
