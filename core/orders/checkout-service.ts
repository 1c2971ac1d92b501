// The ticket checkout: sells (journal first, then the provider), follows each order to a final
// state through webhooks, status checks and the queue sender, and resumes all of it after a restart.
import { AppError, isAppError } from '../../shared/errors';
import { saleAmounts, type Connectivity, type OrderEvent, type OrderView, type SaleInput } from '../../shared/orders';
import type { Clock } from '../../shared/clock';
import type { Db } from '../db';
import { NO_JOURNAL_SINK, type JournalSink, type RelayHealthSource } from '../hub-link';
import type { Logger } from '../../shared/logger';
import type { PosClient, PosOrderDetails } from '../provider';
import { ConnectivityMonitor } from './connectivity';
import { decideOnCreateError, decideOnDetails, decideOnMissing, decideOnQueryError, providerAnswered, REASONS, type Decision } from './order-decisions';
import { OrderJournal, toView, type OrderRecord } from './order-journal';
import { isFinalState } from './order-state';
import { counterCode, lagosDayCode } from './out-order-no';
import { QueueSender, type SendResult } from './queue-sender';
import { CheckoutEmitter, type CheckoutEvents } from './checkout-events';
import { resolveTuning, type CheckoutTuningInput } from './checkout-tuning';
import { remainingExpireSeconds } from './poll-schedule';
import { Poller, type QueryOutcome } from './poller';
import { productInfoFor } from './sale-wire';
import { fetchFinalDetails, type FinalDetailsDeps } from './final-details';
import { checkSale, saleNotRecorded, type SaleSettings } from './sale-intake';
import { systemTimers, type Timers } from '../lib';
import { TokenBucket } from '../lib';
import { LateOutcomeStore } from './late-outcomes';
import type { LateSource, MarkLateHandled } from '../../shared/late-payments';

export type { CheckoutEvents } from './checkout-events';
export { DEFAULT_CHECKOUT_TUNING, type CheckoutTuning, type CheckoutTuningInput } from './checkout-tuning';

export type CheckoutSettings = SaleSettings;

export interface CheckoutDeps {
  db: Db;
  /** The POS client, or a getter (the active profile may change); a getter may throw PROVIDER_NOT_CONFIGURED. */
  pos: PosClient | (() => PosClient);
  clock: Clock;
  logger: Logger;
  settings: () => CheckoutSettings;
  /** [0, 1); jitter of the retry backoff. */
  random?: () => number;
  timers?: Timers;
  tuning?: CheckoutTuningInput;
  /** Where every journal event also goes, in its transaction (the Hub's outbox); none when absent. */
  journalSink?: JournalSink;
}

export type CheckoutService = ReturnType<typeof createCheckoutService>;

