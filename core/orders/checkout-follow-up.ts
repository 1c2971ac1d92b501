// The checkout's follow-up of orders already sent: "Check now" and a recheck of every open order,
// the relay's health, webhooks, the provider's reports and late outcomes of closed orders, resuming
// after a start, and stopping.
import type { OrderView } from '../../shared/orders';
import type { PosOrderDetails } from '../provider';
import type { LateSource, MarkLateHandled } from '../../shared/late-payments';
import type { CheckoutEvents } from './checkout-events';
import { fetchFinalDetails, type FinalDetailsDeps } from './final-details';
import { fetchLateDetails, type LateDetailsDeps } from './late-details';
import { decideOnDetails, REASONS } from './order-decisions';
import { isFinalState } from './order-state';
import { isCashSale } from './order-record';
import { checkClosed, type ClosedCheckDeps } from './closed-check';
import type { RelayFollower, RelayHealthFeed, RelayHealthSource } from './relay-follower';
import type { CheckoutRun } from './checkout-run';
import type { ConnectivityMonitor } from './connectivity';
import type { OrderCalls } from './order-calls';
import type { Poller } from './poller';
import type { QueueSender } from './queue-sender';
import type { PosClient } from '../provider';
import type { Timers } from '../lib';

export interface CheckoutFollowUpDeps {
  run: CheckoutRun;
  now: () => number;
  getPos: () => PosClient;
  timers: Timers;
  /** The relay's health as the poller follows it, and the feed of the stream to follow (absent: no Hub). */
  relay: RelayFollower;
  relayHealth: RelayHealthFeed | undefined;
  monitor: ConnectivityMonitor;
  queueSender: QueueSender;
  poller: Poller;
  calls: Pick<OrderCalls, 'isSending' | 'create'>;
  /** "Check now" on a closed order (closed-check.ts). */
  closed: ClosedCheckDeps;
}

export function checkoutFollowUp(d: CheckoutFollowUpDeps) {
  const { run, now, relay, monitor, queueSender, poller, calls, closed } = d;
  const { journal, logger, view, changed } = run;
  const recordOf = (id: number) => run.record(id);
  const findFor = (details: Pick<PosOrderDetails, 'outOrderNo' | 'orderNo'>) => run.findFor(details);
  const finalDetails: FinalDetailsDeps = {
    journal,
    getPos: d.getPos,
    timers: d.timers,
    logger,
    changed,
    track: run.track,
    isStopped: () => run.stopped,
  };
  const lateDetails: LateDetailsDeps = { run, getPos: d.getPos, timers: d.timers, logger, now };
  // The relay's health, followed from the start and afresh on each swap of its source.
  const feed = d.relayHealth;
  const follow = (source: RelayHealthSource | null) => relay.follow(source, (healthy) => poller.relayChanged(healthy));
  if (feed) follow(feed.current());
  const offFeed = feed?.onSwap(follow) ?? (() => undefined);
  return {
    /** Checks the order with the provider now (queued: tries the queue now; closed: one query, recorded as its `lastCheck`). */
    async checkNow(id: number): Promise<OrderView> {
      const rec = recordOf(id);
      if (isFinalState(rec.state)) await checkClosed(closed, rec);
      else if (rec.state === 'waiting' || rec.state === 'unknown') await poller.checkNow(id);
      else if (rec.state === 'queued') {
        if (monitor.online) {
          queueSender.kick();
          await queueSender.idle();
        } else await monitor.probeNow();
      }
      return view(recordOf(id));
    },

    /** Asks about every open order now (settings saved, clock corrected): a refusal's victims recover at once. */
    async recheckOpen(): Promise<void> {
      if (run.stopped) return;
      const open = journal.listOpen();
      await Promise.all(
        open.filter((r) => r.state === 'waiting' || r.state === 'unknown').map((r) => poller.checkNow(r.id)),
      );
      if (open.some((r) => r.state === 'queued'))
        await (monitor.online ? (queueSender.kick(), queueSender.idle()) : monitor.probeNow());
    },

    /** Is this notification about one of this counter's orders? (The relay asks before recording it.) */
    ownsOrder(details: Pick<PosOrderDetails, 'outOrderNo' | 'orderNo'>): boolean {
      return findFor(details) !== null;
    },

    /** A verified webhook. Returns the order after it, or null when it is not one of ours. */
    onWebhook(details: PosOrderDetails): OrderView | null {
      const rec = findFor(details);
      if (!rec) {
        logger.warn('webhook for an order this counter does not have', {
          outOrderNo: details.outOrderNo,
          orderNo: details.orderNo,
        });
        return null;
      }
      if (isFinalState(rec.state)) {
        run.noteOnClosed(rec, details, 'webhook');
        fetchLateDetails(lateDetails, rec.id);
        return view(recordOf(rec.id));
      }
      run.apply(rec.id, decideOnDetails(rec, details, { now: now(), final: false }));
      poller.track(rec.id);
      fetchFinalDetails(finalDetails, rec.id);
      return view(recordOf(rec.id));
    },

    /** The late outcomes of closed orders (money taken after closing): their list and the sweep's reads. */
    late: run.late,

    /** The provider answered a query about a closed order (the reconciliation sweep): recorded if it contradicts it. */
    noteProviderReport(id: number, details: PosOrderDetails, source: LateSource): OrderView {
      const rec = recordOf(id);
      if (isFinalState(rec.state)) run.noteOnClosed(rec, details, source);
      return view(recordOf(id));
    },

    /** The cashier settled a late outcome with the customer (tickets given, or refund to be arranged). */
    markLateHandled(id: number, h: Omit<MarkLateHandled, 'id'>): OrderView {
      const rec = recordOf(id);
      run.late.markHandled(rec, h, now());
      changed(rec);
      run.events.emit('late', { orderId: id });
      return view(recordOf(id));
    },

    /** After a start: every order that is not final picks up where it stopped. */
    resume(): void {
      if (run.stopped) return;
      for (const rec of journal.listOpen()) {
        // A cash sale the app stopped in the middle of: the cash was taken, it is paid now (never asked of the provider).
        if (isCashSale(rec)) {
          void run.track(calls.create(rec.id));
          continue;
        }
        if (rec.state === 'creating') {
          if (calls.isSending(rec.id)) continue;
          const r = journal.transition(rec.id, 'unknown', 'App restarted while sending; checking with the provider', {
            from: ['creating'],
            patch: { reason: REASONS.restarted },
          });
          if (r.changed) changed(r.record);
        }
        if (rec.state !== 'queued') poller.track(rec.id);
      }
      // A paid order whose details never came (the app stopped, or every query failed) is completed now.
      for (const rec of journal.listPaidMissingDetails()) fetchFinalDetails(finalDetails, rec.id);
      for (const id of run.late.missingPayNo()) fetchLateDetails(lateDetails, id);
      queueSender.kick();
      monitor.kick();
      run.emitConnectivityIfChanged();
    },

    /** Stops every timer and waits for calls in flight (their answers are still journaled). */
    async stop(): Promise<void> {
      run.stop();
      offFeed();
      relay.unfollow();
      monitor.stop();
      queueSender.stop();
      poller.stop();
      await run.settled();
    },

    on<K extends keyof CheckoutEvents>(event: K, listener: (payload: CheckoutEvents[K]) => void): () => void {
      return run.events.on(event, listener);
    },
  };
}
