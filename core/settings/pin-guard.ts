// Guards the admin PIN against guessing: one check at a time (parallel calls queue, so a burst
// cannot slip past the limit), each attempt counted and persisted before the slow hash runs (so
// killing the app mid-check does not erase it), and a lockout that grows with every failure past
// the fifth. The counter lives in the settings store, so a restart does not reset it.
import { AppError } from '../../shared/errors';
import type { Clock } from '../../shared/clock';
import type { Logger } from '../../shared/logger';
import type { KeyValueStore } from './kv-store';
import { verifyPin } from './pin';

const PIN_FREE_TRIES = 5;
const MIN = 60_000;
/** Lockouts after the 5th, 6th, 7th and 8th-and-later wrong PIN in a row. */
const LOCKOUT_STEPS_MS = [1 * MIN, 5 * MIN, 15 * MIN, 60 * MIN] as const;

/**
 * How long the app stays locked after `failures` wrong PINs in a row (0: not locked).
 * @internal for tests
 */
export function lockoutAfter(failures: number): number {
  if (failures < PIN_FREE_TRIES) return 0;
  return LOCKOUT_STEPS_MS[Math.min(failures - PIN_FREE_TRIES, LOCKOUT_STEPS_MS.length - 1)]!;
}

const minutes = (ms: number) => {
  const m = Math.max(1, Math.ceil(ms / MIN));
  return `${m} minute${m === 1 ? '' : 's'}`;
};

interface PinGuardDeps {
  store: KeyValueStore;
  clock: Clock;
  logger: Logger;
  /** The stored hash, or null when no PIN is set. */
  hash: () => string | null;
  /** Tests observe the order of counting and hashing; the app uses scrypt. */
  verify?: (pin: string, hash: string) => Promise<boolean>;
}

export function createPinGuard(deps: PinGuardDeps) {
  const { store, clock, logger } = deps;
  const verify = deps.verify ?? verifyPin;
  let queue: Promise<unknown> = Promise.resolve();

  const failures = () => {
    const v = store.get('pinFailures');
    return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : 0;
  };
  const lockedUntil = (): number | null => {
    const v = store.get('pinLockedUntil');
    return typeof v === 'number' && v > clock.now() ? v : null;
  };

  async function checkOne(pin: string): Promise<void> {
    const hash = deps.hash();
    if (!hash) throw new AppError('PIN_NOT_SET', 'No admin PIN is set yet. Choose one first.');
    const until = lockedUntil();
    if (until)
      throw new AppError('PIN_LOCKED', `Too many wrong PINs. Try again in ${minutes(until - clock.now())}.`, {
        lockedUntil: until,
      });
    const attempt = failures() + 1;
    store.set('pinFailures', attempt); // counted as wrong until it proves right
    if (await verify(pin, hash)) {
      store.set('pinFailures', 0);
      return;
    }
    const lock = lockoutAfter(attempt);
    if (lock > 0) {
      const next = clock.now() + lock;
      store.set('pinLockedUntil', next);
      logger.warn('admin PIN locked after repeated failures', { failures: attempt, lockedForMs: lock });
      throw new AppError('PIN_LOCKED', `Too many wrong PINs. Settings are locked for ${minutes(lock)}.`, {
        lockedUntil: next,
      });
    }
    logger.warn('admin PIN wrong', { failures: attempt });
    const left = PIN_FREE_TRIES - attempt;
    throw new AppError(
      'PIN_WRONG',
      `That PIN is not right. ${left} ${left === 1 ? 'try' : 'tries'} left before a pause.`,
    );
  }

  return {
    lockedUntil,
    /** Resolves when `pin` is right; checks run strictly one after another. */
    check(pin: string): Promise<void> {
      const run = queue.then(() => checkOne(pin));
      queue = run.catch(() => undefined);
      return run;
    },
  };
}
