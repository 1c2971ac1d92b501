// Completing a payment after closing: the provider's notification carries no payment number (its
// query does), so a late outcome recorded from a webhook or the Hub's relay is completed by one
// status query (retried a few times), the way a paid order's receipt details are
// (final-details.ts). Its payment number then shows on the alert, the panel, the order detail, the
// receipt and, through a repeat of `order.late` with the full facts, on the Hub's order page.
import type { Logger } from '../../shared/logger';
import type { PosClient } from '../provider';
import type { Timers } from '../lib';
import type { CheckoutRun } from './checkout-run';
import { errorDelay } from './poll-schedule';

export interface LateDetailsDeps {
  run: CheckoutRun;
  getPos: () => PosClient;
  timers: Timers;
  logger: Logger;
  now: () => number;
  attempts?: number;
}

/** Asks the provider for the payment number of an order's payment after closing, if it lacks one. */
export function fetchLateDetails(d: LateDetailsDeps, id: number, attempt = 1): void {
  const { run } = d;
  if (run.stopped) return;
  const rec = run.journal.get(id);
  const late = rec ? run.late.get(id) : null;
  if (!rec || !late || late.kind !== 'paid-after-closing' || late.payNo !== undefined) return;
  void run.track(
    (async () => {
      try {
        const details = await d
          .getPos()
          .queryOrder(rec.orderNo ? { orderNo: rec.orderNo } : { outOrderNo: rec.outOrderNo });
        if (!details || run.stopped) return;
        if (run.late.fillDetails(rec, details, d.now())) {
          run.changed(rec);
          run.events.emit('late', { orderId: id });
        }
      } catch (err) {
        if (attempt >= (d.attempts ?? 8) || run.stopped) {
          d.logger.warn('could not learn the payment number of a payment after closing', {
            orderId: id,
            error: String(err),
          });
          return;
        }
        d.timers.setTimeout(
          () => fetchLateDetails(d, id, attempt + 1),
          errorDelay(attempt, { errorBaseMs: 1_000, errorMaxMs: 10_000 }),
        );
      }
    })(),
  );
}
