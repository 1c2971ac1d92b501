// The poll schedule and the expiry rule for sending.
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_POLL_TUNING as T,
  errorDelay,
  nextUnknownCheck,
  nextWaitingCheck,
  remainingExpireSeconds,
  tooLateToSend,
} from '../../../core/orders/poll-schedule';

const since = 1_000_000;
const expiresAt = since + 300_000;

describe('waiting orders', () => {
  it('checks every second while a tap is likely, then every 2.5 s, then every 5 s', () => {
    const at = (elapsed: number) =>
      nextWaitingCheck({ now: since + elapsed, waitingSince: since, expiresAt, failures: 0 }, T);
    expect(at(0)).toEqual({ at: since + 1_000, final: false });
    expect(at(44_000).at - (since + 44_000)).toBe(1_000);
    expect(at(45_000).at - (since + 45_000)).toBe(2_500);
    expect(at(119_000).at - (since + 119_000)).toBe(2_500);
    expect(at(120_000).at - (since + 120_000)).toBe(5_000);
    expect(at(299_000).at - (since + 299_000)).toBe(5_000); // keeps checking through the grace period
  });

  it('never plans past expiry + grace; that last check is the final one', () => {
    const finalAt = expiresAt + T.graceMs;
    expect(nextWaitingCheck({ now: finalAt - 2_000, waitingSince: since, expiresAt, failures: 0 }, T)).toEqual({
      at: finalAt,
      final: true,
    });
    expect(nextWaitingCheck({ now: finalAt + 5, waitingSince: since, expiresAt, failures: 0 }, T)).toEqual({
      at: finalAt + 5,
      final: true,
    });
  });

  it('backs off after failed checks, but not past the final check', () => {
    const now = since + 10_000;
    expect(nextWaitingCheck({ now, waitingSince: since, expiresAt, failures: 1 }, T).at - now).toBe(1_000);
    expect(nextWaitingCheck({ now, waitingSince: since, expiresAt, failures: 3 }, T).at - now).toBe(4_000);
    expect(nextWaitingCheck({ now, waitingSince: since, expiresAt, failures: 10 }, T).at - now).toBe(15_000);
    const late = expiresAt + T.graceMs - 3_000;
    expect(nextWaitingCheck({ now: late, waitingSince: since, expiresAt, failures: 10 }, T)).toEqual({
      at: expiresAt + T.graceMs,
      final: true,
    });
  });

  it('an order still undecided after the final check is checked every 30 s', () => {
    const now = expiresAt + T.graceMs + 1;
    expect(nextWaitingCheck({ now, waitingSince: since, expiresAt, failures: 1 }, T)).toEqual({
      at: now + 30_000,
      final: true,
    });
  });
});

describe('unknown orders', () => {
  it('are checked at once, then with doubling delays', () => {
    const now = since;
    expect(nextUnknownCheck({ now, expiresAt, failures: 0 }, T)).toEqual({ at: now, final: false });
    expect(nextUnknownCheck({ now, expiresAt, failures: 2 }, T)).toEqual({ at: now + 2_000, final: false });
    expect(errorDelay(0, T)).toBe(0);
    expect(errorDelay(5, T)).toBe(15_000);
  });

  it('past expiry + grace every answer is final', () => {
    const now = expiresAt + T.graceMs;
    expect(nextUnknownCheck({ now, expiresAt, failures: 0 }, T)).toEqual({ at: now, final: true });
    expect(nextUnknownCheck({ now, expiresAt, failures: 1 }, T)).toEqual({ at: now + 30_000, final: true });
  });
});

describe('sending rules', () => {
  it('does not send an order that could not be paid before it expires', () => {
    expect(tooLateToSend(1_000, 31_000, 20_000)).toBe(false);
    expect(tooLateToSend(11_000, 31_000, 20_000)).toBe(false); // exactly the minimum left
    expect(tooLateToSend(11_001, 31_000, 20_000)).toBe(true);
  });

  it('a late send asks the provider only for the time left', () => {
    expect(remainingExpireSeconds(0, 300_000, 300)).toBe(300);
    expect(remainingExpireSeconds(60_500, 300_000, 300)).toBe(240);
    expect(remainingExpireSeconds(0, 900_000, 300)).toBe(300);
  });
});
