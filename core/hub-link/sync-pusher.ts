// Sends the journal outbox to the Hub in order: up to MAX_SYNC_BATCH events after the last number
// the Hub holds, `POST /api/v1/sync`, the Hub's answered lastSeq kept in hub_state, and on at once
// while more remain; then it waits for a kick (an append, debounced) or the status tick (an empty
// batch: the Hub records last seen, queue length, open payments). A refused or unreachable Hub is
// the pusher's business only: nothing here is on a sale's path, and nothing throws into one.
//   HUB_SYNC_GAP       → resend from details.expectedSeq
//   HUB_SYNC_CONFLICT  → stop (state offline, logged): the journals forked; never resend a different event
//   revoked / unknown  → onRefused(e), stop
//   anything else      → back off with jitter (1 s → 60 s, at least details.retryAfterMs)
import {
  MAX_SYNC_BATCH,
  SyncResponseSchema,
  type CounterStatus,
  type SyncKind,
  type SyncRequest,
} from '../../shared/hub-contract';
import { backoffWithJitter, systemTimers, type BackoffTuning, type TimerHandle } from '../lib';
import { HubCallError } from './hub-client';
import type { JournalSink } from '../journal-sink';
import type { HubConnection, HubPartDeps } from './hub-types';
import { createOutboxSink, HubOutbox } from './outbox';
import { orderClaimOf, recentClaims, sendOrderClaim } from './order-claim';

export type SyncState = 'off' | 'syncing' | 'synced' | 'offline';

export interface SyncTuning {
  /** Appends within this window go out in one batch. */
  debounceMs: number;
  /** An empty batch (the counter's status) this often while nothing else is sent. */
  statusEveryMs: number;
  backoff: BackoffTuning;
  /** Events per call (the contract allows MAX_SYNC_BATCH); halved while the Hub answers "too large". */
  batchSize: number;
  requestTimeoutMs: number;
}

export const DEFAULT_SYNC_TUNING: SyncTuning = {
  debounceMs: 100,
  statusEveryMs: 30_000,
  backoff: { baseMs: 1_000, maxMs: 60_000 },
  batchSize: MAX_SYNC_BATCH,
  requestTimeoutMs: 15_000,
};

export interface SyncPusherDeps extends HubPartDeps {
  /** What the counter says about itself on every sync, except the queue length (the pusher knows it). */
  status: () => Omit<CounterStatus, 'queueLength' | 'sentAt'>;
  /** Queue length or state changed (the status bar shows "offline (N to sync)"). */
  onChange?: () => void;
  /**
   * The app's sink (a JournalSink, core/journal-sink.ts, built in app-core.ts): the pusher's `sink`
   * is that one and every append kicks it. Absent: the pusher makes its own sink over `db`.
   */
  journalSink?: JournalSink;
  /** For the pusher's own sink only (see outbox.ts). */
  cashierAt?: (at: number) => string;
  /** [0, 1); the jitter of the backoff. */
  random?: () => number;
  tuning?: Partial<SyncTuning>;
}

export interface SyncPusher {
  /** The journal sink that writes outbox rows (call inside the owner's transaction). */
  sink: JournalSink;
  start(): void;
  stop(): Promise<void>;
  /** Something was appended: send soon. */
  kick(): void;
  /** Events not yet held by the Hub. */
  queueLength(): number;
  state(): SyncState;
  lastSyncAt(): number | null;
  /** Why syncing stopped for good until a new enrollment (a conflict, a journal older than the Hub's copy), or null. */
  problem(): string | null;
  /** Forget the Hub's position (a new enrollment starts again from the first event). */
  reset(): void;
}

type Wake = 'kick' | 'timer' | 'stop';

/**
 * The event names the provider's orderNo of an order or top-up (hub/store/journal.ts: created or
 * learnt keys): the key the provider's POS webhook is routed by (its Tranid header), and the Hub
 * holds a webhook of an order it cannot place until the owner names it. A sale's goes on a claim
 * of its own (order-claim.ts); a top-up's status naming one skips the debounce, taking along its
 * topup.submitted.
 */
