// One sync call of the pusher (sync-pusher.ts): the outbox's next batch after the Hub's position,
// `POST /api/v1/sync`, and what the answer means: more to send, idle, back off, or halt (a gap,
// a conflict, a refusal, a journal older than the Hub's copy).
import { SyncResponseSchema, type SyncRequest } from '../../shared/hub-contract';
import { HubCallError } from './link-client';
import type { HubConnection } from './link-types';
import type { HubOutbox } from './outbox';
import type { SyncProgress } from './sync-progress';
import type { SyncPusherDeps, SyncTuning } from './sync-types';

/**
 * 'more': send again now (a backlog past one batch, a gap to resend from); 'soon': everything sent
 * was stored and what is left was appended while the call was in flight, so it goes with the
 * pusher's debounce like any append (an orderNo a webhook is routed by still goes at once); 'idle':
 * nothing left.
 */
export type SendResult = 'more' | 'soon' | 'idle' | { backoffMs: number } | 'halt';

/** What a call reads of the pusher: its parts, and its run (running, generation, the call in flight). */
export interface SyncCall {
  deps: SyncPusherDeps;
  tuning: SyncTuning;
  outbox: HubOutbox;
  progress: SyncProgress;
  running: () => boolean;
  generation: () => number;
  setInFlight: (ctl: AbortController | null) => void;
  position: (conn: HubConnection | null) => number;
  refreshQueue: () => void;
}

export async function sendOnce(x: SyncCall, conn: HubConnection): Promise<SendResult> {
  const { deps, outbox, progress, tuning } = x;
  const { clock, client } = deps;
  const last = x.position(conn);
  const head = outbox.headSeq();
  if (last > head)
    return progress.halt(
      `the Hub holds ${last} events of this counter but this journal has ${head}: was the journal restored from an older backup? Syncing stopped; tell the Hub administrator.`,
    );
  const events = outbox.readAfter(last, progress.batchSize);
  const body: SyncRequest = {
    events,
    status: { ...deps.status(), queueLength: Math.max(0, head - last - events.length), sentAt: clock.now() },
  };
  if (events.length > 0) progress.setState('syncing');
  const ctl = new AbortController();
  x.setInFlight(ctl);
  const gen = x.generation();
  try {
    const r = await client.call(conn, 'POST', '/sync', body, SyncResponseSchema, {
      timeoutMs: tuning.requestTimeoutMs,
      signal: ctl.signal,
    });
    if (!x.running()) return 'idle';
    if (gen !== x.generation()) return 'more';
    if (r.lastSeq > outbox.headSeq()) {
      return progress.halt(
        `the Hub says it holds ${r.lastSeq} events of this counter but this journal has ${outbox.headSeq()}: was the journal restored from an older backup? Syncing stopped; tell the Hub administrator.`,
      );
    }
    progress.failures = 0;
    progress.lastSync = clock.now();
    outbox.setLastSeq(r.lastSeq, conn.counterId);
    x.refreshQueue();
    // A Hub that neither stored nor refused our events is not moving: do not spin on it.
    if (events.length > 0 && r.lastSeq <= last) return { backoffMs: progress.nextBackoff(0) };
    if (outbox.headSeq() > r.lastSeq) {
      // Back to back, the sync of a busy counter was one call after another, each a commit on the
      // Hub beside the customer's webhook, and 3.3 Hub calls a sale (issue 28).
      const allStored = r.lastSeq >= (events.at(-1)?.seq ?? last);
      return allStored && events.length < progress.batchSize ? 'soon' : 'more';
    }
    progress.setState('synced');
    return 'idle';
  } catch (e) {
    if (!x.running()) return 'idle';
    if (gen !== x.generation()) return 'more';
    return failed(x, e, conn, last);
  } finally {
    x.setInFlight(null);
  }
}

function failed(x: SyncCall, e: unknown, conn: HubConnection, last: number): SendResult {
  const { deps, outbox, progress } = x;
  const { logger } = deps;
  if (!(e instanceof HubCallError)) {
    logger.error('hub sync: sending failed', { error: e instanceof Error ? e.message : String(e) });
    progress.setState('offline');
    return { backoffMs: progress.nextBackoff(0) };
  }
  switch (e.code) {
    case 'HUB_SYNC_GAP': {
      const expected = Number(e.details.expectedSeq);
      const head = outbox.headSeq();
      if (!Number.isSafeInteger(expected) || expected < 1) {
        progress.setState('offline');
        logger.warn('hub sync: a gap answer without a usable expectedSeq', { details: e.details });
        return { backoffMs: progress.nextBackoff(0) };
      }
      if (expected - 1 > head)
        return progress.halt(
          `the Hub expects event ${expected} but this journal ends at ${head}: was the journal restored from an older backup? Syncing stopped; tell the Hub administrator.`,
        );
      logger.warn('hub sync: the Hub is missing events; sending again from its number', {
        expectedSeq: expected,
        ourLastSeq: last,
      });
      outbox.setLastSeq(expected - 1, conn.counterId);
      x.refreshQueue();
      // A Hub that keeps asking for the same number is not taking our events: slow down.
      return expected - 1 === last ? { backoffMs: progress.nextBackoff(0) } : 'more';
    }
    case 'HUB_SYNC_CONFLICT':
      return progress.halt(
        `${e.message} (event ${String(e.details.seq ?? '?')}): this counter's journal and the Hub's copy differ, so syncing stopped; nothing different is ever resent.`,
      );
    case 'HUB_COUNTER_REVOKED':
    case 'HUB_UNAUTHENTICATED':
      progress.halted = e.message;
      logger.warn('hub sync: the Hub refused this counter; syncing stopped', { code: e.code });
      progress.setState('offline');
      try {
        deps.onRefused?.(e);
      } catch (err) {
        logger.warn('hub sync: the refusal listener failed', {
          error: err instanceof Error ? err.message : String(err),
        });
      }
      return 'halt';
    case 'HUB_TOO_LARGE':
      if (progress.batchSize > 1) {
        progress.batchSize = Math.max(1, Math.floor(progress.batchSize / 2));
        logger.warn('hub sync: the Hub found the batch too large; sending smaller ones', {
          batchSize: progress.batchSize,
        });
        return 'more';
      }
      break;
    default:
      break;
  }
  const asked = Number(e.details.retryAfterMs);
  const retryAfterMs = Number.isFinite(asked) && asked > 0 ? asked : 0;
  const delay = progress.nextBackoff(retryAfterMs);
  const level = e.code === 'HUB_UNREACHABLE' || e.code === 'HUB_RATE_LIMITED' ? 'info' : 'warn';
  logger[level]('hub sync: the Hub did not take the batch; trying again later', {
    code: e.code,
    status: e.status,
    retryInMs: delay,
    retryAfterMs,
    failures: progress.failures,
  });
  progress.setState('offline');
  return { backoffMs: delay };
}
