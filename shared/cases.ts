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

/** How far either side of `around` the desk looks ("roughly when"). */
export const CASE_AROUND_MS = 3 * 3_600_000;
/** At most this many candidates in one answer (this counter's and the branch's each). */
export const CASE_MAX_CANDIDATES = 50;

/** The case number printed for the customer: this counter's code, C and a 4-digit sequence ("COU1-C0007"). */
export function caseNumber(code: string, seq: number): string {
  const n = `C${String(seq).padStart(4, '0')}`;
  return code ? `${code}-${n}` : n;
}

/** The digits a masked account ends with ("539983******4321" → "4321"), or null when it shows fewer than four. */
export function lastFourOf(account: string | undefined | null): string | null {
  const digits = (account ?? '').replace(/\D/g, '');
  const m = /(\d{4})$/.exec((account ?? '').trim());
  return m && digits.length >= 4 ? (m[1] ?? null) : null;
}

/** What a sale offers the desk's search rules (shared by the counter's journal and the Hub's branch search). */
export interface ComplaintFacts {
  createdAt: number;
  /** The card order's amount (the card part). */
  amountKobo: number;
  /** The whole basket's (what the customer paid, cash part included). */
  totalKobo: number;
  sn: string;
  /** Masked; absent while the provider has not said which card paid. */
  senderAccount?: string | undefined;
}

/** The window the desk looks in: `around` ± 3 h when given, never before `since`; `until` is now. */
export function complaintWindow(s: z.output<typeof ComplaintSearchSchema>, now: number): { from: number; to: number } {
  const since = now - (s.sinceMs ?? CASE_SEARCH_DEFAULT_MS);
  if (s.around === undefined) return { from: since, to: now };
  return { from: Math.max(since, s.around - CASE_AROUND_MS), to: Math.min(now, s.around + CASE_AROUND_MS) };
}

/**
 * Does a sale fit what the customer says? In the window; the amount is its card amount or its
 * basket total; the terminal, when named, is its terminal; the last four, when given, are its card's —
 * or its card is not known yet (a sale the counter closed before the provider took the money has
 * none) and the amount was given too, so the provider is asked about it. The last four alone find
 * only sales whose card is known.
 */
export function fitsComplaint(f: ComplaintFacts, s: z.output<typeof ComplaintSearchSchema>, now: number): boolean {
  const w = complaintWindow(s, now);
  if (f.createdAt < w.from || f.createdAt > w.to) return false;
  if (s.amountKobo !== undefined && f.amountKobo !== s.amountKobo && f.totalKobo !== s.amountKobo) return false;
  if (s.sn && f.sn.trim().toUpperCase() !== s.sn.trim().toUpperCase()) return false;
  if (s.last4 !== undefined) {
    const card = lastFourOf(f.senderAccount);
    if (card !== null) return card === s.last4;
    return s.amountKobo !== undefined;
  }
  return true;
}

/** The truth from the provider's status word about a sale, and what the counter knows of it. */
export function caseTruthOf(
  providerStatus: string | null,
  sale: { state: string | null; paidAfterClosing: boolean },
): CaseTruth {
  if (providerStatus === null) return 'unknown';
  const word = providerStatus.toUpperCase();
  if (word === 'SUCCESS')
    return sale.state === 'paid' && !sale.paidAfterClosing ? 'paid-tickets-given' : 'paid-after-closing';
  if (word === 'FAIL' || word === 'CLOSE' || word === 'CANCEL' || word === 'NOT_FOUND' || word === 'NOT_SENT')
    return 'not-paid';
  return 'unknown';
}

/** What the customer's slip says (a print job's payload: kept as it was when printed). */
export const CaseSlipSchema = z.object({
  caseNo: z.string(),
  openedAt: z.number(),
  openedBy: z.string(),
  /** What was found, in one line or two ("Sale COU1-261207-0003, ₦4,000.00: Paid after closing…"). */
  found: z.array(z.string()),
  cinemaName: z.string(),
  counterName: z.string(),
  demo: z.boolean(),
});
export type CaseSlip = z.infer<typeof CaseSlipSchema>;

/** The complaint cases of a report's window (counts, not money): opened in it, and still open at its end. */
export const CaseCountsSchema = z.object({ opened: z.number().int(), stillOpen: z.number().int() });
export type CaseCounts = z.infer<typeof CaseCountsSchema>;

/** The records module's port onto the cases (wired in core/app-core.ts): a window's counts, Demo cases only in a Demo shift. */
export interface CaseCountsPort {
  counts(from: number, to: number, excludeDemo: boolean): CaseCounts;
}

export const CASES_HEADING = 'Complaint cases';

/** The cases' lines, with the CSV's keys: the same printed and in the CSV. */
export const caseCountRows = (c: CaseCounts): { key: string; label: string; count: number }[] => [
  { key: 'opened', label: 'Cases opened', count: c.opened },
  { key: 'still_open', label: 'Cases still open at the end', count: c.stillOpen },
];

/** A report shows the cases' section once there is one to show (kept reports before the desk: none). */
export const hasCases = (c: CaseCounts | undefined): c is CaseCounts => !!c && (c.opened > 0 || c.stillOpen > 0);
