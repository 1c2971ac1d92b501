// Small pieces of the Hub: token buckets (a burst, then one request per refill interval; a clock stepped back does
// not lock a counter out) and the relay NOTIFY payload cap.
import { describe, expect, it } from 'vitest';
import { KeyedTokenBuckets } from '../../shared/token-bucket';

describe('rate limiter', () => {
  it('allows a burst, then refills at the configured rate, per key', () => {
    const r = new KeyedTokenBuckets({ perMinute: 60, burst: 3 });
    const t = 1_000_000;
    expect([r.take('a', t), r.take('a', t), r.take('a', t)]).toEqual([0, 0, 0]);
    expect(r.take('a', t)).toBe(1000); // one token a second
    expect(r.take('b', t)).toBe(0); // another key has its own bucket
    expect(r.take('a', t + 1000)).toBe(0);
  });

  it('a clock stepped back does not drain the bucket', () => {
    const r = new KeyedTokenBuckets({ perMinute: 60, burst: 2 });
    expect(r.take('a', 10_000_000)).toBe(0);
    expect(r.take('a', 10_000_000 - 3_600_000)).toBe(0);
    expect(r.take('a', 10_000_000 + 1000)).toBe(0);
  });
});

describe('relay NOTIFY payload', () => {
  it('names the counters, or says "every stream" when the list would pass the 8000-byte cap', async () => {
    const { notifyPayload } = await import('../../hub/store/notifications');
    expect(notifyPayload(['ctr_a', 'ctr_b'])).toBe('ctr_a,ctr_b');
    expect(notifyPayload(Array.from({ length: 600 }, (_, i) => `ctr_${String(i).padStart(12, '0')}`))).toBe('*');
  });
});

describe('PGlite data folder lock', () => {
  it('refuses a second Hub on the same folder, and takes over a lock left by a dead process', async () => {
    const { mkdtempSync, rmSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const { lockFolder, FolderLockedError } = await import('../../hub/db/folder-lock');
    const dir = mkdtempSync(join(tmpdir(), 'hub-lock-'));
    try {
      const release = lockFolder(dir);
      // Another live process holds it (our parent stands in for a second Hub).
      writeFileSync(join(dir, 'hub.lock'), String(process.ppid));
      expect(() => lockFolder(dir)).toThrow(FolderLockedError);
      expect(() => lockFolder(dir)).toThrow(/in use by another Hub/);
      // A pid that cannot be running: the lock is stale and taken over.
      writeFileSync(join(dir, 'hub.lock'), '2147483646');
      const again = lockFolder(dir);
      again();
      release();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
