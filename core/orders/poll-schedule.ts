// When to check an order next, as pure functions of time: fast while a tap is likely, slower
// later, never past expiry + grace (then one final check decides). While the Hub's relay stream
// is healthy, polling is only the safety net: a waiting order is checked a few times over its life.
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
  /** Relay healthy: the first check of a waiting order, this long after it reached the terminal. */
  relayFirstMs: number;
  /** Relay healthy: at least this long between later checks (spread wider for long-lived orders). */
  relayEveryMs: number;
  /** Relay healthy: at most this many checks of a waiting order over its life, the final one included. */
  relayMaxChecks: number;
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
  relayFirstMs: 20_000,
  relayEveryMs: 60_000,
  relayMaxChecks: 5,
};

/** The next check. `final`: made at or after expiry + grace, so its answer decides the order. */
export interface PollStep {
  at: number;
  final: boolean;
}

export function finalCheckAt(expiresAt: number, t: PollTuning): number {
  return expiresAt + t.graceMs;
}

/** Past expiry + grace every check is final: at once, or backing off (at least `undecidedMs`) after failures. */
function afterFinal(p: { now: number; failures: number }, t: PollTuning): PollStep {
  return { at: p.now + (p.failures > 0 ? Math.max(errorDelay(p.failures, t), t.undecidedMs) : 0), final: true };
}

/** A check at `at`, or the final check when `at` is not before it. */
function stepBefore(at: number, finalAt: number): PollStep {
  return at >= finalAt ? { at: finalAt, final: true } : { at, final: false };
}

/** Doubling delay after `failures` failed attempts (1 -> base), capped; no jitter. */
export function errorDelay(failures: number, t: Pick<PollTuning, 'errorBaseMs' | 'errorMaxMs'>): number {
  return doublingDelay(failures, { baseMs: t.errorBaseMs, maxMs: t.errorMaxMs });
}

/** Interval between checks of a waiting order, by how long it has been on the terminal. */
function waitingInterval(sinceOnTerminalMs: number, t: PollTuning): number {
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
  if (p.now >= finalAt) return afterFinal(p, t);
  const interval = Math.max(waitingInterval(Math.max(0, p.now - p.waitingSince), t), errorDelay(p.failures, t));
  const at = p.now + interval;
  return stepBefore(at, finalAt);
}

/**
 * Relay healthy: the checks of a waiting order sit at fixed points of its life — `relayFirstMs`
 * after it reached the terminal, then every `max(relayEveryMs, span / (relayMaxChecks - 1))`, and
 * the final check at expiry + grace — so an order is checked at most `relayMaxChecks` times
 * however often it is re-planned. A failed check backs off as on the fast schedule.
 */
export function nextRelayWaitingCheck(
  p: { now: number; waitingSince: number; expiresAt: number; failures: number },
  t: PollTuning,
): PollStep {
  const finalAt = finalCheckAt(p.expiresAt, t);
  if (p.now >= finalAt) return afterFinal(p, t);
  if (p.failures > 0) {
    const at = p.now + errorDelay(p.failures, t);
    return stepBefore(at, finalAt);
  }
  const first = p.waitingSince + t.relayFirstMs;
  const every = Math.max(t.relayEveryMs, (finalAt - first) / Math.max(1, t.relayMaxChecks - 1), 1);
  // The first point after now (a point exactly now was just checked, or is due: take the next).
  const k = p.now < first ? 0 : Math.floor((p.now - first) / every) + 1;
  const at = Math.round(first + k * every);
  return stepBefore(at, finalAt);
}

/**
 * The relay stream just dropped: a waiting order's next check comes within `fastMs`, unless its
 * own schedule has one sooner. The schedule goes on from there as without a relay.
 */
export function checkAfterRelayDrop(now: number, planned: PollStep, t: PollTuning): PollStep {
  return planned.at <= now + t.fastMs ? planned : { at: now + t.fastMs, final: false };
}

/**
 * Next check of an order whose outcome is unknown: at once the first time, then backing off.
 * Past expiry + grace every answer is final; an order still unanswered is checked every
 * `undecidedMs`, because the customer may have paid.
 */
export function nextUnknownCheck(p: { now: number; expiresAt: number; failures: number }, t: PollTuning): PollStep {
  const finalAt = finalCheckAt(p.expiresAt, t);
  if (p.now >= finalAt) return afterFinal(p, t);
  const at = p.now + errorDelay(p.failures, t);
  return stepBefore(at, finalAt);
}

/** True when an order sent now could no longer be paid before it expires: do not send it. */
export function tooLateToSend(now: number, expiresAt: number, minUsefulMs: number): boolean {
  return now + minUsefulMs > expiresAt;
}

/** orderExpireTime for a create sent now: the time left until the sale's own expiry, whole seconds. */
export function remainingExpireSeconds(now: number, expiresAt: number, maxSeconds: number): number {
  return Math.max(1, Math.min(maxSeconds, Math.ceil((expiresAt - now) / 1000)));
}
