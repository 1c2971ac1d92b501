// What the top-up engine's pieces share (topup-engine.ts puts them together): the journal, the
// bills client, whose items are followed, the clock and timers, the rate cap, the requests in
// flight, the stopped flag, and `apply`, the one way a move reaches the journal (it also finishes
// a batch with nothing open left).
import type { Clock } from '../../shared/clock';
import type { Logger } from '../../shared/logger';
import { TokenBucket } from '../../shared/token-bucket';
import { doublingDelay, systemTimers, type Timers } from '../lib';
import type { BillsClient, TopupResult } from '../provider';
import type { TopupJournal } from './topup-journal';
import type { Move, Owner, TopupRecord } from './topup-rows';
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

export interface EngineCore {
  journal: TopupJournal;
  /** May throw PROVIDER_NOT_CONFIGURED (nothing is sent then). */
  bills: () => BillsClient;
  /** Whose open items are followed and sent (the active profile's bills merchant). */
  owner: () => Owner;
  callBackUrl: () => string;
  logger: Logger;
  /** A batch's own state or notice changed. */
  onBatch: (batchId: number) => void;
  t: EngineTuning;
  timers: Timers;
  now: () => number;
  bucket: TokenBucket;
  /** Remembers a promise until it settles (`stop` waits for them). */
  keep: <T>(p: Promise<T>) => Promise<T>;
  apply: (moves: Move[]) => TopupRecord[];
  backoff: (failures: number) => number;
  stopped: () => boolean;
  markStopped: () => void;
  /** Waits until no kept promise is left (their answers are still journaled). */
  drain: () => Promise<void>;
}

export function createEngineCore(d: EngineDeps): EngineCore {
  const t = d.tuning;
  const timers = d.timers ?? systemTimers;
  const now = () => d.clock.now();
  const bucket = new TokenBucket({ ratePerSec: t.requestsPerSecond, burst: t.burst, now });
  const inFlight = new Set<Promise<unknown>>();
  let stopped = false;

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

  return {
    journal: d.journal,
    bills: d.bills,
    owner: d.owner,
    callBackUrl: d.callBackUrl,
    logger: d.logger,
    onBatch: d.onBatch,
    t,
    timers,
    now,
    bucket,
    keep,
    apply,
    backoff: (failures) => doublingDelay(failures, { baseMs: t.retryMinMs, maxMs: t.retryMaxMs }),
    stopped: () => stopped,
    markStopped() {
      stopped = true;
    },
    async drain() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}

export function firstByReference(results: TopupResult[]): Map<string, TopupResult> {
  const m = new Map<string, TopupResult>();
  for (const r of results) if (!m.has(r.reference)) m.set(r.reference, r);
  return m;
}
