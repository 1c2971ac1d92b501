// The ticket checkout: sells (journal first, then the provider), follows each order to a final
// state through webhooks, status checks and the queue sender, and resumes all of it after a restart.
// Built here, once, from what it takes (checkout-deps.ts): its parts, each given what it needs —
// what they share while running (checkout-run.ts), the provider calls for one order
// (order-calls.ts), the connectivity monitor, the queue sender with the rules of a queued sale
// (queued-sale-rules.ts), the poller, the relay's health and the seats (checkout-seats.ts); then
// what it offers, each at its seam: the sale doors (checkout-sales.ts), the reads (order-reads.ts),
// the follow-up of orders sent (checkout-follow-up.ts). Other modules take the narrow part they use
// (OrderReads, OrderEvents, OrderSeats, the doors), never the whole checkout.
import type { Connectivity } from '../../shared/orders';
import type { PosClient } from '../provider';
import { NO_JOURNAL_SINK } from '../journal-sink';
import { systemTimers } from '../lib';
import { TokenBucket } from '../../shared/token-bucket';
import type { CheckoutDeps } from './checkout-deps';
import { CheckoutRun } from './checkout-run';
import { CheckoutSeats } from './checkout-seats';
import { NO_BASKET_SOURCES } from './basket-intake';
import { checkoutSales } from './checkout-sales';
import { checkoutFollowUp } from './checkout-follow-up';
import { resolveTuning } from './checkout-tuning';
import { canSendQueued } from './charge-guard';
import type { ClosedCheckDeps } from './closed-check';
import { ConnectivityMonitor } from './connectivity';
import { LateOutcomeStore } from './late-outcomes';
import { OrderCalls } from './order-calls';
import { OrderJournal } from './order-journal';
import { orderReads } from './order-reads';
import { isFinalState } from './order-state';
import { Poller } from './poller';
import { ProviderCheckStore } from './provider-checks';
import { QueueSender } from './queue-sender';
import { queuedSaleRules } from './queued-sale-rules';
import { RelayFollower } from './relay-follower';
import { afterTheSale } from './after-sale';

export type { CheckoutEvents, OrderEvents } from './checkout-events';
export type { OrderReads } from './order-reads';
export type { OrderSeats } from './checkout-seats';
export { DEFAULT_CHECKOUT_TUNING, type CheckoutTuning, type CheckoutTuningInput } from './checkout-tuning';
export type { CheckoutDeps, CheckoutSettings, SellOptions } from './checkout-deps';

export type CheckoutService = ReturnType<typeof createCheckoutService>;
/** The doors for a sale: sell, cancel a queued one, Try again. */
export type SaleDoors = ReturnType<typeof checkoutSales>;
/** The follow-up of orders sent; `late` and `noteProviderReport` are what the reconciliation sweep uses. */
export type OrderFollowUp = ReturnType<typeof checkoutFollowUp>;

export function createCheckoutService(deps: CheckoutDeps) {
  const tuning = resolveTuning(deps.tuning);
  const { logger } = deps;
  const now = () => deps.clock.now();
  const timers = deps.timers ?? systemTimers;
  const pos = deps.pos;
  const getPos = typeof pos === 'function' ? pos : (): PosClient => pos;
  const sink = deps.journalSink ?? NO_JOURNAL_SINK;
  // An exchange is completed (or failed) in the transaction that makes its new sale final (exchange.ts).
  const journal = new OrderJournal(deps.db, now, sink, (after) => afterSale.moved(after));
  /** The Hub's relay stream, when this counter has one: while healthy, polling is the safety net. */
  const relay = new RelayFollower();
  /** Which queued orders give way to the cashier's own sale (a box office's charges). */
  const yields = (o: { id: number }): boolean => deps.yieldRule?.(o.id) ?? false;

  // ---- the parts: they call each other back only once all are built ----
  const run = new CheckoutRun({
    journal,
    logger,
    now,
    late: new LateOutcomeStore(deps.db, sink),
    checks: new ProviderCheckStore(deps.db),
    nextActionAt: (rec) => {
      if (rec.state === 'waiting' || rec.state === 'unknown') return poller.nextAt(rec.id);
      if (rec.state === 'queued') return monitor.nextProbeAt;
      return undefined;
    },
    online: () => monitor.online,
    seatHold: (id) => seats.seatsOf(id),
  });
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
    random: deps.random ?? Math.random,
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
  const queued = queuedSaleRules(run, deps.terminalSn);
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
      !seats.isHolding(rec.id) && queued.mayGo(rec) && canSendQueued(journal.listOpen(), rec, deps.shiftOpen, yields),
    withdraw: (rec) => queued.withdraw(rec),
    expire: (rec) => queued.expire(rec),
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
    query: (rec) => run.track(calls.query(rec)),
    handle: (id, outcome, final) => calls.handleQuery(id, outcome, final),
  });
  const calls = new OrderCalls({ run, getPos, now, minUsefulMs: tuning.minUsefulMs, monitor, poller });
  const closed: ClosedCheckDeps = { run, calls, checks: run.checks, now };

  // A terminal freed (its order final): the sale queued for it may go now.
  run.events.on(
    'order',
    (v) => void (isFinalState(v.state) && !run.stopped && journal.countQueued() > 0 && queueSender.kick()),
  );

  // ---- what it offers ----
  const sales = checkoutSales({
    run,
    now,
    settings: deps.settings,
    getPos,
    shiftOpen: deps.shiftOpen,
    yields,
    retryRule: deps.retryRule ?? (() => null),
    seats,
    calls,
    queueSender,
    monitor,
    closed,
    basket: deps.basket ?? NO_BASKET_SOURCES,
  });
  const followUp = checkoutFollowUp({
    run,
    now,
    getPos,
    timers,
    relay,
    relayHealth: deps.relayHealth,
    monitor,
    queueSender,
    poller,
    calls,
    closed,
  });

  // After the sale: cancel, refunds owed and returned, exchange (docs/refunds.md).
  const afterSale = afterTheSale({
    db: deps.db,
    run,
    sales,
    sink,
    now,
    logger,
    undo: deps.undo,
    basket: deps.basket ?? NO_BASKET_SOURCES,
  });

  return {
    ...sales,
    ...orderReads({ run, now }),
    undo: afterSale.undo,
    exchanges: afterSale.exchanges,

    connectivity(): Connectivity {
      return run.connectivity();
    },

    /** The counter's terminal changed: queued sales bound for the old one are ended, those for the new one may go. */
    terminalChanged(): void {
      if (!run.stopped && journal.countQueued() > 0) queueSender.kick();
    },

    /** This counter's own seats of a show: held while its sale is open, sold when paid (also paid after closing). */
    ownSeats: (showKey: string) => seats.ownSeats(showKey),
    /** The show and seats of a sale of a show with a seat map (null: none). */
    seatsOf: (id: number) => seats.seatsOf(id),

    ...followUp,
  };
}
