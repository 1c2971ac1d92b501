// The sync pusher's state, without I/O: what the status bar reads (state, queue length, last sync,
// the problem that halted it), the failures and batch size that shape the next call, and the
// loop's wait (woken by a kick, its timer, or stop).
import type { Logger } from '../../shared/logger';
import { MAX_SYNC_BATCH } from '../../shared/hub-contract';
import { backoffWithJitter, type TimerHandle, type Timers } from '../lib';
import type { SyncState, SyncTuning } from './sync-types';

export class SyncProgress {
  current: SyncState = 'off';
  queue = 0;
  lastSync: number | null = null;
  /** Set by a conflict or a refusal: nothing is sent until reset(). */
  halted: string | null = null;
  failures = 0;
  batchSize: number;

  constructor(
    private readonly tuning: SyncTuning,
    private readonly random: () => number,
    private readonly logger: Logger,
    private readonly onChange: (() => void) | undefined,
  ) {
    this.batchSize = this.fullBatch();
  }

  private fullBatch(): number {
    return Math.max(1, Math.min(this.tuning.batchSize, MAX_SYNC_BATCH));
  }

  changed(): void {
    try {
      this.onChange?.();
    } catch (e) {
      this.logger.warn('hub sync: a change listener failed', { error: e instanceof Error ? e.message : String(e) });
    }
  }

  setState(s: SyncState): void {
    if (s === this.current) return;
    this.current = s;
    this.changed();
  }

  setQueue(n: number): void {
    if (n !== this.queue) {
      this.queue = n;
      this.changed();
    }
  }

  nextBackoff(retryAfterMs: number): number {
    this.failures += 1;
    return Math.max(backoffWithJitter(this.failures, this.tuning.backoff, this.random), retryAfterMs);
  }

  halt(why: string): 'halt' {
    this.halted = why;
    this.logger.error(`hub sync: ${why}`);
    this.setState('offline');
    return 'halt';
  }

  /** A new enrollment: no problem, no failures, full batches. */
  reset(): void {
    this.halted = null;
    this.failures = 0;
    this.batchSize = this.fullBatch();
  }
}

export type Wake = 'kick' | 'timer' | 'stop';

/** The loop's pending wait: resolved by a kick (when it accepts one), its timer, or stop. */
export class SyncWaiter {
  private waiting: { resolve: (w: Wake) => void; timer: TimerHandle; kickable: boolean } | null = null;
  kicked = false;

  constructor(
    private readonly timers: Timers,
    private readonly running: () => boolean,
  ) {}

  wait(ms: number, kickable: boolean): Promise<Wake> {
    if (!this.running()) return Promise.resolve('stop');
    if (kickable && this.kicked) {
      this.kicked = false;
      return Promise.resolve('kick');
    }
    return new Promise((resolve) => {
      const timer = this.timers.setTimeout(() => {
        this.waiting = null;
        resolve('timer');
      }, ms);
      this.waiting = { resolve, timer, kickable };
    });
  }

  wake(why: Wake): void {
    if (why === 'kick') this.kicked = true;
    const w = this.waiting;
    if (!w || (why === 'kick' && !w.kickable)) return;
    this.waiting = null;
    if (why === 'kick') this.kicked = false;
    this.timers.clearTimeout(w.timer);
    w.resolve(why);
  }

  /** Ends any wait now, a backoff too (a new enrollment is worth trying at once). */
  cutShort(): void {
    const w = this.waiting;
    if (w) {
      this.waiting = null;
      this.timers.clearTimeout(w.timer);
      w.resolve('kick');
    }
  }
}
