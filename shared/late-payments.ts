// A provider outcome that contradicts an order the counter already closed — above all a payment
// taken after the order was closed ("debited, but the screen said failed"). Modelled as a flag on
// the final order with its own history (docs/late-payments.md says why): the order's state never
// changes again; the late outcome, and how it was handled, are recorded beside it. zod only.
import { z } from 'zod';
import { formatNaira } from './money';
import { formatLagosTime } from './time';

/**
 * `paid-after-closing`: the provider took the money for an order the counter closed as failed,
 * cancelled or expired. `reported-otherwise`: the provider later reports a paid order as not paid.
 */
export const LATE_KINDS = ['paid-after-closing', 'reported-otherwise'] as const;
export const LateKind = z.enum(LATE_KINDS);
export type LateKind = z.infer<typeof LateKind>;

/** Where the counter heard it. */
export const LATE_SOURCES = ['webhook', 'relay', 'query', 'sweep'] as const;
export const LateSource = z.enum(LATE_SOURCES);
export type LateSource = z.infer<typeof LateSource>;

/** How the cashier settled it with the customer. */
export const HANDLED_HOWS = ['tickets-given', 'refund'] as const;
export const HandledHow = z.enum(HANDLED_HOWS);
export type HandledHow = z.infer<typeof HandledHow>;
export const HANDLED_HOW_LABELS: Record<HandledHow, string> = {
  'tickets-given': 'Tickets given to the customer',
  refund: 'Customer gone: refund to be arranged',
};

const LateHandledSchema = z.object({
  how: HandledHow,
  by: z.string(),
  at: z.number(),
  note: z.string().optional(),
});

export const LateOutcomeSchema = z.object({
  kind: LateKind,
  /** The provider's status word now (SUCCESS, FAIL, ...). */
  providerStatus: z.string(),
  /** The order's (final) state when the provider's word came. */
  closedAs: z.string(),
  /** What the provider reports it took (or no longer took), in kobo: the order's amount, checked to the kobo. */
  amountKobo: z.number().int(),
  payNo: z.string().optional(),
  /** Always masked: at most the last four digits show. */
  senderAccount: z.string().optional(),
  /** When the provider says it happened (its completedTime), if it said. */
  providerAt: z.number().optional(),
  /** When the counter learnt it. */
  foundAt: z.number(),
  source: LateSource,
  handled: LateHandledSchema.nullable(),
});
export type LateOutcome = z.infer<typeof LateOutcomeSchema>;

/**
 * The one time of a late outcome, everywhere it is shown or counted (alert, detail, receipt, X/Z,
 * CSV, the Hub): when the provider took the money, as it said; when it did not say, when the
 * counter learnt it.
 */
export function lateAt(late: Pick<LateOutcome, 'providerAt' | 'foundAt'>): number {
  return late.providerAt ?? late.foundAt;
}

/** One unhandled (or recently handled) late outcome, as the alert and the Orders filter list it. */
const LateItemSchema = z.object({
  orderId: z.number().int(),
  outOrderNo: z.string(),
  filmTitle: z.string(),
  late: LateOutcomeSchema,
});
export type LateItem = z.infer<typeof LateItemSchema>;

export const LateListSchema = z.object({ unhandled: z.number().int().nonnegative(), items: z.array(LateItemSchema) });
export type LateList = z.infer<typeof LateListSchema>;

export const MarkLateHandledSchema = z
  .object({
    id: z.number().int().positive(),
    how: HandledHow,
    by: z.string().trim().min(1, 'Enter who handled it').max(80, 'At most 80 characters'),
    note: z.string().trim().max(200, 'At most 200 characters').optional(),
  })
  .strict();
export type MarkLateHandled = z.infer<typeof MarkLateHandledSchema>;
export const MARK_HANDLED_INVALID = 'Say how it was handled and who handled it';

/** The reconciliation sweep's last pass. */
export const SweepResultSchema = z.object({
  at: z.number(),
  /** Closed orders asked about again. */
  checked: z.number().int().nonnegative(),
  /** Of those, found paid after closing in this pass. */
  paidAfterClosing: z.number().int().nonnegative(),
  /** Orders the provider could not be asked about (unreachable), or that are still unknown. */
  unknown: z.array(
    z.object({ id: z.number().int(), outOrderNo: z.string(), amountKobo: z.number().int(), what: z.string() }),
  ),
  /** Set when the pass stopped early (provider unreachable, app stopping). */
  incomplete: z.string().nullable(),
});
export type SweepResult = z.infer<typeof SweepResultSchema>;

/** The order's late outcome in words a cashier can act on. */
export function lateOutcomeText(late: LateOutcome): string {
  const when = formatLagosTime(lateAt(late));
  const pay = late.payNo ? ` (payment ${late.payNo})` : '';
  if (late.kind === 'paid-after-closing') {
    return (
      `Paid after it was closed: ${formatNaira(late.amountKobo)} was taken from the customer's card at ${when}${pay}. ` +
      'If the customer is still here, hand over the tickets (print the receipt); if not, keep this for the refund.'
    );
  }
  return (
    `The provider now reports this paid order as ${late.providerStatus} (at ${when}). Do not hand over more tickets for it; ` +
    'ask the manager to check it with the provider.'
  );
}
