// The top-up engine's follower: when each open item is next asked about (the schedule, state
// only), and the bulk-status sweeps that ask (one request per service type and chunk) and journal
// what each answer means.
import { isAppError } from '../../shared/errors';
import type { TimerHandle } from '../lib';
import type { ServiceType, TopupResult } from '../provider';
import type { Move, TopupRecord } from './topup-rows';
import { afterStatus, OPEN_FOLLOWED } from './topup-decisions';
import { firstByReference, type EngineCore } from './topup-engine-core';

interface Tracked {
  at: number;
  interval: number;
  failures: number;
}

/** `onRequeued`: an answer put items back in the queue (the sender pumps). */
export function createStatusFollower(core: EngineCore, onRequeued: () => void) {
  const { journal, bills, owner, logger, t, timers, now } = core;
  const tracked = new Map<number, Tracked>();
  let sweepTimer: TimerHandle | null = null;
  let sweepAt: number | null = null;
  let sweeping = false;
  /** Items per bulk-status request; smaller after the provider refuses a request as a whole. */
  let statusLimit = t.statusChunkSize;

  function follow(rec: TopupRecord, at: number, interval = t.firstCheckMs): void {
    if (core.stopped()) return;
    const cur = tracked.get(rec.id);
    tracked.set(rec.id, { at, interval, failures: cur?.failures ?? 0 });
    plan();
  }

  function unfollow(id: number): void {
    tracked.delete(id);
  }

  function plan(): void {
    if (core.stopped() || sweeping) return;
    let next = Infinity;
    for (const tr of tracked.values()) if (tr.at < next) next = tr.at;
    if (next === Infinity) {
      if (sweepTimer !== null) timers.clearTimeout(sweepTimer);
      sweepTimer = null;
      sweepAt = null;
      return;
    }
    if (sweepTimer !== null && sweepAt !== null && sweepAt <= next) return;
    if (sweepTimer !== null) timers.clearTimeout(sweepTimer);
    sweepAt = next;
    sweepTimer = timers.setTimeout(() => {
      sweepTimer = null;
      sweepAt = null;
      void core.keep(sweep());
    }, next - now());
  }

  async function slot(): Promise<void> {
    for (;;) {
      const wait = core.bucket.take();
      if (wait === 0 || core.stopped()) return;
      await new Promise<void>((r) => timers.setTimeout(r, wait));
    }
  }

  async function sweep(): Promise<void> {
    if (sweeping || core.stopped()) return;
    sweeping = true;
    try {
      const horizon = now() + t.sweepWindowMs;
      const due = [...tracked].filter(([, tr]) => tr.at <= horizon).map(([id]) => id);
      const who = owner();
      const recs = journal.getMany(due).filter((r) => {
        const ok =
          (OPEN_FOLLOWED as readonly string[]).includes(r.state) &&
          r.profile === who.profile &&
          r.billsMerchantId === who.billsMerchantId;
        if (!ok) unfollow(r.id);
        return ok;
      });
      // A provider that takes N items per bulk-bills likely takes no more per bulk-status.
      const batchSizes = [...new Set(recs.map((r) => r.batchId).filter((b): b is number => b !== null))].map(
        (b) => journal.batch(b)?.chunkSize ?? statusLimit,
      );
      const size = Math.max(1, Math.min(statusLimit, ...batchSizes));
      for (const type of ['airtime', 'betting'] as const) {
        const ofType = recs.filter((r) => r.serviceType === type);
        for (let i = 0; i < ofType.length && !core.stopped(); i += size) {
          await slot();
          await ask(type, ofType.slice(i, i + size));
        }
      }
    } catch (e) {
      logger.error('top-up status sweep failed', { error: e instanceof Error ? e.message : String(e) });
    } finally {
      sweeping = false;
      plan();
    }
  }

  /** One bulk-status request for items of one service type, and what its answer means for each. */
  async function ask(serviceType: ServiceType, recs: TopupRecord[]): Promise<void> {
    if (recs.length === 0 || core.stopped()) return;
    let results: TopupResult[];
    try {
      results = await bills().bulkStatus({ serviceType, items: recs.map((r) => ({ reference: r.reference })) });
    } catch (err) {
      askFailed(recs, err);
      return;
    }
    const byRef = firstByReference(results);
    const moves: Move[] = [];
    const requeued: TopupRecord[] = [];
    for (const rec of recs) {
      const res = byRef.get(rec.reference);
      const tr = tracked.get(rec.id) ?? { at: now(), interval: t.firstCheckMs, failures: 0 };
      if (!res) {
        tr.failures += 1;
        tr.at = now() + core.backoff(tr.failures);
        continue;
      }
      const dec = afterStatus(rec, res, tr.interval, t);
      if (dec.move) moves.push(dec.move);
      if (dec.checkIn === null) unfollow(rec.id);
      else tracked.set(rec.id, { at: now() + dec.checkIn, interval: dec.checkIn, failures: 0 });
      if (dec.move?.to === 'queued') requeued.push(rec);
    }
    core.apply(moves);
    if (requeued.length > 0) onRequeued();
  }

  function askFailed(recs: TopupRecord[], err: unknown): void {
    const code = isAppError(err) ? err.code : 'INTERNAL';
    if (code === 'PROVIDER_REFUSED' && recs.length > 1) {
      // Refused as a whole (too many items?): ask in smaller requests from now on, at once.
      statusLimit = Math.max(1, Math.floor(recs.length / 2));
      logger.warn('top-up status inquiry refused; asking about fewer items per request', {
        items: recs.length,
        now: statusLimit,
      });
      for (const r of recs) {
        const tr = tracked.get(r.id);
        if (tr) tr.at = now();
      }
      return;
    }
    logger.warn('top-up status inquiry failed; asking again later', { items: recs.length, code });
    for (const r of recs) {
      const tr = tracked.get(r.id);
      if (!tr) continue;
      tr.failures += 1;
      tr.at = now() + core.backoff(tr.failures);
    }
  }

  return {
    follow,
    unfollow,
    plan,
    ask,
    /** Forgets every schedule (a start or a change of profile follows the open items anew). */
    clear: () => tracked.clear(),
    nextCheckAt: (id: number): number | null => tracked.get(id)?.at ?? null,
    stopTimer(): void {
      if (sweepTimer !== null) timers.clearTimeout(sweepTimer);
      sweepTimer = null;
    },
  };
}
export type StatusFollower = ReturnType<typeof createStatusFollower>;
