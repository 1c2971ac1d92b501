// When to check an order next, as pure functions of time: fast while a tap is likely, slower
// later, never past expiry + grace (then one final check decides).
import { doublingDelay } from '../lib';

export interface PollTuning {
  /** Interval while a tap is most likely (just after the order reached the terminal). */
  fastMs: number;
  fastWindowMs: number;
  mediumMs: number;
  mediumWindowMs: number;
  slowMs: number;
  /** How long past expiry the provider gets to report a late result before the final check. */
  graceMs: number;
  /** After a failed check the next one waits at least this, doubling, up to errorMaxMs. */
  errorBaseMs: number;
  errorMaxMs: number;
  /** An order still undecided after its final check is checked this often (money may have moved). */
  undecidedMs: number;
}

export const DEFAULT_POLL_TUNING: PollTuning = {
  fastMs: 1_000,
  fastWindowMs: 45_000,
  mediumMs: 2_500,
  mediumWindowMs: 120_000,
  slowMs: 5_000,
  graceMs: 30_000,
  errorBaseMs: 1_000,
  errorMaxMs: 15_000,
  undecidedMs: 30_000,
};

/** The next check. `final`: made at or after expiry + grace, so its answer decides the order. */
export interface PollStep {
  at: number;
  final: boolean;
}

export function finalCheckAt(expiresAt: number, t: PollTuning): number {
  return expiresAt + t.graceMs;
}

/** Doubling delay after `failures` failed attempts (1 -> base), capped; no jitter. */
export function errorDelay(failures: number, t: Pick<PollTuning, 'errorBaseMs' | 'errorMaxMs'>): number {
  return doublingDelay(failures, { baseMs: t.errorBaseMs, maxMs: t.errorMaxMs });
}

/** Interval between checks of a waiting order, by how long it has been on the terminal. */
export function waitingInterval(sinceOnTerminalMs: number, t: PollTuning): number {
  if (sinceOnTerminalMs < t.fastWindowMs) return t.fastMs;
  if (sinceOnTerminalMs < t.mediumWindowMs) return t.mediumMs;
  return t.slowMs;
}

/** Next check of an order waiting on the terminal since `waitingSince`. */
export function nextWaitingCheck(
  p: { now: number; waitingSince: number; expiresAt: number; failures: number },
  t: PollTuning,
): PollStep {
  const finalAt = finalCheckAt(p.expiresAt, t);
  if (p.now >= finalAt) return { at: p.now + (p.failures > 0 ? Math.max(errorDelay(p.failures, t), t.undecidedMs) : 0), final: true };
  const interval = Math.max(waitingInterval(Math.max(0, p.now - p.waitingSince), t), errorDelay(p.failures, t));
  const at = p.now + interval;
  return at >= finalAt ? { at: finalAt, final: true } : { at, final: false };
}

/**
 * Next check of an order whose outcome is unknown: at once the first time, then backing off.
 * Past expiry + grace every answer is final; an order still unanswered is checked every
 * `undecidedMs`, because the customer may have paid.
 */
export function nextUnknownCheck(p: { now: number; expiresAt: number; failures: number }, t: PollTuning): PollStep {
  const finalAt = finalCheckAt(p.expiresAt, t);
  if (p.now >= finalAt) return { at: p.now + (p.failures > 0 ? Math.max(errorDelay(p.failures, t), t.undecidedMs) : 0), final: true };
  const at = p.now + errorDelay(p.failures, t);
  return at >= finalAt ? { at: finalAt, final: true } : { at, final: false };
}

/** True when an order sent now could no longer be paid before it expires: do not send it. */
export function tooLateToSend(now: number, expiresAt: number, minUsefulMs: number): boolean {
  return now + minUsefulMs > expiresAt;
}

/** orderExpireTime for a create sent now: the time left until the sale's own expiry, whole seconds. */
export function remainingExpireSeconds(now: number, expiresAt: number, maxSeconds: number): number {
  return Math.max(1, Math.min(maxSeconds, Math.ceil((expiresAt - now) / 1000)));
}
