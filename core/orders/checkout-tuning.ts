// The checkout's timing knobs in one place: the poll schedule, the offline backoff, the minimum
// time worth sending a queued order with, and the global cap on status checks.
import { DEFAULT_BACKOFF, type BackoffTuning } from '../lib';
import { DEFAULT_POLL_TUNING, type PollTuning } from './poll-schedule';

export interface CheckoutTuning {
  poll: PollTuning;
  backoff: BackoffTuning;
  /** A queued order is only sent while at least this much of its life is left. */
  minUsefulMs: number;
  maxChecksPerSecond: number;
  checkBurst: number;
}

export interface CheckoutTuningInput {
  poll?: Partial<PollTuning>;
  backoff?: Partial<BackoffTuning>;
  minUsefulMs?: number;
  maxChecksPerSecond?: number;
  checkBurst?: number;
}

export const DEFAULT_CHECKOUT_TUNING: CheckoutTuning = {
  poll: DEFAULT_POLL_TUNING,
  backoff: DEFAULT_BACKOFF,
  minUsefulMs: 20_000,
  maxChecksPerSecond: 5,
  checkBurst: 5,
};

export function resolveTuning(t: CheckoutTuningInput = {}): CheckoutTuning {
  return {
    poll: { ...DEFAULT_CHECKOUT_TUNING.poll, ...t.poll },
    backoff: { ...DEFAULT_CHECKOUT_TUNING.backoff, ...t.backoff },
    minUsefulMs: t.minUsefulMs ?? DEFAULT_CHECKOUT_TUNING.minUsefulMs,
    maxChecksPerSecond: t.maxChecksPerSecond ?? DEFAULT_CHECKOUT_TUNING.maxChecksPerSecond,
    checkBurst: t.checkBurst ?? DEFAULT_CHECKOUT_TUNING.checkBurst,
  };
}
