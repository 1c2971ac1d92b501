// "Check with the provider" on a closed order (failed, expired, cancelled — or paid): one status
// query, its answer recorded (table order_checks; a payment taken after closing also as the order's
// late outcome, through the same path as a webhook's). And the rule that a retry is a query first:
// Try again starts a new sale only when the provider said the closed one was not paid.
import { AppError, isAppError } from '../../shared/errors';
import type { CheckoutRun } from './checkout-run';
import type { OrderCalls } from './order-calls';
import type { OrderRecord } from './order-journal';
import { stateForProviderStatus } from './order-state';
import type { LastCheck, ProviderCheckStore } from './provider-checks';

export type { LastCheck } from './provider-checks';

/** Why Try again is not offered for an order (e.g. a box office asked for it), or null. */
export type RetryRule = (orderId: number) => string | null;

/** A check older than this is asked again before Try again. */
const RETRY_CHECK_FRESH_MS = 60_000;

export interface ClosedCheckDeps {
  run: CheckoutRun;
  calls: Pick<OrderCalls, 'query'>;
  checks: ProviderCheckStore;
  now: () => number;
}

/**
 * One status query about closed order `rec`; the answer is recorded and returned. A payment the
 * provider reports for it is recorded as its late outcome (paid after closing). When the provider
 * cannot be asked, nothing is recorded and the error says so.
 */
export async function checkClosed(d: ClosedCheckDeps, rec: OrderRecord): Promise<LastCheck> {
  const outcome = await d.run.track(d.calls.query(rec));
  if (outcome.kind === 'error') {
    const code = isAppError(outcome.error) ? outcome.error.code : 'INTERNAL';
    const why = outcome.error instanceof Error ? outcome.error.message : String(outcome.error);
    throw new AppError(
      code,
      `Could not check ${rec.outOrderNo} with the provider (${why}). Nothing was recorded: ask again in a moment.`,
      { id: rec.id },
    );
  }
  let check: LastCheck;
  if (outcome.kind === 'missing') {
    check = { at: d.now(), providerStatus: 'NOT_FOUND', paid: false };
  } else {
    const status = String(outcome.details.status ?? '');
    check = { at: d.now(), providerStatus: status || 'UNKNOWN', paid: stateForProviderStatus(status) === 'paid' };
    d.run.noteOnClosed(rec, outcome.details, 'query');
  }
  d.checks.record(rec.id, check);
  d.run.logger.info('closed order checked with the provider', {
    orderId: rec.id,
    outOrderNo: rec.outOrderNo,
    providerStatus: check.providerStatus,
    paid: check.paid,
  });
  d.run.changed(d.run.journal.get(rec.id));
  return check;
}

/**
 * A retry is a query first: throws CONFLICT when the provider says (now, or in a check of the last
 * minute) that the closed order was paid, or when a payment after closing is recorded. An order
 * that never left the counter (0 attempts) cannot have been paid: no query.
 */
export async function assertNotPaid(d: ClosedCheckDeps, rec: OrderRecord): Promise<void> {
  const paidAfterClosing = () =>
    new AppError(
      'CONFLICT',
      'The customer was debited for this sale after it was closed: do not charge again. Hand over the tickets (print the receipt).',
      { id: rec.id },
    );
  if (d.run.late.get(rec.id)?.kind === 'paid-after-closing') throw paidAfterClosing();
  if (rec.attempts === 0) return;
  const last = d.checks.get(rec.id);
  const check = last && d.now() - last.at <= RETRY_CHECK_FRESH_MS ? last : await checkClosed(d, rec);
  if (check.paid || d.run.late.get(rec.id)?.kind === 'paid-after-closing') {
    if (d.run.late.get(rec.id)) throw paidAfterClosing();
    throw new AppError(
      'CONFLICT',
      `The provider reports ${check.providerStatus} for this sale: it may have been paid. Do not charge again; check the order.`,
      { id: rec.id },
    );
  }
}
