// Token buckets keyed by credential or address: `perMinute` requests, bursts up to `burst`.
// In memory, per Hub instance: behind a load balancer each instance enforces its own share.
export interface RateLimitOptions {
  perMinute: number;
  burst: number;
}

export class RateLimiter {
  private buckets = new Map<string, { tokens: number; at: number }>();

  constructor(private readonly o: RateLimitOptions) {}

  /** 0 when allowed, else how long to wait in ms. */
  take(key: string, now: number): number {
    const rate = this.o.perMinute / 60_000;
    const b = this.buckets.get(key) ?? { tokens: this.o.burst, at: now };
    // A clock stepped back (NTP) must not drain the bucket: time only ever refills it.
    b.tokens = Math.min(this.o.burst, b.tokens + Math.max(0, now - b.at) * rate);
    b.at = Math.max(b.at, now);
    this.buckets.set(key, b);
    if (this.buckets.size > 50_000) this.sweep();
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return Math.ceil((1 - b.tokens) / rate);
  }

  private sweep(): void {
    for (const [k, b] of this.buckets) if (b.tokens >= this.o.burst - 1) this.buckets.delete(k);
  }
}
