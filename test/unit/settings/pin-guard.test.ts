// The admin PIN guard: one check at a time, each attempt counted before the slow hash runs, and a
// lockout that grows (5 tries, then 1, 5, 15, 60 minutes) and survives a restart.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { memoryLogger } from '../../../shared/logger';
import { confStore } from '../../../core/settings';
import { createSettingsService } from '../../../core/settings/settings-service';
import { fileVault } from '../../../core/settings/secret-vault';
import { createPinGuard, lockoutAfter } from '../../../core/settings/pin-guard';

let dir: string;
let now: number;
const clock = { now: () => now };
const service = () =>
  createSettingsService({
    store: confStore(dir),
    vault: fileVault(join(dir, 'secrets.json')),
    logger: memoryLogger(),
    clock,
  });
const MIN = 60_000;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'counterpay-pin-'));
  now = 1_763_726_400_000;
});

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'OK';
  } catch (e) {
    return (e as { code: string }).code;
  }
}

describe('lockout schedule', () => {
  it('five free tries, then 1, 5, 15 and 60 minutes, staying at 60', () => {
    expect([0, 1, 4].map(lockoutAfter)).toEqual([0, 0, 0]);
    expect([5, 6, 7, 8, 9, 30].map(lockoutAfter)).toEqual([1 * MIN, 5 * MIN, 15 * MIN, 60 * MIN, 60 * MIN, 60 * MIN]);
  });
});

describe('PIN checks', { timeout: 30_000 }, () => {
  it('twenty wrong PINs at once: only five are checked, the rest are refused unchecked', async () => {
    const s = service();
    await s.setPin('482913');
    s.lock();
    const codes = await Promise.all(Array.from({ length: 20 }, () => codeOf(s.unlock('111111'))));
    expect(codes.filter((c) => c === 'PIN_WRONG')).toHaveLength(4);
    expect(codes.filter((c) => c === 'PIN_LOCKED')).toHaveLength(16);
    expect(confStore(dir).get('pinFailures')).toBe(5);
    // The right PIN sent with a burst of wrong ones, after them, is refused too.
    expect(await codeOf(s.unlock('482913'))).toBe('PIN_LOCKED');
  });

  it('the attempt is counted before the slow hash runs (killing the app mid-check does not erase it)', async () => {
    const store = confStore(dir);
    store.set('pinFailures', 2);
    const seen: unknown[] = [];
    const guard = createPinGuard({
      store,
      clock,
      logger: memoryLogger(),
      hash: () => 'scrypt$stored',
      verify: async () => {
        seen.push(store.get('pinFailures'));
        return false;
      },
    });
    await expect(guard.check('1234')).rejects.toMatchObject({ code: 'PIN_WRONG' });
    expect(seen).toEqual([3]);
  });

  it('the lockout grows with each failure after it and a right PIN resets it', async () => {
    // The guard with a fast stand-in for scrypt: this is about the schedule, not the hash.
    const guard = createPinGuard({
      store: confStore(dir),
      clock,
      logger: memoryLogger(),
      hash: () => 'stored',
      verify: async (pin) => pin === '482913',
    });
    for (let i = 0; i < 5; i++) await codeOf(guard.check('111111'));
    expect(guard.lockedUntil()).toBe(now + 1 * MIN);
    now += 1 * MIN;
    expect(await codeOf(guard.check('111111'))).toBe('PIN_LOCKED');
    expect(guard.lockedUntil()).toBe(now + 5 * MIN);
    now += 5 * MIN;
    await codeOf(guard.check('111111'));
    expect(guard.lockedUntil()).toBe(now + 15 * MIN);
    now += 15 * MIN;
    await codeOf(guard.check('111111'));
    expect(guard.lockedUntil()).toBe(now + 60 * MIN);
    now += 60 * MIN;
    await codeOf(guard.check('111111'));
    expect(guard.lockedUntil()).toBe(now + 60 * MIN);
    now += 60 * MIN;
    expect(await codeOf(guard.check('482913'))).toBe('OK');
    for (let i = 0; i < 4; i++) expect(await codeOf(guard.check('111111'))).toBe('PIN_WRONG');
  });

  it('a restart keeps the counter and the lockout', async () => {
    const first = service();
    await first.setPin('482913');
    for (let i = 0; i < 3; i++) await codeOf(first.unlock('111111'));
    const second = service();
    expect(await codeOf(second.unlock('111111'))).toBe('PIN_WRONG');
    expect(await codeOf(second.unlock('111111'))).toBe('PIN_LOCKED');
    const third = service();
    expect(third.pinStatus().lockedUntil).toBe(now + 1 * MIN);
    expect(await codeOf(third.unlock('482913'))).toBe('PIN_LOCKED');
  });

  it('the refusal says how long to wait in minutes', async () => {
    const s = service();
    await s.setPin('482913');
    for (let i = 0; i < 4; i++) await codeOf(s.unlock('111111'));
    await expect(s.unlock('111111')).rejects.toThrow(/locked for 1 minute/);
    now += 30_000;
    await expect(s.unlock('482913')).rejects.toThrow(/Try again in 1 minute/);
  });
});
