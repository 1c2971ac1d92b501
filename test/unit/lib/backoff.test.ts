// Retry delays: doubling to a cap, and the jittered form every retrying part of the core uses.
import { describe, expect, it } from 'vitest';
import { backoffWithJitter, doublingDelay, RetryTimer } from '../../../core/lib/backoff';
import { fakeTime } from '../../helpers/orders-fake-time';

describe('backoff', () => {
  it('backoff doubles to a cap, half of it jittered by the injected random', () => {
    const b = { baseMs: 1_000, maxMs: 15_000 };
    expect(backoffWithJitter(1, b, () => 0)).toBe(500);
    expect(backoffWithJitter(1, b, () => 0.999999)).toBe(1_000);
    expect(backoffWithJitter(3, b, () => 0.5)).toBe(3_000);
    expect(backoffWithJitter(20, b, () => 0)).toBe(7_500);
    expect(backoffWithJitter(20, b, () => 1)).toBe(15_000);
  });

  it('the plain delay is nothing before a failure, the base after the first, and never past the cap', () => {
    const b = { baseMs: 2_000, maxMs: 60_000 };
    expect([0, 1, 2, 3, 5, 6, 1_000].map((n) => doublingDelay(n, b))).toEqual([
      0, 2_000, 4_000, 8_000, 32_000, 60_000, 60_000,
    ]);
  });

  it('a retry timer holds one retry at a time, due after the jittered backoff, and forgets it when fired or cleared', async () => {
    const t = fakeTime(1_000_000);
    const retry = new RetryTimer({
      timers: t.timers,
      now: t.clock.now,
      random: () => 0,
      backoff: { baseMs: 1_000, maxMs: 15_000 },
    });
    let fired = 0;
    expect(retry.set(3, () => fired++)).toBe(1_002_000);
    expect(retry.set(1, () => (fired += 100))).toBe(1_002_000); // the pending one stands
    expect([retry.pending, retry.at]).toEqual([true, 1_002_000]);
    await t.advance(1_999);
    expect(fired).toBe(0);
    await t.advance(1);
    expect([fired, retry.pending, retry.at]).toEqual([1, false, null]);
    retry.set(1, () => fired++);
    retry.clear();
    await t.advance(60_000);
    expect([fired, retry.pending, retry.at]).toEqual([1, false, null]);
  });
});
