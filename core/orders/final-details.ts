// Completing a paid order's details: a webhook settles the order at once but carries no payNo,
// so one status query (retried a few times) fills what is missing, without changing anything else.
import type { Logger } from '../../shared/logger';
import type { PosClient } from '../provider';
import type { OrderJournal, OrderRecord } from './order-journal';
import { stateForProviderStatus } from './order-state';
import { errorDelay } from './poll-schedule';
import { detailsMismatch, factsFromDetails } from './sale-wire';
import type { Timers } from '../lib';

export interface FinalDetailsDeps {
  journal: OrderJournal;
  getPos: () => PosClient;
  timers: Timers;
  logger: Logger;
  changed: (rec: OrderRecord | null) => void;
  track: <T>(p: Promise<T>) => Promise<T>;
  isStopped: () => boolean;
  attempts?: number;
}

/** True when a final order lacks details a receipt needs. */
function needsFinalDetails(rec: OrderRecord): boolean {
  return rec.state === 'paid' && (rec.payNo === undefined || rec.completedTime === undefined);
}

export function fetchFinalDetails(d: FinalDetailsDeps, id: number, attempt = 1): void {
  if (d.isStopped()) return;
  const rec = d.journal.get(id);
  if (!rec || !needsFinalDetails(rec)) return;
  void d.track(
    (async () => {
      try {
        const details = await d
          .getPos()
          .queryOrder(rec.orderNo ? { orderNo: rec.orderNo } : { outOrderNo: rec.outOrderNo });
        if (!details || detailsMismatch(rec, details) || stateForProviderStatus(details.status) !== rec.state) return;
        const r = d.journal.fillMissing(id, rec.state, factsFromDetails(details));
        if (r.changed) d.changed(r.record);
      } catch (err) {
        if (attempt >= (d.attempts ?? 8) || d.isStopped()) {
          d.logger.warn('could not complete the details of a paid order', { orderId: id, error: String(err) });
          return;
        }
        d.timers.setTimeout(
          () => fetchFinalDetails(d, id, attempt + 1),
          errorDelay(attempt, { errorBaseMs: 1_000, errorMaxMs: 10_000 }),
        );
      }
    })(),
  );
}
