// The ticket checkout: sells (journal first, then the provider), follows each order to a final
// state through webhooks, status checks and the queue sender, and resumes all of it after a restart.
// Its parts: what they share while running (checkout-run.ts), the provider calls for one order
// (order-calls.ts), the connectivity monitor, the queue sender, the poller and the relay's health.
import { AppError } from '../../shared/errors';
import { saleAmounts, type Connectivity, type OrderEvent, type OrderView, type SaleInput } from '../../shared/orders';
import type { Clock } from '../../shared/clock';
import type { Db } from '../db';
import { NO_JOURNAL_SINK, type JournalSink } from '../journal-sink';
import type { Logger } from '../../shared/logger';
import type { PosClient, PosOrderDetails } from '../provider';
import { systemTimers, type Timers } from '../lib';
import { TokenBucket } from '../../shared/token-bucket';
import type { CheckoutEvents } from './checkout-events';
import { CheckoutRun } from './checkout-run';
import { resolveTuning, type CheckoutTuningInput } from './checkout-tuning';
import { ConnectivityMonitor } from './connectivity';
import { fetchFinalDetails, type FinalDetailsDeps } from './final-details';
import { fetchLateDetails, type LateDetailsDeps } from './late-details';
import { OrderCalls } from './order-calls';
import { decideOnDetails, REASONS } from './order-decisions';
import { OrderJournal, type OrderRecord } from './order-journal';
import { isFinalState } from './order-state';
import { LateOutcomeStore } from './late-outcomes';
import type { LateSource, MarkLateHandled } from '../../shared/late-payments';
import { counterCode, lagosDayCode } from './out-order-no';
import { Poller } from './poller';
import { QueueSender } from './queue-sender';
import { RelayFollower, type RelayHealthSource } from './relay-follower';
import { checkSale, saleNotRecorded, type SaleSettings } from './sale-intake';
import { admitSale, canSendQueued, waitingForTerminal, type WhenBusy } from './charge-guard';
import { assertNotPaid, checkClosed, type ClosedCheckDeps, type RetryRule } from './closed-check';
import { ProviderCheckStore } from './provider-checks';
import type { SeatHolds } from '../../shared/seats';
import type { SeatPlanner } from './seat-holding';
import { CheckoutSeats } from './checkout-seats';

export type { CheckoutEvents } from './checkout-events';
export { DEFAULT_CHECKOUT_TUNING, type CheckoutTuning, type CheckoutTuningInput } from './checkout-tuning';

export type CheckoutSettings = SaleSettings;

export interface SellOptions {
  /** Runs inside the transaction that records the order (with its id and outOrderNo): a link written by another owner, all or nothing with the sale. */
  alongside?: (id: number, outOrderNo: string) => void;
  /** A busy terminal: refuse the sale (TERMINAL_BUSY, the default) or queue it until the terminal is free (a box office's charge). */
  whenBusy?: WhenBusy;
  /** The cashier's doors only: the sale number the cashier chose to leave waiting on the terminal. */
  besideWaiting?: string | undefined;
  /** The show of the programme the door sold (its showKey) and the ticket type: the seat rules find it from the sale otherwise. */
  show?: { showKey?: string; ticketType?: string };
}

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
  /** Is a shift open now? Every sale needs one, and a queued sale is sent only during one (absent: not asked). */
  shiftOpen?: () => boolean;
  /** Seat holds across counters (the Hub's); absent: this counter's own sales only (docs/seat-maps.md). */
  seatHolds?: SeatHolds;
  /** The seat rules of shows with a seat map (the programme's); absent: seats are not checked. */
  seatPlanner?: SeatPlanner;
}

export type CheckoutService = ReturnType<typeof createCheckoutService>;

