// "I was debited": the complaint desk, from the counter (docs/refunds.md). Find the payment by what
// the customer knows, the provider's truth about each candidate, and the case recorded for it.
// Merged into `calls` and `events` in contract.ts; edit here, not there.
import { z } from 'zod';
import { RowId, type CallsSpec, type EventsSpec } from './contract-kit';
import { PrintJobViewSchema } from './records';
import { CASE_RESOLUTIONS, CASE_TRUTHS, CaseViewSchema, ComplaintSearchSchema } from './cases';

export const CaseCandidateSchema = z.object({
  orderId: z.number().int().nullable(),
  outOrderNo: z.string(),
  /** Where it was found: this counter's journal, or the branch's on the Hub (another counter). */
  where: z.enum(['this-counter', 'branch']),
  counterName: z.string(),
  sn: z.string(),
  amountKobo: z.number().int(),
  createdAt: z.number(),
  filmTitle: z.string(),
  seats: z.string(),
  /** Masked: only the last four digits. */
  senderAccount: z.string().optional(),
  state: z.string(),
});
export type CaseCandidate = z.infer<typeof CaseCandidateSchema>;

export const CaseCheckSchema = z.object({
  candidate: CaseCandidateSchema,
  truth: z.enum(CASE_TRUTHS),
  /** The one line the cashier reads, with the provider's answer and time as proof. */
  line: z.string(),
  providerStatus: z.string().nullable(),
  askedAt: z.number(),
});
export type CaseCheck = z.infer<typeof CaseCheckSchema>;

const CASE_INVALID = 'Check the case: some fields need fixing';

export const caseCalls = {
  /** Candidates for what the customer says, newest first (this counter, and the branch's with a Hub). */
  'cases.search': {
    args: ComplaintSearchSchema,
    result: z.object({ candidates: z.array(CaseCandidateSchema), searchedBranch: z.boolean() }),
    invalid: CASE_INVALID,
  },
  /** Asks the provider about one candidate and says the truth in one line. */
  'cases.check': { args: z.object({ outOrderNo: z.string().min(1).max(64) }).strict(), result: CaseCheckSchema },
  /** Records a case (with what was found, if anything). */
  'cases.open': {
    args: z
      .object({
        search: ComplaintSearchSchema,
        customer: z.string().trim().max(80).default(''),
        outOrderNo: z.string().max(64).optional(),
        openedBy: z.string().trim().min(1, 'Enter your name').max(80),
      })
      .strict(),
    result: CaseViewSchema,
    invalid: CASE_INVALID,
  },
  'cases.resolve': {
    args: z
      .object({
        id: RowId,
        resolution: z.enum(CASE_RESOLUTIONS),
        by: z.string().trim().min(1, 'Enter your name').max(80),
        note: z.string().trim().max(200).default(''),
      })
      .strict(),
    result: CaseViewSchema,
    invalid: CASE_INVALID,
  },
  'cases.list': {
    args: z.object({}).strict(),
    result: z.object({ open: z.number().int().nonnegative(), items: z.array(CaseViewSchema) }),
  },
  /** Prints the customer's case slip (the case number, what was found, the 72-hour promise). */
  'cases.printSlip': { args: z.object({ id: RowId }).strict(), result: PrintJobViewSchema },
} satisfies CallsSpec;

export const caseEvents = {
  'cases.changed': z.object({ open: z.number().int().nonnegative() }),
} satisfies EventsSpec;
