// Sends the journal outbox to the Hub in order: up to MAX_SYNC_BATCH events after the last number
// the Hub holds, `POST /api/v1/sync`, the Hub's answered lastSeq kept in hub_state, and on at once
// while more remain; then it waits for a kick (an append, debounced) or the status tick (an empty
// batch: the Hub records last seen, queue length, open payments). A refused or unreachable Hub is
// the pusher's business only: nothing here is on a sale's path, and nothing throws into one.
//   HUB_SYNC_GAP       → resend from details.expectedSeq
//   HUB_SYNC_CONFLICT  → stop (state offline, logged): the journals forked; never resend a different event
//   revoked / unknown  → onRefused(e), stop
//   anything else      → back off with jitter (1 s → 60 s, at least details.retryAfterMs)
// The pieces: sync-progress.ts (the state and the loop's wait, no I/O), sync-send.ts (one call and
// what its answer means), sync-types.ts (what it takes).
import type { SyncKind } from '../../shared/hub-contract';
import { systemTimers, type TimerHandle } from '../lib';
import type { JournalSink } from '../journal-sink';
import type { HubConnection } from './link-types';
import { createOutboxSink, HubOutbox } from './outbox';
import { SyncProgress, SyncWaiter } from './sync-progress';
import { sendOnce, type SendResult, type SyncCall } from './sync-send';
import { DEFAULT_SYNC_TUNING, type SyncPusherDeps, type SyncState, type SyncTuning } from './sync-types';
import { createClaimSender, orderClaimOf, recentClaims } from './order-claim';

export { DEFAULT_SYNC_TUNING, type SyncPusherDeps, type SyncState, type SyncTuning } from './sync-types';

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
  const { logger } = deps;
  const timers = deps.timers ?? systemTimers;
  const outbox = new HubOutbox(deps.db);
  const sink: JournalSink =
    deps.journalSink ?? createOutboxSink(outbox, { ...(deps.cashierAt ? { cashierAt: deps.cashierAt } : {}), logger });
  const progress = new SyncProgress(tuning, deps.random ?? Math.random, logger, deps.onChange);

  let running = false;
  let loop: Promise<void> | null = null;
  let unsubscribe: (() => void) | null = null;
  let inFlight: AbortController | null = null;
  let debounce: TimerHandle | null = null;
  const waiter = new SyncWaiter(timers, () => running);
  /** Bumped by reset(): an answer to a call made before it is not kept. */
  let generation = 0;
  const claims = recentClaims(); // the orderNos claimed (once per sale)
  const claimSender = createClaimSender(deps, timers, () => running);

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
    progress.setQueue(n);
  }

  const call: SyncCall = {
    deps,
    tuning,
    outbox,
    progress,
    running: () => running,
    generation: () => generation,
    setInFlight: (ctl) => (inFlight = ctl),
    position,
    refreshQueue,
  };

  // ---- the loop ----

  async function run(): Promise<void> {
    while (running) {
      const conn = deps.connection();
      if (!conn) {
        progress.setState('off');
        refreshQueue();
        await waiter.wait(tuning.statusEveryMs, true);
        continue;
      }
      if (progress.halted) {
        progress.setState('offline');
        await waiter.wait(tuning.statusEveryMs, true);
        continue;
      }
      let next: SendResult;
      try {
        next = await sendOnce(call, conn);
      } catch (e) {
        // Reading the outbox failed (the database closing under us): never let the loop die.
        logger.error('hub sync: reading the outbox failed', { error: e instanceof Error ? e.message : String(e) });
        next = { backoffMs: progress.nextBackoff(0) };
      }
      if (next === 'more') continue;
      // 'soon': what was appended while the call was in flight waits out the debounce (the one its
      // append armed ends the wait as soon as it fires); an orderNo a webhook is routed by ends it at once.
      if (next === 'soon') await waiter.wait(tuning.debounceMs, true);
      else if (next === 'idle' || next === 'halt') await waiter.wait(tuning.statusEveryMs, true);
      else await waiter.wait(next.backoffMs, false);
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
      const claim = running && progress.halted === null ? claims.first(sale) : null;
      if (claim) queueMicrotask(() => running && claimSender.send(claim));
      return kick();
    }
    if (!orderKeysNamed(kind, payload)) return kick();
    if (!running) return;
    if (debounce !== null) timers.clearTimeout(debounce);
    debounce = null;
    queueMicrotask(() => {
      if (!running) return;
      refreshQueue();
      waiter.wake('kick');
    });
  }

  function kick(): void {
    if (!running || debounce !== null) return;
    debounce = timers.setTimeout(() => {
      debounce = null;
      refreshQueue();
      waiter.wake('kick');
    }, tuning.debounceMs);
  }

  return {
    sink,
    start() {
      if (running) return;
      running = true;
      waiter.kicked = false;
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
      claimSender.stop();
      inFlight?.abort();
      waiter.wake('stop');
      await loop;
      loop = null;
    },
    kick,
    queueLength: () => progress.queue,
    state: () => progress.current,
    lastSyncAt: () => progress.lastSync,
    problem: () => progress.halted,
    reset() {
      generation += 1;
      inFlight?.abort();
      outbox.setLastSeq(0);
      progress.reset();
      refreshQueue();
      // Cut a backoff short too: a new enrollment is worth trying at once.
      if (running) waiter.cutShort();
    },
  };
}