export function createCheckoutService(deps: CheckoutDeps) {
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
  const seats: CheckoutSeats = new CheckoutSeats({
    db: deps.db,
    run,
    timers,
    logger,
    counterName: () => deps.settings().counterName,
    holds: deps.seatHolds,
    planner: deps.seatPlanner,
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
    // The rules below every door: a queued sale goes only during a shift, to a terminal holding no unpaid order.
    canSend: (rec) => !seats.isHolding(rec.id) && canSendQueued(journal.listOpen(), rec, deps.shiftOpen),
    expire: (rec) => {
      const r = journal.transition(
        rec.id,
        'expired',
        'Too late to send: the sale would expire before it could be paid',
        {
          from: ['queued'],
          patch: { reason: REASONS.expiredUnsent },
        },
      );
      if (r.changed) {
        logger.warn('queued sale expired before it could be sent', { orderId: rec.id, outOrderNo: rec.outOrderNo });
        changed(r.record);
      }
    },
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
  let retryRule: RetryRule = () => null;

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

  /** The journal write that must happen before anything is sent; if it fails, nothing is sent. */
  function recordSale(o: Parameters<OrderJournal['insert']>[0]): OrderRecord {
    try {
      return journal.insert(o);
    } catch (err) {
      logger.error('could not record a sale', { error: String(err) });
      throw saleNotRecorded(err);
    }
  }

  /** The door's rules: NO_SHIFT; TERMINAL_BUSY unless the sale may wait its turn (then the order in the way). */
  const admit = (open: readonly OrderRecord[], sn: string, opts: SellOptions) =>
    admitSale({ open, sn, besideWaiting: opts.besideWaiting, whenBusy: opts.whenBusy, shiftOpen: deps.shiftOpen });

  /** The one door to the provider for a new sale, whoever asked: the sale checked (its amount is its own), a shift open, at most one unpaid order per terminal (busy: refused, or queued for its turn). */
  async function newSale(input: unknown, opts: SellOptions & { retryOf?: number } = {}): Promise<OrderView> {
    if (run.stopped) throw new AppError('NOT_READY', 'The checkout is shutting down; try again in a moment.');
    const s = deps.settings();
    const sale = checkSale(input, s);
    const open = journal.listOpen();
    const busy = admit(open, sale.sn, opts);
    getPos(); // refuse now, with the client's own message, if the provider is not set up
    const { retryOf } = opts;
    // The seat rules (the layout's, then this counter's own sales) before anything is recorded.
    const plan = seats.plan(sale, opts);
    const alongside = seats.alongside(plan, opts.alongside);
    const createdAt = now();
    // Sales wait their turn behind a busy terminal's order and older queued ones that could go; otherwise
    // each goes straight out (while offline that attempt doubles as the check whether the provider is back).
    const queueAhead = busy !== null || open.some((o) => o.state === 'queued' && canSendQueued(open, o));
    const queued = busy
      ? waitingForTerminal(busy)
      : { note: 'Sale recorded; queued behind older sales', reason: REASONS.queued };
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
      ...(alongside ? { alongside } : {}),
      note: queueAhead ? queued.note : 'Sale recorded; sending the order to the terminal',
      ...(queueAhead ? { reason: queued.reason } : {}),
    });
    logger.info('sale recorded', {
      orderId: rec.id,
      outOrderNo: rec.outOrderNo,
      amountKobo: rec.amountKobo,
      state: rec.state,
    });
    changed(rec);
    // Held (or not checked) before the provider is asked; taken elsewhere: failed, never sent.
    if (plan && (await seats.hold(rec, plan, s.profile === 'demo' || s.profile === 'sandbox')) === 'stop')
      return view(journal.get(rec.id) ?? rec);
    if (queueAhead) {
      queueSender.kick();
      monitor.kick();
    } else {
      void track(calls.create(rec.id));
    }
    return view(journal.get(rec.id) ?? rec);
  }

  return {
    /** Validates and records the sale, then sends it in the background. Resolves at once (queued or creating). */
    async sell(sale: SaleInput, opts: SellOptions = {}): Promise<OrderView> {
      return newSale(sale, opts);
    },

    /**
     * Cancels a sale that never left the counter (still queued): it will not be sent. An order
     * already on the terminal cannot be withdrawn (the provider has no such call): CONFLICT.
     */
    cancelQueued(id: number, note: string): OrderView {
      const r = journal.transition(id, 'cancelled', note, { from: ['queued'], patch: { reason: note } });
      if (r.changed) {
        changed(r.record);
        return view(r.record!);
      }
      const rec = recordOf(id);
      throw new AppError(
        'CONFLICT',
        isFinalState(rec.state)
          ? `This sale is already ${rec.state}.`
          : 'The payment is already on the terminal and cannot be withdrawn from here: the customer can cancel it on the terminal, or it expires by itself.',
        { id, state: rec.state },
      );
    },

    /** Try again: a new sale (new outOrderNo) with the same tickets, through the same door, for a failed, expired or cancelled one the provider says was not paid. */
    async retrySale(id: number): Promise<OrderView> {
      const rec = recordOf(id);
      if (!['failed', 'expired', 'cancelled'].includes(rec.state)) {
        throw new AppError(
          'CONFLICT',
          `This sale is ${rec.state}: only a failed, expired or cancelled sale can be started again.`,
          { id, state: rec.state },
        );
      }
      const why = retryRule(id);
      if (why) throw new AppError('CONFLICT', why, { id });
      admit(journal.listOpen(), rec.sn, {}); // no query when the door refuses anyway (newSale asks again after it)
      await assertNotPaid(closed, rec);
      return newSale(rec.sale, { retryOf: id });
    },

    /** Plugs in the seat rules and the seat holds (the root: the programme, then the Hub link or the local holds). */
    useSeats(p: { planner?: SeatPlanner | null; holds?: () => SeatHolds }): void {
      seats.use(p);
    },

    /** This counter's own seats of a show: held while its sale is open, sold when paid (also paid after closing). */
    ownSeats(showKey: string) {
      return seats.store.ownTaken(showKey, deps.settings().counterName);
    },

    /** The show and seats of a sale of a show with a seat map (null: none). */
    seatsOf(id: number) {
      return seats.store.of(id);
    },

    /** Who keeps an order from Try again (the box-office integrations: the box office asks again). */
    useRetryRule(rule: RetryRule): void {
      retryRule = rule;
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

    /** How many orders are not final (told to the Hub on every sync): counted, no view built. */
    countOpen(): number {
      return journal.countOpen();
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
      return run.connectivity();
    },

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

    /**
     * Follow the health of the Hub's relay stream (null: no Hub). While it is healthy a waiting
     * order is checked a few times over its life; when it drops, every waiting order is checked
     * within a second and the fast schedule returns.
     */
    useRelayHealth(source: RelayHealthSource | null): void {
      relay.follow(source, (healthy) => poller.relayChanged(healthy));
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
