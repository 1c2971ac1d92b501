// Failed attempts at the integration API, per caller address: each request without a valid key
// takes a token from its address's bucket, and an address with none left is answered 429 instead of
// 401 (no log line). Only failures are throttled: the key is checked first (one SHA-256 of a 256-bit
// random key), so a right key is answered whatever wrong ones its address sent (issue 36). The log says it once per
// address per window: the first failure at once, then a summary of how many were failed and
// refused, instead of one line per request.
import type { Logger } from '../../shared/logger';

export interface AttemptLimits {
  /** Failed attempts an address may make in a row. */
  burst: number;
  /** ... then this many a second. */
  perSecond: number;
  /** The log's summary window (ms). */
  summaryMs: number;
  /** Addresses remembered at most (the oldest full ones are forgotten first). */
  maxAddresses: number;
}

const DEFAULT_ATTEMPT_LIMITS: AttemptLimits = {
  burst: 10,
  perSecond: 1,
  summaryMs: 60_000,
  maxAddresses: 10_000,
};

interface Bucket {
  tokens: number;
  at: number;
}
interface Tally {
  failed: number;
  refused: number;
  since: number;
}

export function createAttemptThrottle(o: { logger: Logger; now: () => number; limits?: Partial<AttemptLimits> }) {
  const limits = { ...DEFAULT_ATTEMPT_LIMITS, ...o.limits };
  const perMs = limits.perSecond / 1000;
  const buckets = new Map<string, Bucket>();
  const tallies = new Map<string, Tally>();
  let timer: ReturnType<typeof setInterval> | null = null;

  const level = (b: Bucket | undefined, now: number) =>
    b ? Math.min(limits.burst, b.tokens + Math.max(0, now - b.at) * perMs) : limits.burst;

  function flush(): void {
    for (const [remote, t] of tallies) {
      if (t.failed + t.refused > 1) {
        o.logger.warn('integration requests not authenticated (summary)', {
          remote,
          failed: t.failed,
          refusedTooMany: t.refused,
          seconds: Math.round((o.now() - t.since) / 1000),
        });
      }
    }
    tallies.clear();
    if (timer) clearInterval(timer);
    timer = null;
  }

  function tally(remote: string, what: 'failed' | 'refused'): void {
    let t = tallies.get(remote);
    if (!t) {
      t = { failed: 0, refused: 0, since: o.now() };
      if (tallies.size < limits.maxAddresses) tallies.set(remote, t);
      o.logger.warn('integration request not authenticated', {
        remote,
        ...(what === 'refused' ? { refusedTooMany: true } : {}),
      });
    }
    t[what]++;
    if (!timer) {
      timer = setInterval(flush, limits.summaryMs);
      timer.unref?.();
    }
  }

  function forgetSome(now: number): void {
    for (const [k, b] of buckets) if (level(b, now) >= limits.burst) buckets.delete(k);
    while (buckets.size > limits.maxAddresses) buckets.delete(buckets.keys().next().value!);
  }

  return {
    /** For a request whose key failed: 0 when it is answered 401 (and counted by `failed`); else ms until `remote` may fail again (answered 429). */
    waitMs(remote: string): number {
      const now = o.now();
      const t = level(buckets.get(remote), now);
      if (t >= 1) return 0;
      tally(remote, 'refused');
      return Math.max(1, Math.ceil((1 - t) / perMs));
    },
    /** A request from `remote` had no valid key: it costs the address a token. */
    failed(remote: string): void {
      const now = o.now();
      buckets.set(remote, { tokens: Math.max(0, level(buckets.get(remote), now) - 1), at: now });
      if (buckets.size > limits.maxAddresses) forgetSome(now);
      tally(remote, 'failed');
    },
    close(): void {
      flush();
    },
  };
}
