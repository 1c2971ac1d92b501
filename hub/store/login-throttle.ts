// Checking a manager's login: the password (through the password gate, hashed whether the name
// exists or not) and its throttling, which grows with failures and checks one password at a time per
// account (claimed in the database, so it holds across instances). A failure counts only after its
// hash ran (issue 36).
import type { ManagerView } from '../../shared/hub-dashboard-contract';
import type { HubDb } from '../db/adapter';
import { num } from '../db/adapter';
import { fail } from '../errors';
import { dummy, nameKey, verifyPassword, view, type ManagerRow } from './managers';

export interface ThrottlePolicy {
  /** Failures allowed before the first wait. */
  free: number;
  firstWaitMs: number;
  /** The longest wait of one address guessing one account. */
  maxWaitMs: number;
  /** The longest wait of an account for everyone: a slowdown, so the right password still gets in after it. */
  accountMaxWaitMs: number;
}
export const DEFAULT_THROTTLE: ThrottlePolicy = {
  free: 3,
  firstWaitMs: 1000,
  maxWaitMs: 15 * 60_000,
  accountMaxWaitMs: 60_000,
};
/** A check claimed by an instance that died is free again after this. */
const CHECK_LEASE_MS = 10_000;

/** Wait after `failures` failures: none for the free ones, then doubling from firstWaitMs up to `max`. */
const waitAfter = (failures: number, p: ThrottlePolicy = DEFAULT_THROTTLE, max = p.maxWaitMs): number =>
  failures < p.free ? 0 : Math.min(max, p.firstWaitMs * 2 ** (failures - p.free));

const WAIT_SQL = `(case when failures + 1 < $3 then 0 else least($5::bigint, ($4::bigint * power(2, least(failures + 1 - $3, 40)))::bigint) end)`;

interface Wait {
  failures: number;
  lockedUntil: number;
  /** An unknown name's check in progress (as a real account's `checking_until`). */
  checkingUntil: number;
}
/** Per Hub database (so per Hub instance): the waits of address+name pairs, and the account waits of unknown names. */
const throttles = new WeakMap<HubDb, { byAddress: Map<string, Wait>; unknown: Map<string, Wait> }>();
function throttleOf(db: HubDb) {
  let t = throttles.get(db);
  if (!t) throttles.set(db, (t = { byAddress: new Map(), unknown: new Map() }));
  if (t.byAddress.size > 10_000) t.byAddress.clear();
  if (t.unknown.size > 10_000) t.unknown.clear();
  return t;
}
const rateLimited = (retryAfterMs: number) =>
  fail('HUB_RATE_LIMITED', 429, 'Too many login attempts for this manager: wait, then try again.', {
    retryAfterMs: Math.max(1000, retryAfterMs),
  });
const noWait = (): Wait => ({ failures: 0, lockedUntil: 0, checkingUntil: 0 });

/**
 * Two throttles, alike for real and unknown names so the answers never tell them apart. Only a
 * wrong password whose hash ran is a failure (issue 36): a login refused before its hash — by a
 * wait, by another check of the account in progress, or by the password gate (busy, or the
 * address's share taken) — counts for nothing and lengthens no wait.
 * - one address guessing one name: the wait grows with its failures to maxWaitMs — the guesser is
 *   locked out, nobody else;
 * - one name for everyone: one check at a time, and the wait grows with the failures from every
 *   address but stops at accountMaxWaitMs — guessing from many addresses is slowed, the right
 *   password gets in after the wait.
 * A right password forgives both.
 */
export async function checkLogin(
  db: HubDb,
  name: string,
  password: string,
  now: number,
  p: ThrottlePolicy = DEFAULT_THROTTLE,
  from = 'local',
): Promise<ManagerView> {
  const t = throttleOf(db);
  const key = nameKey(name);
  const addressKey = `${from}\u0000${key}`;
  const mine = t.byAddress.get(addressKey);
  if (mine && mine.lockedUntil > now) throw rateLimited(mine.lockedUntil - now);
  const failed = () => {
    const a = t.byAddress.get(addressKey) ?? noWait();
    t.byAddress.set(addressKey, a);
    a.failures++;
    a.lockedUntil = now + waitAfter(a.failures, p);
  };

  const found = await db.query<ManagerRow>('select * from managers where name_key = $1', [key]);
  const m = found[0];
  const wrong = () => fail('HUB_LOGIN_FAILED', 401, 'Wrong manager name or password.');
  if (!m) {
    const u = t.unknown.get(key) ?? noWait();
    t.unknown.set(key, u);
    if (u.lockedUntil > now || u.checkingUntil > now)
      throw rateLimited(Math.max(u.lockedUntil, Math.min(u.checkingUntil, now + 1000)) - now);
    u.checkingUntil = now + CHECK_LEASE_MS;
    try {
      await verifyPassword(password, await dummy(), from);
    } finally {
      u.checkingUntil = 0;
    }
    u.failures++;
    u.lockedUntil = now + waitAfter(u.failures, p, p.accountMaxWaitMs);
    failed();
    throw wrong();
  }
  const claim = await db.query(
    `update managers set checking_until = $2 + ${CHECK_LEASE_MS}
      where id = $1 and locked_until <= $2 and checking_until <= $2 returning id`,
    [m.id, now],
  );
  if (!claim.length) {
    const r = await db.query<{ locked_until: unknown; checking_until: unknown }>(
      'select locked_until, checking_until from managers where id = $1',
      [m.id],
    );
    throw rateLimited(
      Math.max(num(r[0]?.locked_until ?? 0), Math.min(num(r[0]?.checking_until ?? 0), now + 1000)) - now,
    );
  }
  let ok: boolean | null = null;
  try {
    ok = await verifyPassword(password, m.password_hash, from);
  } finally {
    // null: the hash did not run (the gate refused it): the claim is given back, nothing counted.
    await db.query(
      ok === true
        ? 'update managers set failures = 0, locked_until = 0, checking_until = 0 where id = $1'
        : ok === false
          ? `update managers set failures = failures + 1, locked_until = $2 + ${WAIT_SQL}, checking_until = 0 where id = $1`
          : 'update managers set checking_until = 0 where id = $1',
      ok === false ? [m.id, now, p.free, p.firstWaitMs, p.accountMaxWaitMs] : [m.id],
    );
  }
  if (!ok) {
    failed();
    throw wrong();
  }
  t.byAddress.delete(addressKey);
  // Told only to whoever knows the password: a departed manager learns why, a guesser learns nothing.
  if (m.disabled_at !== null && m.disabled_at !== undefined)
    throw fail('HUB_FORBIDDEN', 403, 'This manager account is disabled: ask head office to enable it again.');
  return view(m);
}

/** @internal for tests */
export async function loginFailures(db: HubDb, managerId: string): Promise<{ failures: number; lockedUntil: number }> {
  const r = (
    await db.query<{ failures: unknown; locked_until: unknown }>(
      'select failures, locked_until from managers where id = $1',
      [managerId],
    )
  )[0];
  return { failures: num(r?.failures ?? 0), lockedUntil: num(r?.locked_until ?? 0) };
}
