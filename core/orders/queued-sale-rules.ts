// What a queued sale may do besides wait: go, or end unsent. It is bound to a terminal when it is
// sent: it goes only while the counter charges on its terminal (`terminalSn()`; null: none known
// just now, so it waits), and ends (cancelled, TERMINAL_CHANGED) once the counter charges on another
// (no `terminalSn`: not checked); it expires when too late to send.
import { TERMINAL_CHANGED } from '../../shared/orders';
import { terminalChanged } from './charge-guard';
import type { CheckoutRun } from './checkout-run';
import type { CheckoutDeps } from './checkout-deps';
import { REASONS } from './order-decisions';
import type { OrderRecord } from './order-journal';

export function queuedSaleRules(run: CheckoutRun, terminalSn: CheckoutDeps['terminalSn']) {
  const { journal, logger } = run;
  return {
    mayGo: (rec: OrderRecord): boolean => {
      if (!terminalSn) return true;
      const now = terminalSn();
      return now !== null && !terminalChanged(rec, now);
    },
    withdraw: (rec: OrderRecord): boolean => {
      const now = terminalSn?.() ?? null;
      if (!terminalChanged(rec, now)) return false;
      const reason = `${TERMINAL_CHANGED}: it was asked for terminal ${rec.sn}, and the counter charges on ${now} now. Nothing was charged; ask for it again.`;
      const r = journal.transition(
        rec.id,
        'cancelled',
        `Not sent: the counter changed terminals (${rec.sn} → ${now})`,
        {
          from: ['queued'],
          patch: { reason },
        },
      );
      if (!r.changed) return false;
      logger.warn('queued sale not sent: the counter changed terminals', {
        orderId: rec.id,
        outOrderNo: rec.outOrderNo,
        askedFor: rec.sn,
        now,
      });
      run.changed(r.record);
      return true;
    },
    /** Ends a queued sale too late to send (it would expire before it could be paid). */
    expire: (rec: OrderRecord): void => {
      const r = journal.transition(
        rec.id,
        'expired',
        'Too late to send: the sale would expire before it could be paid',
        {
          from: ['queued'],
          patch: { reason: REASONS.expiredUnsent },
        },
      );
      if (!r.changed) return;
      logger.warn('queued sale expired before it could be sent', { orderId: rec.id, outOrderNo: rec.outOrderNo });
      run.changed(r.record);
    },
  };
}
