// Retry delays, computed one way for every retrying part of the core (order checks, the
// connectivity probe, the provider re-probe, top-up retries): doubling from a base to a cap.
import type { TimerHandle, Timers } from './timers';

export interface BackoffTuning {
  baseMs: number;
  maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffTuning = { baseMs: 1_000, maxMs: 15_000 };

/** Doubling delay after `failures` failed attempts (1 -> base), capped; 0 before any failure; no jitter. */
export function doublingDelay(failures: number, t: BackoffTuning): number {
  if (failures <= 0) return 0;
  return Math.min(t.maxMs, t.baseMs * 2 ** Math.min(failures - 1, 30));
}

/**
 * Delay before retry number `failures` (1 = first retry): doubling, capped, with "equal
 * jitter" (half fixed, half random) so counters that lost the network together do not all
 * come back in the same second. `random` returns [0, 1).
 */
export function backoffWithJitter(failures: number, t: BackoffTuning, random: () => number): number {
  const ceiling = doublingDelay(Math.max(failures, 1), t);
  const r = Math.min(Math.max(random(), 0), 1);
  return Math.round(ceiling / 2 + (ceiling / 2) * r);
}

/**
 * One pending retry at a time, after `backoffWithJitter` of the failures so far: the connectivity
 * probe's and the provider re-probe's timer.
 */
export class RetryTimer {
  private handle: TimerHandle | null = null;
  private dueAt: number | null = null;

  constructor(
    private readonly d: { timers: Timers; now: () => number; random: () => number; backoff: BackoffTuning },
  ) {}

  get pending(): boolean {
    return this.handle !== null;
  }

  /** When the pending retry fires; null when none is pending. */
  get at(): number | null {
    return this.dueAt;
  }

  /** Sets the retry (unless one is pending) and says when it fires. */
  set(failures: number, fire: () => void): number {
    if (this.handle !== null && this.dueAt !== null) return this.dueAt;
    const delay = backoffWithJitter(failures, this.d.backoff, this.d.random);
    const at = this.d.now() + delay;
    this.dueAt = at;
    this.handle = this.d.timers.setTimeout(() => {
      this.handle = null;
      this.dueAt = null;
      fire();
    }, delay);
    return at;
  }

  clear(): void {
    if (this.handle !== null) this.d.timers.clearTimeout(this.handle);
    this.handle = null;
    this.dueAt = null;
  }
}
