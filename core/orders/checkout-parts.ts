// The checkout's parts, built once and wired to each other (they call each other back only once
// all are built): the journal, the run they share, the connectivity monitor, the queue sender, the
// poller, the provider calls, and the lookups every door uses.
import { AppError } from '../../shared/errors';
import type { PosClient, PosOrderDetails } from '../provider';
import { NO_JOURNAL_SINK } from '../journal-sink';
import { systemTimers } from '../lib';
import { TokenBucket } from '../../shared/token-bucket';
import { CheckoutRun } from './checkout-run';
import { resolveTuning } from './checkout-tuning';
import { ConnectivityMonitor } from './connectivity';
import type { FinalDetailsDeps } from './final-details';
import type { LateDetailsDeps } from './late-details';
import { OrderCalls } from './order-calls';
import { REASONS } from './order-decisions';
import { OrderJournal, type OrderRecord } from './order-journal';
import { isFinalState } from './order-state';
import { LateOutcomeStore } from './late-outcomes';
import { Poller } from './poller';
import { QueueSender } from './queue-sender';
import { RelayFollower } from './relay-follower';
import { canSendQueued, terminalChanged } from './charge-guard';
import type { ClosedCheckDeps } from './closed-check';
import { ProviderCheckStore } from './provider-checks';
import type { CheckoutDeps } from './checkout-deps';
import { CheckoutSeats } from './checkout-seats';
import { TERMINAL_CHANGED, type OrderView } from '../../shared/orders';

/**
 * What a queued sale may do besides wait: go, or end unsent. It is bound to a terminal when it is
 * sent: it goes only while the counter charges on its terminal (`sn()`; null: none known just now,
 * so it waits), and ends (cancelled, TERMINAL_CHANGED) once the counter charges on another (no
 * `sn`: not checked); it expires when too late to send.
 */
function queuedSaleRules(
  d: { journal: OrderJournal; logger: CheckoutDeps['logger']; changed: (rec: OrderRecord | null) => void },
  sn: CheckoutDeps['terminalSn'],
) {
  return {
    mayGo: (rec: OrderRecord): boolean => {
      if (!sn) return true;
      const now = sn();
      return now !== null && !terminalChanged(rec, now);
    },
    withdraw: (rec: OrderRecord): boolean => {
      const now = sn?.() ?? null;
      if (!terminalChanged(rec, now)) return false;
      const reason = `${TERMINAL_CHANGED}: it was asked for terminal ${rec.sn}, and the counter charges on ${now} now. Nothing was charged; ask for it again.`;
      const r = d.journal.transition(
        rec.id,
        'cancelled',
        `Not sent: the counter changed terminals (${rec.sn} → ${now})`,
        {
          from: ['queued'],
          patch: { reason },
        },
      );
      if (!r.changed) return false;
      d.logger.warn('queued sale not sent: the counter changed terminals', {
        orderId: rec.id,
        outOrderNo: rec.outOrderNo,
        askedFor: rec.sn,
        now,
      });
      d.changed(r.record);
      return true;
    },
    /** Ends a queued sale too late to send (it would expire before it could be paid). */
    expire: (rec: OrderRecord): void => {
      const r = d.journal.transition(
        rec.id,
        'expired',
        'Too late to send: the sale would expire before it could be paid',
        {
          from: ['queued'],
          patch: { reason: REASONS.expiredUnsent },
        },
      );
      if (!r.changed) return;
      d.logger.warn('queued sale expired before it could be sent', { orderId: rec.id, outOrderNo: rec.outOrderNo });
      d.changed(r.record);
    },
  };
}

