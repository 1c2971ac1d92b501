// What a closed sale offers the cashier, the same on the Sell panel and the order detail
// (docs/late-payments.md, docs/cashier-guide.md):
// - paid after closing (the provider took the money after the counter closed it): a paid sale —
//   its payment number and time (lateAt), Tickets given / Refund to be arranged, Print receipt;
//   never Try again, never the closed order's own card time or provider word;
// - closed unpaid (failed, cancelled, expired): the main action is Check with the provider
//   (`orders.checkNow`, one status query whose answer the engine records as `lastCheck`); Try again
//   (`orders.retry`) only once that check said not paid.
// Pure, so it is tested without a screen (test/unit/renderer/closed-order.test.ts).
import { ORDER_STATE_LABELS, type OrderState, type OrderView } from '../../../shared/orders';
import { lateAt, type LateOutcome } from '../../../shared/late-payments';
import { formatLagosDateTime, formatLagosTime } from '../format';

/** The heading of a sale paid after closing, on the panel, the detail and the receipt. */
export const PAID_AFTER_CLOSING = 'Paid after closing';

const CLOSED_UNPAID: readonly OrderState[] = ['failed', 'cancelled', 'expired'];

/** The late outcome when it is money taken after closing, else null. */
export function paidAfterClosing(o: Pick<OrderView, 'late'>): LateOutcome | null {
  return o.late?.kind === 'paid-after-closing' ? o.late : null;
}

export type ClosedStep =
  /** Not a closed unpaid sale (open, paid, or paid after closing): none of these actions. */
  | { kind: 'none' }
  /** Closed unpaid, not yet checked: Check with the provider is the main action; no Try again. */
  | { kind: 'check' }
  /** Checked: the provider's answer in words; Try again only when it said not paid. */
  | { kind: 'checked'; answer: string; retry: boolean };

/** What a closed sale offers: see the file's head. */
export function closedStep(o: Pick<OrderView, 'state' | 'late' | 'lastCheck'>): ClosedStep {
  if (!CLOSED_UNPAID.includes(o.state) || paidAfterClosing(o)) return { kind: 'none' };
  if (!o.lastCheck) return { kind: 'check' };
  return { kind: 'checked', answer: checkAnswerText(o.lastCheck), retry: !o.lastCheck.paid && !o.late };
}

/**
 * "The provider says not paid at 21:04.": the last Check with the provider, in cashier words.
 * @internal for tests
 */
export function checkAnswerText(c: NonNullable<OrderView['lastCheck']>): string {
  const at = formatLagosTime(c.at);
  if (c.paid)
    return `The provider says paid at ${at}: the money was taken after this sale closed. Do not charge again.`;
  if (c.providerStatus === 'NOT_FOUND') return `The provider says not paid at ${at}: it has no payment for this sale.`;
  return `The provider says not paid at ${at} (${c.providerStatus}).`;
}

/**
 * The facts of a sale paid after closing, in place of the closed order's own: when the money was
 * taken (lateAt: the one time of a late payment everywhere), the payment number, the card, and
 * what the counter had closed it as.
 */
export function latePaidFacts(late: LateOutcome): [string, string | undefined][] {
  const closedAs = ORDER_STATE_LABELS[late.closedAs as OrderState] ?? late.closedAs;
  return [
    ['Paid at', formatLagosDateTime(lateAt(late))],
    ['Payment number', late.payNo],
    ['Card', late.senderAccount],
    ['Closed on the counter as', closedAs],
  ];
}
