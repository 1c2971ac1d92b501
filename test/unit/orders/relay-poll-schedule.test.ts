// Polling as the safety net: while the Hub's relay stream is healthy a waiting order is checked at
// a few fixed points of its life (at most relayMaxChecks, the final check included); when the
// stream drops, its next check comes within fastMs; unknown orders are checked at once regardless.
import { describe, expect, it } from 'vitest';
import {
  checkAfterRelayDrop,
  DEFAULT_POLL_TUNING as T,
  finalCheckAt,
  nextRelayWaitingCheck,
  nextUnknownCheck,
  type PollTuning,
} from '../../../core/orders/poll-schedule';

const since = 1_000_000;

/** Every check the relay schedule makes for an order that stays waiting, answered instantly. */
function checksOverLife(expireSeconds: number, t: PollTuning = T, answerMs = 0): number[] {
  const expiresAt = since + expireSeconds * 1000;
  const out: number[] = [];
  let now = since;
  for (;;) {
    const s = nextRelayWaitingCheck({ now, waitingSince: since, expiresAt, failures: 0 }, t);
    out.push(s.at - since);
    if (s.final) return out;
    now = s.at + answerMs;
  }
}

describe('relay healthy: a waiting order is checked rarely', () => {
  it('first ~20 s after it reached the terminal, then spread out, then the final check at expiry + grace', () => {
    const checks = checksOverLife(300);
    expect(checks[0]).toBe(T.relayFirstMs);
    expect(checks.at(-1)).toBe(300_000 + T.graceMs);
    expect(checks.length).toBe(5);
    for (let i = 1; i < checks.length; i++) expect(checks[i]! - checks[i - 1]!).toBeGreaterThanOrEqual(T.relayEveryMs);
  });

  it('never more than relayMaxChecks over an order life, short or long, however slow the answers', () => {
    for (const s of [30, 60, 120, 300, 900, 3600]) {
      for (const answerMs of [0, 350, 4_000]) {
        const n = checksOverLife(s, T, answerMs).length;
        expect({ s, answerMs, n: n <= T.relayMaxChecks }).toEqual({ s, answerMs, n: true });
      }
    }
  });

  it('re-planning at any moment keeps the same points (a webhook, a resume do not add checks)', () => {
    const expiresAt = since + 300_000;
    const points = new Set(checksOverLife(300).map((x) => x + since));
    for (let now = since; now < finalCheckAt(expiresAt, T); now += 7_321) {
      expect(points.has(nextRelayWaitingCheck({ now, waitingSince: since, expiresAt, failures: 0 }, T).at)).toBe(true);
    }
  });

  it('a failed check backs off as on the fast schedule, never past the final check', () => {
    const expiresAt = since + 300_000;
    const now = since + 30_000;
    expect(nextRelayWaitingCheck({ now, waitingSince: since, expiresAt, failures: 2 }, T)).toEqual({
      at: now + 2_000,
      final: false,
    });
    const late = finalCheckAt(expiresAt, T) - 500;
    expect(nextRelayWaitingCheck({ now: late, waitingSince: since, expiresAt, failures: 4 }, T)).toEqual({
      at: finalCheckAt(expiresAt, T),
      final: true,
    });
  });

  it('past expiry + grace: checked now, then every undecidedMs after a failure', () => {
    const expiresAt = since + 60_000;
    const now = finalCheckAt(expiresAt, T) + 10;
    expect(nextRelayWaitingCheck({ now, waitingSince: since, expiresAt, failures: 0 }, T)).toEqual({
      at: now,
      final: true,
    });
    expect(nextRelayWaitingCheck({ now, waitingSince: since, expiresAt, failures: 1 }, T)).toEqual({
      at: now + T.undecidedMs,
      final: true,
    });
  });

  it('unknown orders keep their own schedule: at once', () => {
    expect(nextUnknownCheck({ now: since, expiresAt: since + 300_000, failures: 0 }, T)).toEqual({
      at: since,
      final: false,
    });
  });
});

describe('relay dropped', () => {
  it('brings the next check forward to within fastMs, keeps an earlier one', () => {
    const now = since + 100_000;
    expect(checkAfterRelayDrop(now, { at: now + 40_000, final: false }, T)).toEqual({
      at: now + T.fastMs,
      final: false,
    });
    expect(checkAfterRelayDrop(now, { at: now + 300, final: true }, T)).toEqual({ at: now + 300, final: true });
    expect(T.fastMs).toBeLessThanOrEqual(2_000);
  });
});
