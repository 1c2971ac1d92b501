// The token bucket: the global cap on checks per second, whatever the number of orders.
import { describe, expect, it } from 'vitest';
import { TokenBucket } from '../../../shared/token-bucket';

describe('token bucket', () => {
  it('caps checks per second across all orders', () => {
    let now = 0;
    const b = new TokenBucket({ ratePerSec: 2, burst: 2, now: () => now });
    expect(b.take()).toBe(0);
    expect(b.take()).toBe(0);
    expect(b.take()).toBe(500);
    now += 499;
    expect(b.take()).toBe(1);
    now += 1;
    expect(b.take()).toBe(0);
    now += 10_000;
    expect([b.take(), b.take(), b.take()]).toEqual([0, 0, 500]); // never more than the burst
  });
});
