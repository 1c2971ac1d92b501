// The token bucket, once for every process: `takeToken` is the pure rule (refill by elapsed time,
// never past the burst; a clock stepped back refills nothing and drains nothing), `TokenBucket` one
// bucket on an injected clock (the counter's cap on status checks), `KeyedTokenBuckets` one bucket
// per key with the time passed in (the Hub's limits per address, credential or manager).

interface BucketState {
  tokens: number;
  /** The latest time the bucket was refilled to (ms). */
  at: number;
}

interface BucketRate {
  perSecond: number;
  burst: number;
}

/** Refills `state` to `now` and takes one token: waitMs 0 when taken, else ms until one is free (nothing taken). */
export function takeToken(state: BucketState, now: number, rate: BucketRate): { state: BucketState; waitMs: number } {
  const perMs = rate.perSecond / 1000;
  const tokens = Math.min(rate.burst, state.tokens + Math.max(0, now - state.at) * perMs);
  const at = Math.max(state.at, now);
  if (tokens >= 1) return { state: { tokens: tokens - 1, at }, waitMs: 0 };
  return { state: { tokens, at }, waitMs: Math.max(1, Math.ceil((1 - tokens) / perMs - 1e-6)) };
}

function checkRate(rate: BucketRate): void {
  if (!(rate.perSecond > 0) || !(rate.burst >= 1)) throw new RangeError('token bucket needs rate > 0 and burst >= 1');
}

export class TokenBucket {
  private state: BucketState;
  private readonly rate: BucketRate;

  constructor(private readonly opts: { ratePerSec: number; burst: number; now: () => number }) {
    this.rate = { perSecond: opts.ratePerSec, burst: opts.burst };
    checkRate(this.rate);
    this.state = { tokens: opts.burst, at: opts.now() };
  }

  /** Takes a token and returns 0, or returns how many ms until one is free (taking nothing). */
  take(): number {
    const r = takeToken(this.state, this.opts.now(), this.rate);
    this.state = r.state;
    return r.waitMs;
  }
}

/** One bucket per key (address, credential, manager). Full buckets are forgotten when the map grows past `maxKeys`. */
export class KeyedTokenBuckets {
  private buckets = new Map<string, BucketState>();
  private readonly rate: BucketRate;

  constructor(o: { perMinute: number; burst: number; maxKeys?: number }) {
    this.rate = { perSecond: o.perMinute / 60, burst: o.burst };
    this.maxKeys = o.maxKeys ?? 50_000;
    checkRate(this.rate);
  }

  private readonly maxKeys: number;

  /** 0 when allowed, else how long to wait in ms. */
  take(key: string, now: number): number {
    const r = takeToken(this.buckets.get(key) ?? { tokens: this.rate.burst, at: now }, now, this.rate);
    this.buckets.set(key, r.state);
    if (this.buckets.size > this.maxKeys) this.sweep(now);
    return r.waitMs;
  }

  private sweep(now: number): void {
    for (const [k, b] of this.buckets) {
      if (b.tokens + Math.max(0, now - b.at) * (this.rate.perSecond / 1000) >= this.rate.burst) this.buckets.delete(k);
    }
  }
}
