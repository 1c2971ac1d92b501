// Sends journaled top-ups through bulk-bills (one service type per request, chunks of the batch's
// size, a global rate cap) and follows every open item with bulk-status until it is final.
// An item whose send may have reached the provider is asked about, never sent again blindly:
// only a reference the provider says does not exist goes out again (with the same reference).
import { isAppError } from '../../shared/errors';
import { formatLagosTime } from '../../shared/time';
import type { Clock } from '../../shared/clock';
import type { Logger } from '../../shared/logger';
import { systemTimers, type TimerHandle, type Timers } from '../lib';
import { doublingDelay } from '../lib';
import { TokenBucket } from '../../shared/token-bucket';
import { isOutcomeUnknown } from '../provider';
import type { BillsClient, ServiceType, TopupResult } from '../provider';
import type { TopupJournal } from './topup-journal';
import type { Move, Owner, TopupRecord } from './topup-rows';
import { afterSend, afterStatus, finalMove, OPEN_FOLLOWED } from './topup-decisions';
import { stateForStatus } from './topup-state';
import type { EngineTuning } from './topup-tuning';

export interface EngineDeps {
  journal: TopupJournal;
  /** May throw PROVIDER_NOT_CONFIGURED (nothing is sent then). */
  bills: () => BillsClient;
  owner: () => Owner;
  callBackUrl: () => string;
  clock: Clock;
  timers?: Timers;
  logger: Logger;
  tuning: EngineTuning;
  /** Items that changed (journaled already). */
  onChange: (items: TopupRecord[]) => void;
  /** A batch's own state or notice changed. */
  onBatch: (batchId: number) => void;
}

interface Tracked {
  at: number;
  interval: number;
  failures: number;
}