export function buildCheckoutParts(deps: CheckoutDeps) {
  const tuning = resolveTuning(deps.tuning);
  const { clock, logger } = deps;
  const now = () => clock.now();
  const timers = deps.timers ?? systemTimers;
  const random = deps.random ?? Math.random;
  const getPos =
    typeof deps.pos === 'function'
      ? deps.pos
      : (
          (p: PosClient) => () =>
            p
        )(deps.pos);
  const journal = new OrderJournal(deps.db, now, deps.journalSink ?? NO_JOURNAL_SINK);
  /** The Hub's relay stream, when this counter has one: while healthy, polling is the safety net. */
  const relay = new RelayFollower();
  /** Which queued orders give way to the cashier's own sale (a box office's charges). */
  const yields = (o: { id: number }): boolean => deps.yieldRule?.(o.id) ?? false;

  // ---- the parts: they call each other back only once all are built ----
  const run = new CheckoutRun({
    journal,
    logger,
    now,
    late: new LateOutcomeStore(deps.db, deps.journalSink ?? NO_JOURNAL_SINK),
    checks: new ProviderCheckStore(deps.db),
    nextActionAt: (rec) => {
      if (rec.state === 'waiting' || rec.state === 'unknown') return poller.nextAt(rec.id);
      if (rec.state === 'queued') return monitor.nextProbeAt;
      return undefined;
    },
    online: () => monitor.online,
    seatHold: (id): OrderView['seatHold'] | null => seats.of(id),
  });
  const { view, changed, track } = run;
  const binding = queuedSaleRules({ journal, logger, changed }, deps.terminalSn);
  const seats: CheckoutSeats = new CheckoutSeats({
    db: deps.db,
    run,
    timers,
    logger,
    counterName: () => deps.settings().counterName,
    holds: deps.seats?.holds,
    planner: deps.seats?.planner,
  });

  const monitor: ConnectivityMonitor = new ConnectivityMonitor({
    timers,
    now,
    random,
    backoff: tuning.backoff,
    logger,
    probe: async () => ((await queueSender.sendOldest()) === 'done' ? 'done' : poller.probe()),
    onChange: (online) => {
      if (online) {
        poller.resume();
        queueSender.kick();
      } else {
        poller.pause();
      }
      run.emitConnectivityIfChanged();
    },
  });

  const queueSender: QueueSender = new QueueSender({
    journal,
    timers,
    now,
    logger,
    minUsefulMs: tuning.minUsefulMs,
    isOnline: () => monitor.online,
    send: (id) => calls.sendFrom(id, 'queued', 'Provider reachable and terminal free; sending the queued sale'),
    // The rules below every door: a queued sale goes only during a shift, to a terminal holding no
    // unpaid order, the cashier's own before a box office's, and only while it is the counter's terminal.
    canSend: (rec) =>
      !seats.isHolding(rec.id) && binding.mayGo(rec) && canSendQueued(journal.listOpen(), rec, deps.shiftOpen, yields),
    withdraw: (rec) => binding.withdraw(rec),
    expire: (rec) => binding.expire(rec),
  });

  const poller: Poller = new Poller({
    journal,
    timers,
    now,
    logger,
    tuning: tuning.poll,
    bucket: new TokenBucket({ ratePerSec: tuning.maxChecksPerSecond, burst: tuning.checkBurst, now }),
    isOnline: () => monitor.online,
    relayHealthy: () => relay.healthy(),
    query: (rec) => track(calls.query(rec)),
    handle: (id, outcome, final) => calls.handleQuery(id, outcome, final),
  });

  const calls = new OrderCalls({ run, getPos, now, minUsefulMs: tuning.minUsefulMs, monitor, poller });
  const finalDetails: FinalDetailsDeps = {
    journal,
    getPos,
    timers,
    logger,
    changed,
    track,
    isStopped: () => run.stopped,
  };
  const lateDetails: LateDetailsDeps = { run, getPos, timers, logger, now };
  const closed: ClosedCheckDeps = { run, calls, checks: run.checks, now };

  // A terminal freed (its order final): the sale queued for it may go now.
  run.events.on(
    'order',
    (v) => void (isFinalState(v.state) && !run.stopped && journal.countQueued() > 0 && queueSender.kick()),
  );

  function findFor(details: Pick<PosOrderDetails, 'outOrderNo' | 'orderNo'>): OrderRecord | null {
    return (
      (details.outOrderNo ? journal.findByOutOrderNo(details.outOrderNo) : null) ??
      (details.orderNo ? journal.findByOrderNo(details.orderNo) : null)
    );
  }

  /** The journaled order, or NOT_FOUND. */
  function recordOf(id: number): OrderRecord {
    const rec = journal.get(id);
    if (!rec) throw new AppError('NOT_FOUND', `There is no order ${id}.`, { id });
    return rec;
  }

  return {
    deps,
    tuning,
    clock,
    logger,
    now,
    timers,
    getPos,
    journal,
    relay,
    run,
    seats,
    view,
    changed,
    track,
    monitor,
    queueSender,
    poller,
    calls,
    finalDetails,
    lateDetails,
    closed,
    findFor,
    recordOf,
    yields,
  };
}
export type CheckoutParts = ReturnType<typeof buildCheckoutParts>;