export function orderKeysNamed(kind: SyncKind, payload: unknown): boolean {
  if (kind !== 'order.created' && kind !== 'order.status' && kind !== 'topup.status') return false;
  return (
    typeof payload === 'object' && payload !== null && typeof (payload as { orderNo?: unknown }).orderNo === 'string'
  );
}

export function createSyncPusher(deps: SyncPusherDeps): SyncPusher {
  const tuning: SyncTuning = { ...DEFAULT_SYNC_TUNING, ...deps.tuning };
  const { clock, logger, client } = deps;
  const timers = deps.timers ?? systemTimers;
  const random = deps.random ?? Math.random;
  const outbox = new HubOutbox(deps.db);
  const sink: JournalSink =
    deps.journalSink ?? createOutboxSink(outbox, { ...(deps.cashierAt ? { cashierAt: deps.cashierAt } : {}), logger });

  let running = false;
  let loop: Promise<void> | null = null;
  let unsubscribe: (() => void) | null = null;
  let inFlight: AbortController | null = null;
  /** Set by a conflict or a refusal: nothing is sent until reset(). */
  let halted: string | null = null;
  let failures = 0;
  let batchSize = Math.max(1, Math.min(tuning.batchSize, MAX_SYNC_BATCH));
  let current: SyncState = 'off';
  let queue = 0;
  let lastSync: number | null = null;
  let debounce: TimerHandle | null = null;
  /** The loop's pending wait: resolved by a kick (when it accepts one), its timer, or stop. */
  let waiting: { resolve: (w: Wake) => void; timer: TimerHandle; kickable: boolean } | null = null;
  let kicked = false;
  /** Bumped by reset(): an answer to a call made before it is not kept. */
  let generation = 0;
  const claims = recentClaims(); // the orderNos claimed (once per sale)

  // ---- what the status bar reads ----

  function changed(): void {
    try {
      deps.onChange?.();
    } catch (e) {
      logger.warn('hub sync: a change listener failed', { error: e instanceof Error ? e.message : String(e) });
    }
  }

  function setState(s: SyncState): void {
    if (s === current) return;
    current = s;
    changed();
  }

  function position(conn: HubConnection | null): number {
    return outbox.lastSeq(conn?.counterId);
  }

  function refreshQueue(): void {
    let n: number;
    try {
      n = outbox.countAfter(position(deps.connection()));
    } catch {
      return; // the database is closing
    }
    if (n !== queue) {
      queue = n;
      changed();
    }
  }

  // ---- waiting ----

  function wait(ms: number, kickable: boolean): Promise<Wake> {
    if (!running) return Promise.resolve('stop');
    if (kickable && kicked) {
      kicked = false;
      return Promise.resolve('kick');
    }
    return new Promise((resolve) => {
      const timer = timers.setTimeout(() => {
        waiting = null;
        resolve('timer');
      }, ms);
      waiting = { resolve, timer, kickable };
    });
  }

  function wake(why: Wake): void {
    if (why === 'kick') kicked = true;
    const w = waiting;
    if (!w || (why === 'kick' && !w.kickable)) return;
    waiting = null;
    if (why === 'kick') kicked = false;
    timers.clearTimeout(w.timer);
    w.resolve(why);
  }

  // ---- one call ----

  async function sendOnce(conn: HubConnection): Promise<'more' | 'idle' | { backoffMs: number } | 'halt'> {
    const last = position(conn);
    const head = outbox.headSeq();
    if (last > head)
      return halt(
        `the Hub holds ${last} events of this counter but this journal has ${head}: was the journal restored from an older backup? Syncing stopped; tell the Hub administrator.`,
      );
    const events = outbox.readAfter(last, batchSize);
    const body: SyncRequest = {
      events,
      status: { ...deps.status(), queueLength: Math.max(0, head - last - events.length), sentAt: clock.now() },
    };
    if (events.length > 0) setState('syncing');
    const ctl = new AbortController();
    inFlight = ctl;
    const gen = generation;
    try {
      const r = await client.call(conn, 'POST', '/sync', body, SyncResponseSchema, {
        timeoutMs: tuning.requestTimeoutMs,
        signal: ctl.signal,
      });
      if (!running) return 'idle';
      if (gen !== generation) return 'more';
      if (r.lastSeq > outbox.headSeq()) {
        return halt(
          `the Hub says it holds ${r.lastSeq} events of this counter but this journal has ${outbox.headSeq()}: was the journal restored from an older backup? Syncing stopped; tell the Hub administrator.`,
        );
      }
      failures = 0;
      lastSync = clock.now();
      outbox.setLastSeq(r.lastSeq, conn.counterId);
      refreshQueue();
      // A Hub that neither stored nor refused our events is not moving: do not spin on it.
      if (events.length > 0 && r.lastSeq <= last) return { backoffMs: nextBackoff(0) };
      if (outbox.headSeq() > r.lastSeq) return 'more';
      setState('synced');
      return 'idle';
    } catch (e) {
      if (!running) return 'idle';
      if (gen !== generation) return 'more';
      return failed(e, conn, last);
    } finally {
      inFlight = null;
    }
  }

  function nextBackoff(retryAfterMs: number): number {
    failures += 1;
    return Math.max(backoffWithJitter(failures, tuning.backoff, random), retryAfterMs);
  }

  function halt(why: string): 'halt' {
    halted = why;
    logger.error(`hub sync: ${why}`);
    setState('offline');
    return 'halt';
  }

  function failed(e: unknown, conn: HubConnection, last: number): 'more' | 'halt' | { backoffMs: number } {
    if (!(e instanceof HubCallError)) {
      logger.error('hub sync: sending failed', { error: e instanceof Error ? e.message : String(e) });
      setState('offline');
      return { backoffMs: nextBackoff(0) };
    }
    switch (e.code) {
      case 'HUB_SYNC_GAP': {
        const expected = Number(e.details.expectedSeq);
        const head = outbox.headSeq();
        if (!Number.isSafeInteger(expected) || expected < 1) {
          setState('offline');
          logger.warn('hub sync: a gap answer without a usable expectedSeq', { details: e.details });
          return { backoffMs: nextBackoff(0) };
        }
        if (expected - 1 > head)
          return halt(
            `the Hub expects event ${expected} but this journal ends at ${head}: was the journal restored from an older backup? Syncing stopped; tell the Hub administrator.`,
          );
        logger.warn('hub sync: the Hub is missing events; sending again from its number', {
          expectedSeq: expected,
          ourLastSeq: last,
        });
        outbox.setLastSeq(expected - 1, conn.counterId);
        refreshQueue();
        // A Hub that keeps asking for the same number is not taking our events: slow down.
        return expected - 1 === last ? { backoffMs: nextBackoff(0) } : 'more';
      }
      case 'HUB_SYNC_CONFLICT':
        return halt(
          `${e.message} (event ${String(e.details.seq ?? '?')}): this counter's journal and the Hub's copy differ, so syncing stopped; nothing different is ever resent.`,
        );
      case 'HUB_COUNTER_REVOKED':
      case 'HUB_UNAUTHENTICATED':
        halted = e.message;
        logger.warn('hub sync: the Hub refused this counter; syncing stopped', { code: e.code });
        setState('offline');
        try {
          deps.onRefused?.(e);
        } catch (err) {
          logger.warn('hub sync: the refusal listener failed', {
            error: err instanceof Error ? err.message : String(err),
          });
        }
        return 'halt';
      case 'HUB_TOO_LARGE':
        if (batchSize > 1) {
          batchSize = Math.max(1, Math.floor(batchSize / 2));
          logger.warn('hub sync: the Hub found the batch too large; sending smaller ones', { batchSize });
          return 'more';
        }
        break;
      default:
        break;
    }
    const asked = Number(e.details.retryAfterMs);
    const retryAfterMs = Number.isFinite(asked) && asked > 0 ? asked : 0;
    const delay = nextBackoff(retryAfterMs);
    const level = e.code === 'HUB_UNREACHABLE' || e.code === 'HUB_RATE_LIMITED' ? 'info' : 'warn';
    logger[level]('hub sync: the Hub did not take the batch; trying again later', {
      code: e.code,
      status: e.status,
      retryInMs: delay,
      retryAfterMs,
      failures,
    });
    setState('offline');
    return { backoffMs: delay };
  }

  // ---- the loop ----

  async function run(): Promise<void> {
    while (running) {
      const conn = deps.connection();
      if (!conn) {
        setState('off');
        refreshQueue();
        await wait(tuning.statusEveryMs, true);
        continue;
      }
      if (halted) {
        setState('offline');
        await wait(tuning.statusEveryMs, true);
        continue;
      }
      let next: Awaited<ReturnType<typeof sendOnce>>;
      try {
        next = await sendOnce(conn);
      } catch (e) {
        // Reading the outbox failed (the database closing under us): never let the loop die.
        logger.error('hub sync: reading the outbox failed', { error: e instanceof Error ? e.message : String(e) });
        next = { backoffMs: nextBackoff(0) };
      }
      if (next === 'more') continue;
      if (next === 'idle' || next === 'halt') await wait(tuning.statusEveryMs, true);
      else await wait(next.backoffMs, false);
    }
  }

  /**
   * An append: debounced, except what names a provider's orderNo, the key the Hub routes POS webhooks
   * by, learnt moments before the customer can tap: a sale's goes at once on a claim of its own
   * (order-claim.ts; its events keep the debounce), a top-up's in the sync at once, taking along the
   * debounce pending (both after the owner's transaction, which the listener runs inside).
   */
  function appended(kind: SyncKind, payload: unknown): void {
    const sale = orderClaimOf(kind, payload);
    if (sale) {
      const claim = running && halted === null ? claims.first(sale) : null;
      if (claim) queueMicrotask(() => running && sendOrderClaim(deps, claim));
      return kick();
    }
    if (!orderKeysNamed(kind, payload)) return kick();
    if (!running) return;
    if (debounce !== null) timers.clearTimeout(debounce);
    debounce = null;
    queueMicrotask(() => {
      if (!running) return;
      refreshQueue();
      wake('kick');
    });
  }

  function kick(): void {
    if (!running || debounce !== null) return;
    debounce = timers.setTimeout(() => {
      debounce = null;
      refreshQueue();
      wake('kick');
    }, tuning.debounceMs);
  }

  return {
    sink,
    start() {
      if (running) return;
      running = true;
      kicked = false;
      unsubscribe = sink.onAppend?.(appended) ?? null;
      refreshQueue();
      loop = run().catch((e: unknown) =>
        logger.error('hub sync: the loop stopped', { error: e instanceof Error ? e.message : String(e) }),
      );
    },
    async stop() {
      if (!running) return;
      running = false;
      unsubscribe?.();
      unsubscribe = null;
      if (debounce !== null) timers.clearTimeout(debounce);
      debounce = null;
      inFlight?.abort();
      wake('stop');
      await loop;
      loop = null;
    },
    kick,
    queueLength: () => queue,
    state: () => current,
    lastSyncAt: () => lastSync,
    problem: () => halted,
    reset() {
      generation += 1;
      inFlight?.abort();
      outbox.setLastSeq(0);
      halted = null;
      failures = 0;
      batchSize = Math.max(1, Math.min(tuning.batchSize, MAX_SYNC_BATCH));
      refreshQueue();
      if (running) {
        // Cut a backoff short too: a new enrollment is worth trying at once.
        const w = waiting;
        if (w) {
          waiting = null;
          timers.clearTimeout(w.timer);
          w.resolve('kick');
        }
      }
    },
  };
}
