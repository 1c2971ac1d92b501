// A token bucket: the global cap on status checks per second, whatever the number of orders.

export class TokenBucket {
  private tokens: number;
  private last: number;
  private readonly ratePerSec: number;
  private readonly burst: number;
  private readonly now: () => number;

  constructor(opts: { ratePerSec: number; burst: number; now: () => number }) {
    if (!(opts.ratePerSec > 0) || !(opts.burst >= 1)) throw new RangeError('token bucket needs rate > 0 and burst >= 1');
    this.ratePerSec = opts.ratePerSec;
    this.burst = opts.burst;
    this.now = opts.now;
    this.tokens = opts.burst;
    this.last = opts.now();
  }

  /** Takes a token and returns 0, or returns how many ms until one is free (taking nothing). */
  take(): number {
    this.refill();
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil(((1 - this.tokens) / this.ratePerSec) * 1000 - 1e-6));
  }

  private refill(): void {
    const t = this.now();
    const elapsed = Math.max(0, t - this.last);
    this.last = t;
    this.tokens = Math.min(this.burst, this.tokens + (elapsed / 1000) * this.ratePerSec);
  }
}