export function createCheckoutService(deps: CheckoutDeps) {
  const tuning = resolveTuning(deps.tuning);
  const { clock, logger } = deps;
  const now = () => clock.now();
  const timers = deps.timers ?? systemTimers;
  const random = deps.random ?? Math.random;
  const getPos = typeof deps.pos === 'function' ? deps.pos : ((p: PosClient) => () => p)(deps.pos);
  const journal = new OrderJournal(deps.db, now, deps.journalSink ?? NO_JOURNAL_SINK);
  const late = new LateOutcomeStore(deps.db, deps.journalSink ?? NO_JOURNAL_SINK);

  const events = new CheckoutEmitter(logger);
  /** The Hub's relay stream, when this counter has one: while healthy, polling is the safety net. */
  let relay: RelayHealthSource | null = null;
  let relayOff: (() => void) | null = null;
  const inFlight = new Set<Promise<unknown>>();
  const sending = new Set<number>();
  let stopped = false;

  function connectivityNow(): Connectivity {
    return { online: monitor.online, queueLength: journal.countQueued() };
  }

  function emitConnectivityIfChanged(): void {
    events.connectivity(connectivityNow());
  }

  function nextActionAt(rec: OrderRecord): number | undefined {
    if (rec.state === 'waiting' || rec.state === 'unknown') return poller.nextAt(rec.id);
    if (rec.state === 'queued') return monitor.nextProbeAt;
    return undefined;
  }

  function view(rec: OrderRecord): OrderView {
    const l = isFinalState(rec.state) ? late.get(rec.id) : null;
    return l ? { ...toView(rec, nextActionAt(rec)), late: l } : toView(rec, nextActionAt(rec));
  }

  /** The provider's word on a closed order: a contradiction is recorded as its late outcome, never dropped. */
  function noteOnClosed(rec: OrderRecord, details: PosOrderDetails, source: LateSource): void {
    const l = late.record(rec, details, source, now());
    if (!l) return;
    logger.warn('provider outcome contradicts a closed order; recorded as its late outcome', { orderId: rec.id, outOrderNo: rec.outOrderNo, state: rec.state, status: details.status, kind: l.kind, source });
    changed(rec);
    events.emit('late', { orderId: rec.id });
  }

  function changed(rec: OrderRecord | null): void {
    if (!rec) return;
    events.emit('order', view(rec));
    emitConnectivityIfChanged();
  }

  function track<T>(p: Promise<T>): Promise<T> {
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p)).catch(() => {});
    return p;
  }

  /** Applies a decision; returns true when it asks for the same order to be sent again. */
  function apply(id: number, d: Decision): boolean {
    if (d.kind === 'none') return false;
    if (d.kind === 'send-again') return true;
    const r = d.kind === 'patch' ? journal.update(id, d.patch) : journal.transition(id, d.to, d.note, { patch: d.patch });
    if (r.changed) changed(r.record);
    else if (r.refused && d.kind === 'move') logger.info('order change refused', { orderId: id, to: d.to, why: r.refused });
    return false;
  }

  // ---- sending ----

  /** Sends an order already journaled as `creating` (with the attempt counted). */
  async function create(id: number): Promise<SendResult> {
    const rec = journal.get(id);
    if (!rec || rec.state !== 'creating') return 'skipped';
    sending.add(id);
    try {
      let pos: PosClient;
      try {
        pos = getPos();
      } catch (err) {
        // Nothing went out: a settings problem, not the network.
        apply(id, decideOnCreateError(isAppError(err) ? err : new AppError('PROVIDER_NOT_CONFIGURED', 'The payment provider is not set up.')));
        return 'sent';
      }
      const t0 = now();
      try {
        const { orderNo } = await pos.createOrder({
          outOrderNo: rec.outOrderNo,
          amountKobo: rec.amountKobo,
          orderExpireSeconds: remainingExpireSeconds(t0, rec.expiresAt, rec.expireSeconds),
          sn: rec.sn,
          productInfo: productInfoFor(rec.sale),
        });
        monitor.reached();
        const r = journal.transition(id, 'waiting', 'Order on the terminal; waiting for the customer to pay', {
          from: ['creating'], patch: { orderNo, waitingSince: now(), reason: null },
        });
        poller.track(id); // first, so the event already carries the next check
        if (r.changed) changed(r.record);
        return 'sent';
      } catch (err) {
        const unreachable = isAppError(err) && err.code === 'PROVIDER_UNREACHABLE';
        if (unreachable) monitor.unreachable();
        else if (providerAnswered(err)) monitor.reached();
        logger.warn('create order failed', { orderId: id, outOrderNo: rec.outOrderNo, code: isAppError(err) ? err.code : 'INTERNAL' });
        apply(id, decideOnCreateError(err));
        poller.track(id);
        return unreachable ? 'unreachable' : 'sent';
      }
    } finally {
      sending.delete(id);
    }
  }

  /** queued/unknown -> creating (journaled, attempt counted), then the call. */
  function sendFrom(id: number, from: 'queued' | 'unknown', note: string): Promise<SendResult> {
    if (stopped) return Promise.resolve('skipped');
    const r = journal.transition(id, 'creating', note, { from: [from], patch: { countAttempt: true, reason: null } });
    if (!r.changed) return Promise.resolve('skipped');
    changed(r.record);
    poller.untrack(id);
    return track(create(id));
  }

  // ---- checking ----

  async function query(rec: OrderRecord): Promise<QueryOutcome> {
    try {
      const pos = getPos();
      const details = await pos.queryOrder(rec.orderNo ? { orderNo: rec.orderNo } : { outOrderNo: rec.outOrderNo });
      monitor.reached();
      return details ? { kind: 'found', details } : { kind: 'missing' };
    } catch (err) {
      if (isAppError(err) && err.code === 'PROVIDER_UNREACHABLE') monitor.unreachable();
      else if (providerAnswered(err)) monitor.reached();
      return { kind: 'error', error: err };
    }
  }

  function handleQuery(id: number, outcome: QueryOutcome, final: boolean): void {
    const rec = journal.get(id);
    if (!rec || isFinalState(rec.state)) return;
    const at = now();
    const decision = outcome.kind === 'found'
      ? decideOnDetails(rec, outcome.details, { now: at, final })
      : outcome.kind === 'missing'
        ? decideOnMissing(rec, { now: at, final, minUsefulMs: tuning.minUsefulMs })
        : decideOnQueryError(rec, outcome.error, { final });
    if (apply(id, decision)) void sendFrom(id, 'unknown', (decision as { note: string }).note);
  }

  // ---- the parts ----

  const monitor: ConnectivityMonitor = new ConnectivityMonitor({
    timers, now, random, backoff: tuning.backoff, logger,
    probe: async () => ((await queueSender.sendOldest()) === 'done' ? 'done' : poller.probe()),
    onChange: (online) => {
      if (online) {
        poller.resume();
        queueSender.kick();
      } else {
        poller.pause();
      }
      emitConnectivityIfChanged();
    },
  });

  const queueSender: QueueSender = new QueueSender({
    journal, timers, now, logger, minUsefulMs: tuning.minUsefulMs,
    isOnline: () => monitor.online,
    send: (id) => sendFrom(id, 'queued', 'Provider reachable; sending the queued sale'),
    expire: (rec) => {
      const r = journal.transition(rec.id, 'expired', 'Too late to send: the sale would expire before it could be paid', {
        from: ['queued'], patch: { reason: REASONS.expiredUnsent },
      });
      if (r.changed) {
        logger.warn('queued sale expired before it could be sent', { orderId: rec.id, outOrderNo: rec.outOrderNo });
        changed(r.record);
      }
    },
  });

  const poller: Poller = new Poller({
    journal, timers, now, logger, tuning: tuning.poll,
    bucket: new TokenBucket({ ratePerSec: tuning.maxChecksPerSecond, burst: tuning.checkBurst, now }),
    isOnline: () => monitor.online,
    relayHealthy: () => relay?.healthy() === true,
    query: (rec) => track(query(rec)),
    handle: handleQuery,
  });

  const finalDetails: FinalDetailsDeps = { journal, getPos, timers, logger, changed, track, isStopped: () => stopped };

  function findFor(details: Pick<PosOrderDetails, 'outOrderNo' | 'orderNo'>): OrderRecord | null {
    return (details.outOrderNo ? journal.findByOutOrderNo(details.outOrderNo) : null) ?? (details.orderNo ? journal.findByOrderNo(details.orderNo) : null);
  }

  /** The journaled order, or NOT_FOUND. */
  function recordOf(id: number): OrderRecord {
    const rec = journal.get(id);
    if (!rec) throw new AppError('NOT_FOUND', `There is no order ${id}.`, { id });
    return rec;
  }

  /** The journal write that must happen before anything is sent; if it fails, nothing is sent. */
  function recordSale(o: Parameters<OrderJournal['insert']>[0]): OrderRecord {
    try {
      return journal.insert(o);
    } catch (err) {
      logger.error('could not record a sale', { error: String(err) });
      throw saleNotRecorded(err);
    }
  }

  function newSale(input: unknown, retryOf?: number): OrderView {
    if (stopped) throw new AppError('NOT_READY', 'The checkout is shutting down; try again in a moment.');
    const s = deps.settings();
    const sale = checkSale(input, s);
    getPos(); // refuse now, with the client's own message, if the provider is not set up
    const createdAt = now();
    // Sales wait their turn behind older queued ones; otherwise each goes straight out (and
    // while offline that attempt doubles as the check whether the provider is back).
    const queueAhead = journal.countQueued() > 0;
    const rec = recordSale({
      sale,
      amountKobo: saleAmounts(sale).amountKobo,
      counterCode: counterCode(s.counterName),
      businessDay: lagosDayCode(createdAt),
      createdAt,
      expireSeconds: s.orderExpireSeconds,
      state: queueAhead ? 'queued' : 'creating',
      attempts: queueAhead ? 0 : 1,
      headMerchantId: s.headMerchantId,
      merchantId: s.merchantId,
      profile: s.profile ?? 'unrecorded',
      ...(retryOf !== undefined ? { retryOf } : {}),
      note: queueAhead ? 'Sale recorded; queued behind older sales' : 'Sale recorded; sending the order to the terminal',
      ...(queueAhead ? { reason: REASONS.queued } : {}),
    });
    logger.info('sale recorded', { orderId: rec.id, outOrderNo: rec.outOrderNo, amountKobo: rec.amountKobo, state: rec.state });
    changed(rec);
    if (queueAhead) {
      queueSender.kick();
      monitor.kick();
    } else {
      void track(create(rec.id));
    }
    return view(journal.get(rec.id) ?? rec);
  }

  return {
    /** Validates and records the sale, then sends it in the background. Resolves at once (queued or creating). */
    async sell(sale: SaleInput): Promise<OrderView> {
      return newSale(sale);
    },

    /** A new sale (new outOrderNo) with the same tickets, only for a failed, expired or cancelled one. */
    async retrySale(id: number): Promise<OrderView> {
      const rec = recordOf(id);
      if (!['failed', 'expired', 'cancelled'].includes(rec.state)) {
        throw new AppError('CONFLICT', `This sale is ${rec.state}: only a failed, expired or cancelled sale can be started again.`, { id, state: rec.state });
      }
      return newSale(rec.sale, id);
    },

    get(id: number): OrderView | null {
      const rec = journal.get(id);
      return rec ? view(rec) : null;
    },

    getByOutOrderNo(outOrderNo: string): OrderView | null {
      const rec = journal.findByOutOrderNo(outOrderNo);
      return rec ? view(rec) : null;
    },

    /** Today's orders (Lagos business day), newest first. */
    listToday(): OrderView[] {
      return journal.listDay(lagosDayCode(now())).map(view);
    },

    /** Every order not yet final (any day), oldest first: what still needs the app's attention. */
    listOpen(): OrderView[] {
      return journal.listOpen().map(view);
    },

    /** Queued orders, oldest first (the order they will be sent in). */
    listQueued(): OrderView[] {
      return journal.listQueued().map(view);
    },

    history(id: number): OrderEvent[] {
      recordOf(id);
      return journal.history(id);
    },

    connectivity(): Connectivity {
      return connectivityNow();
    },

    /** Checks the order with the provider now (or, when queued, tries the queue now). */
    async checkNow(id: number): Promise<OrderView> {
      const rec = recordOf(id);
      if (rec.state === 'waiting' || rec.state === 'unknown') await poller.checkNow(id);
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
      if (stopped) return;
      const open = journal.listOpen();
      await Promise.all(open.filter((r) => r.state === 'waiting' || r.state === 'unknown').map((r) => poller.checkNow(r.id)));
      if (open.some((r) => r.state === 'queued')) await (monitor.online ? (queueSender.kick(), queueSender.idle()) : monitor.probeNow());
    },

    /**
     * Follow the health of the Hub's relay stream (null: no Hub). While it is healthy a waiting
     * order is checked a few times over its life; when it drops, every waiting order is checked
     * within a second and the fast schedule returns.
     */
    useRelayHealth(source: RelayHealthSource | null): void {
      relayOff?.();
      relayOff = null;
      const was = relay?.healthy() === true;
      relay = source;
      if (source) relayOff = source.onChange((healthy) => poller.relayChanged(healthy));
      const is = source?.healthy() === true;
      if (was !== is) poller.relayChanged(is);
    },

    /** Is this notification about one of this counter's orders? (The relay asks before recording it.) */
    ownsOrder(details: Pick<PosOrderDetails, 'outOrderNo' | 'orderNo'>): boolean {
      return findFor(details) !== null;
    },

    /** A verified webhook. Returns the order after it, or null when it is not one of ours. */
    onWebhook(details: PosOrderDetails): OrderView | null {
      const rec = findFor(details);
      if (!rec) {
        logger.warn('webhook for an order this counter does not have', { outOrderNo: details.outOrderNo, orderNo: details.orderNo });
        return null;
      }
      if (isFinalState(rec.state)) {
        noteOnClosed(rec, details, 'webhook');
        return view(recordOf(rec.id));
      }
      apply(rec.id, decideOnDetails(rec, details, { now: now(), final: false }));
      poller.track(rec.id);
      fetchFinalDetails(finalDetails, rec.id);
      return view(recordOf(rec.id));
    },

    /** The late outcomes of closed orders (money taken after closing): their list, handling and the sweep's reads. */
    late,

    /** The provider answered a query about a closed order (the reconciliation sweep): recorded if it contradicts it. */
    noteProviderReport(id: number, details: PosOrderDetails, source: LateSource): OrderView {
      const rec = recordOf(id);
      if (isFinalState(rec.state)) noteOnClosed(rec, details, source);
      return view(recordOf(id));
    },

    /** The cashier settled a late outcome with the customer (tickets given, or refund to be arranged). */
    markLateHandled(id: number, h: Omit<MarkLateHandled, 'id'>): OrderView {
      const rec = recordOf(id);
      late.markHandled(rec, h, now());
      changed(rec);
      events.emit('late', { orderId: id });
      return view(recordOf(id));
    },

    /** After a start: every order that is not final picks up where it stopped. */
    resume(): void {
      if (stopped) return;
      for (const rec of journal.listOpen()) {
        if (rec.state === 'creating') {
          if (sending.has(rec.id)) continue;
          const r = journal.transition(rec.id, 'unknown', 'App restarted while sending; checking with the provider', {
            from: ['creating'], patch: { reason: REASONS.restarted },
          });
          if (r.changed) changed(r.record);
        }
        if (rec.state !== 'queued') poller.track(rec.id);
      }
      // A paid order whose details never came (the app stopped, or every query failed) is completed now.
      for (const rec of journal.listPaidMissingDetails()) fetchFinalDetails(finalDetails, rec.id);
      queueSender.kick();
      monitor.kick();
      emitConnectivityIfChanged();
    },

    /** Stops every timer and waits for calls in flight (their answers are still journaled). */
    async stop(): Promise<void> {
      stopped = true;
      relayOff?.();
      relayOff = null;
      monitor.stop();
      queueSender.stop();
      poller.stop();
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },

    on<K extends keyof CheckoutEvents>(event: K, listener: (payload: CheckoutEvents[K]) => void): () => void {
      return events.on(event, listener);
    },
  };
}
