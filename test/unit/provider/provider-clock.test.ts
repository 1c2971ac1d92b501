// Clock skew: the offset one answer shows, when it is shown and corrected, and the words used.
import { describe, expect, it } from 'vitest';
import { memoryLogger } from '../../../shared/logger';
import {
  clockStatus,
  describeOffset,
  offsetFromAnswer,
  parseHttpDate,
  ProviderClock,
  SKEW_MAX_CORRECTION_MS,
} from '../../../core/provider/provider-clock';

const T = Date.UTC(2026, 10, 23, 12, 0, 0);

function clockAt(t: number) {
  let now = t;
  const logger = memoryLogger();
  const pc = new ProviderClock({ now: () => now }, logger);
  return { pc, logger, set: (x: number) => (now = x) };
}

describe('offset of one answer', () => {
  it('is the provider time against the middle of the exchange, with half the Date header resolution', () => {
    expect(offsetFromAnswer(T + 360_000, T - 100, T + 100)).toBe(360_000);
    expect(offsetFromAnswer(T + 360_000, T - 100, T + 100, 1000)).toBe(360_500);
    expect(offsetFromAnswer(T - 60_000, T, T)).toBe(-60_000);
  });

  it('reads RFC 7231 dates and refuses what is not one', () => {
    expect(parseHttpDate(new Date(T).toUTCString())).toBe(T);
    expect(parseHttpDate('yesterday')).toBeNull();
    expect(parseHttpDate(null)).toBeNull();
  });

  it("describes the offset from this computer's side", () => {
    expect(describeOffset(6 * 60_000)).toBe('6 minutes behind');
    expect(describeOffset(-45_000)).toBe('45 seconds ahead');
    expect(describeOffset(3 * 3600_000)).toBe('3 hours behind');
    expect(describeOffset(-3 * 86_400_000)).toBe('3 days ahead');
  });
});

describe('ProviderClock', () => {
  it('within a minute: measured, not shown, not corrected', () => {
    const { pc } = clockAt(T);
    pc.observe(30_000);
    expect(pc.now()).toBe(T);
    expect(pc.state()).toMatchObject({ offsetMs: 30_000, correcting: false });
    expect(clockStatus(pc.state()).detail).toBe('');
  });

  it("6 minutes behind: requests are stamped with the provider's time, logged and shown", () => {
    const { pc, logger } = clockAt(T);
    const changes: boolean[] = [];
    pc.onChange((s) => changes.push(s.correcting));
    pc.observe(360_000);
    expect(pc.now()).toBe(T + 360_000);
    expect(pc.localNow()).toBe(T);
    expect(changes).toEqual([true]);
    expect(logger.lines.some((l) => l.level === 'warn' && /corrected time/.test(l.msg))).toBe(true);
    expect(clockStatus(pc.state()).detail).toBe(
      "This computer's clock is 6 minutes behind the provider's. CounterPay stamps its requests with the provider's time so sales go through; fix the date and time when you can.",
    );
    // Jitter of a second between answers is not news.
    pc.observe(361_000);
    expect(changes).toEqual([true]);
    // The clock is fixed: the correction stops.
    pc.observe(200);
    expect(changes).toEqual([true, false]);
    expect(pc.now()).toBe(T);
  });

  it('beyond the correction limit: not corrected, the cashier must fix the clock', () => {
    const { pc } = clockAt(T);
    pc.observe(-(SKEW_MAX_CORRECTION_MS + 60_000));
    expect(pc.state().correcting).toBe(false);
    expect(pc.now()).toBe(T);
    expect(clockStatus(pc.state()).detail).toMatch(
      /61 minutes ahead of the provider's\. That is too far off to correct: fix the date and time/,
    );
  });

  it('measures from a Date header, ignoring a missing one', () => {
    const { pc } = clockAt(T);
    expect(pc.observeDateHeader(undefined, T, T)).toBeNull();
    expect(pc.state().offsetMs).toBeNull();
    expect(pc.observeDateHeader(new Date(T + 360_000).toUTCString(), T - 200, T + 200)).toBe(360_500);
    expect(pc.state().correcting).toBe(true);
  });
});