export function createTopupEngine(d: EngineDeps) {
  const t = d.tuning;
  const timers = d.timers ?? systemTimers;
  const now = () => d.clock.now();
  const bucket = new TokenBucket({ ratePerSec: t.requestsPerSecond, burst: t.burst, now });
  const tracked = new Map<number, Tracked>();
  const inFlight = new Set<Promise<unknown>>();
  let sendsInFlight = 0;
  /** Items whose request is on the wire in this process right now. */
  const onTheWire = new Set<number>();
  let sweepTimer: TimerHandle | null = null;
  let sweepAt: number | null = null;
  let pumpTimer: TimerHandle | null = null;
  let sweeping = false;
  let stopped = false;
  /** While the provider cannot be reached, batch sends wait until then. */
  let retryAt = 0;
  let unreachableStreak = 0;
  /** Items per bulk-status request; smaller after the provider refuses a request as a whole. */
  let statusLimit = t.statusChunkSize;

  const keep = <T>(p: Promise<T>): Promise<T> => {
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p)).catch(() => {});
    return p;
  };

  function apply(moves: Move[]): TopupRecord[] {
    const changed = d.journal.move(moves);
    if (changed.length > 0) {
      d.onChange(changed);
      finishBatches(changed);
    }
    return changed;
  }

  /** A running or paused batch with nothing open left is done. */
  function finishBatches(changed: TopupRecord[]): void {
    const ids = new Set(changed.filter((r) => r.batchId !== null).map((r) => r.batchId as number));
    for (const id of ids) {
      const b = d.journal.batch(id);
      if (!b || (b.state !== 'running' && b.state !== 'paused')) continue;
      if (d.journal.countOpen(id) === 0) {
        d.journal.setBatch(id, { state: 'done', finishedAt: now(), notice: null });
        d.logger.info('top-up batch finished', { batchId: id });
        d.onBatch(id);
      }
    }
  }

  const backoff = (failures: number) => doublingDelay(failures, { baseMs: t.retryMinMs, maxMs: t.retryMaxMs });

  // ---- following open items ----

  function follow(rec: TopupRecord, at: number, interval = t.firstCheckMs): void {
    if (stopped) return;
    const cur = tracked.get(rec.id);
    tracked.set(rec.id, { at, interval, failures: cur?.failures ?? 0 });
    plan();
  }

  function unfollow(id: number): void {
    tracked.delete(id);
  }

  function plan(): void {
    if (stopped || sweeping) return;
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
      void keep(sweep());
    }, next - now());
  }

  async function slot(): Promise<void> {
    for (;;) {
      const wait = bucket.take();
      if (wait === 0 || stopped) return;
      await new Promise<void>((r) => timers.setTimeout(r, wait));
    }
  }

  async function sweep(): Promise<void> {
    if (sweeping || stopped) return;
    sweeping = true;
    try {
      const horizon = now() + t.sweepWindowMs;
      const due = [...tracked].filter(([, tr]) => tr.at <= horizon).map(([id]) => id);
      const owner = d.owner();
      const recs = d.journal.getMany(due).filter((r) => {
        const ok =
          (OPEN_FOLLOWED as readonly string[]).includes(r.state) &&
          r.profile === owner.profile &&
          r.billsMerchantId === owner.billsMerchantId;
        if (!ok) unfollow(r.id);
        return ok;
      });
      // A provider that takes N items per bulk-bills likely takes no more per bulk-status.
      const batchSizes = [...new Set(recs.map((r) => r.batchId).filter((b): b is number => b !== null))].map(
        (b) => d.journal.batch(b)?.chunkSize ?? statusLimit,
      );
      const size = Math.max(1, Math.min(statusLimit, ...batchSizes));
      for (const type of ['airtime', 'betting'] as const) {
        const ofType = recs.filter((r) => r.serviceType === type);
        for (let i = 0; i < ofType.length && !stopped; i += size) {
          await slot();
          await ask(type, ofType.slice(i, i + size));
        }
      }
    } catch (e) {
      d.logger.error('top-up status sweep failed', { error: e instanceof Error ? e.message : String(e) });
    } finally {
      sweeping = false;
      plan();
    }
  }

  /** One bulk-status request for items of one service type, and what its answer means for each. */
  async function ask(serviceType: ServiceType, recs: TopupRecord[]): Promise<void> {
    if (recs.length === 0 || stopped) return;
    let results: TopupResult[];
    try {
      results = await d.bills().bulkStatus({ serviceType, items: recs.map((r) => ({ reference: r.reference })) });
    } catch (err) {
      const code = isAppError(err) ? err.code : 'INTERNAL';
      if (code === 'PROVIDER_REFUSED' && recs.length > 1) {
        // Refused as a whole (too many items?): ask in smaller requests from now on, at once.
        statusLimit = Math.max(1, Math.floor(recs.length / 2));
        d.logger.warn('top-up status inquiry refused; asking about fewer items per request', {
          items: recs.length,
          now: statusLimit,
        });
        for (const r of recs) {
          const tr = tracked.get(r.id);
          if (tr) tr.at = now();
        }
        return;
      }
      d.logger.warn('top-up status inquiry failed; asking again later', { items: recs.length, code });
      for (const r of recs) {
        const tr = tracked.get(r.id);
        if (!tr) continue;
        tr.failures += 1;
        tr.at = now() + backoff(tr.failures);
      }
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
        tr.at = now() + backoff(tr.failures);
        continue;
      }
      const dec = afterStatus(rec, res, tr.interval, t);
      if (dec.move) moves.push(dec.move);
      if (dec.checkIn === null) unfollow(rec.id);
      else tracked.set(rec.id, { at: now() + dec.checkIn, interval: dec.checkIn, failures: 0 });
      if (dec.move?.to === 'queued') requeued.push(rec);
    }
    apply(moves);
    if (requeued.length > 0) pump();
  }

  // ---- sending ----

  /** Sends items already journaled as `sending` (their attempt counted) in one bulk-bills request. */
  async function send(recs: TopupRecord[]): Promise<void> {
    if (recs.length === 0) return;
    const serviceType = recs[0]!.serviceType;
    let results: TopupResult[];
    for (const r of recs) onTheWire.add(r.id);
    try {
      const bills = d.bills();
      results = await bills.bulkBills({
        serviceType,
        callBackUrl: d.callBackUrl(),
        items: recs.map((r) => ({
          reference: r.reference,
          provider: r.provider,
          customerId: r.customerId,
          amountKobo: r.amountKobo,
        })),
      });
    } catch (err) {
      sendFailed(recs, err);
      return;
    } finally {
      for (const r of recs) onTheWire.delete(r.id);
    }
    unreachableStreak = 0;
    const byRef = firstByReference(results);
    const moves: Move[] = [];
    for (const rec of recs) {
      const dec = afterSend(rec, byRef.get(rec.reference), t);
      moves.push(dec.move);
      if (dec.move.to === 'unknown' && dec.checkIn === 0) {
        d.logger.warn('top-up reference already held by the provider; asking its status', {
          reference: rec.reference,
          attempts: rec.attempts,
        });
      }
      if (dec.checkIn !== null) follow(rec, now() + dec.checkIn);
    }
    apply(moves);
  }

  function sendFailed(recs: TopupRecord[], err: unknown): void {
    const code = isAppError(err) ? err.code : 'INTERNAL';
    const message = isAppError(err) ? err.message : 'CounterPay made an internal error while sending.';
    if (isOutcomeUnknown(err)) {
      d.logger.warn('top-up send outcome unknown; asking the provider before anything else', {
        items: recs.length,
        code,
      });
      apply(
        recs.map((r) => ({
          id: r.id,
          to: 'unknown' as const,
          from: ['sending'] as const,
          note: `Outcome unknown (${code}): asking the provider`,
          patch: { errorMsg: '' },
        })),
      );
      for (const r of recs) follow(r, Math.max(now(), (r.sentAt ?? now()) + t.unknownGraceMs));
      return;
    }
    // Nothing reached the provider.
    d.logger.warn('top-up send refused before reaching the provider', { items: recs.length, code });
    const singles = recs.filter((r) => r.batchId === null);
    const inBatches = recs.filter((r) => r.batchId !== null);
    apply([
      ...singles.map((r) => ({
        id: r.id,
        to: 'not_sent' as const,
        from: ['sending'] as const,
        note: `Not sent (${code})`,
        patch: { errorMsg: `Not sent: ${message}` },
      })),
      ...inBatches.map((r) => ({
        id: r.id,
        to: 'queued' as const,
        from: ['sending'] as const,
        note: `Not sent (${code}); will be sent again`,
      })),
    ]);
    const batches = new Set(inBatches.map((r) => r.batchId as number));
    if (code === 'PROVIDER_UNREACHABLE') {
      unreachableStreak += 1;
      retryAt = now() + backoff(unreachableStreak);
      for (const id of batches) {
        d.journal.setBatch(id, {
          notice: `The provider cannot be reached. Trying again at ${formatLagosTime(retryAt)}.`,
        });
        d.onBatch(id);
      }
      return;
    }
    for (const id of batches) {
      const b = d.journal.batch(id);
      if (b?.state !== 'running') continue;
      d.journal.setBatch(id, { state: 'paused', notice: `Paused: ${message}` });
      d.logger.warn('top-up batch paused', { batchId: id, code });
      d.onBatch(id);
    }
  }

  /** Starts batch (and re-queued single) sends while there is room, tokens and something queued. */
  function pump(): void {
    if (stopped) return;
    if (pumpTimer !== null) return;
    const wait = retryAt - now();
    if (wait > 0) {
      pumpTimer = timers.setTimeout(() => {
        pumpTimer = null;
        clearNotices();
        pump();
      }, wait);
      return;
    }
    while (sendsInFlight < t.maxInFlight && !stopped) {
      const owner = d.owner();
      const chunk = d.journal.nextChunk(owner, (batchId) =>
        batchId === null ? 1 : (d.journal.batch(batchId)?.chunkSize ?? 1),
      );
      if (chunk.length === 0) return;
      const tokenWait = bucket.take();
      if (tokenWait > 0) {
        pumpTimer = timers.setTimeout(() => {
          pumpTimer = null;
          pump();
        }, tokenWait);
        return;
      }
      const sending = apply(
        chunk.map((r) => ({
          id: r.id,
          to: 'sending' as const,
          from: ['queued'] as const,
          note: r.attempts === 0 ? 'Sending' : `Sending again (attempt ${r.attempts + 1})`,
          patch: { sending: true },
        })),
      );
      if (sending.length === 0) return;
      sendsInFlight += 1;
      void keep(send(sending)).finally(() => {
        sendsInFlight -= 1;
        pump();
      });
    }
  }

  function clearNotices(): void {
    for (const b of d.journal.batchesIn(['running'])) {
      if (b.notice) {
        d.journal.setBatch(b.id, { notice: null });
        d.onBatch(b.id);
      }
    }
  }

  return {
    /** Sends a single top-up journaled as `sending` now (no queue, no rate cap: a customer is waiting). */
    sendNow(rec: TopupRecord): Promise<void> {
      return keep(send([rec]));
    },

    pump,
    apply,

    /** Asks about one open item now (the cashier pressed "Check now"). */
    async checkNow(rec: TopupRecord): Promise<void> {
      if (rec.state !== 'unknown' && rec.state !== 'pending') return;
      await keep(ask(rec.serviceType, [rec]));
      plan();
    },

    /** A verified bills callback for one of our references: it settles the item early. */
    settleFromCallback(rec: TopupRecord, res: TopupResult): void {
      const state = stateForStatus(res.status);
      if (state === null || state === 'pending') {
        if (rec.state === 'pending' && res.orderNo && !rec.orderNo)
          apply([{ id: rec.id, to: 'pending', note: 'Callback', patch: { orderNo: res.orderNo } }]);
        return;
      }
      unfollow(rec.id);
      apply([finalMove(rec, state, res, ['queued', 'sending', 'unknown', 'pending'])]);
    },

    /**
     * After a start or a change of profile: items caught mid-send become unknown (asked about
     * after the grace), the current owner's open items are followed, queued ones sent.
     */
    resume(): void {
      if (stopped) return;
      const stuck = d.journal.anyInStates(['sending']).filter((r) => !onTheWire.has(r.id));
      apply(
        stuck.map((r) => ({
          id: r.id,
          to: 'unknown' as const,
          from: ['sending'] as const,
          note: 'The app stopped while sending: asking the provider before anything else',
        })),
      );
      tracked.clear();
      for (const r of d.journal.inStates(d.owner(), OPEN_FOLLOWED)) {
        follow(r, r.state === 'unknown' ? Math.max(now(), (r.sentAt ?? 0) + t.unknownGraceMs) : now());
      }
      pump();
    },

    nextCheckAt(id: number): number | null {
      return tracked.get(id)?.at ?? null;
    },

    /** Stops every timer and waits for requests in flight (their answers are still journaled). */
    async stop(): Promise<void> {
      stopped = true;
      if (sweepTimer !== null) timers.clearTimeout(sweepTimer);
      if (pumpTimer !== null) timers.clearTimeout(pumpTimer);
      sweepTimer = null;
      pumpTimer = null;
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}
export type TopupEngine = ReturnType<typeof createTopupEngine>;

function firstByReference(results: TopupResult[]): Map<string, TopupResult> {
  const m = new Map<string, TopupResult>();
  for (const r of results) if (!m.has(r.reference)) m.set(r.reference, r);
  return m;
}
