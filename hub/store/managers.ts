// Manager accounts of the dashboard: scrypt password hashes (parameters kept with each hash), the
// one-time setup token of the first start, login throttling that grows with failures and checks one
// password at a time per account (claimed in the database, so it holds across instances), and
// sessions (only the SHA-256 of the id is stored; idle and absolute expiry; logout everywhere).
import { createHmac, randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import type { CreateManagerRequest, ManagerView, ManagerRole } from '../../shared/hub-dashboard-contract';
import type { HubDb } from '../db/adapter';
import { num } from '../db/adapter';
import { fail } from '../errors';
import { PasswordGate } from './password-gate';
import { sha256 } from './tokens';

// ---- Password hashes ---------------------------------------------------------------------------

/** scrypt N=2^15, r=8, p=1: 32 MiB and ~50-100 ms per check. Stored as scrypt$N$r$p$salt$hash (base64url). */
const SCRYPT_PARAMS = { N: 2 ** 15, r: 8, p: 1, keylen: 32 } as const;

const scrypt = (password: string, salt: Buffer, keylen: number, o: ScryptOptions): Promise<Buffer> =>
  new Promise((resolve, reject) =>
    scryptCb(password.normalize('NFC'), salt, keylen, o, (e, k) => (e ? reject(e) : resolve(k))),
  );
const maxmem = (N: number, r: number) => 128 * N * r * 2;

export async function hashPassword(
  password: string,
  p: { N: number; r: number; p: number; keylen: number } = SCRYPT_PARAMS,
): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, p.keylen, { N: p.N, r: p.r, p: p.p, maxmem: maxmem(p.N, p.r) });
  return ['scrypt', p.N, p.r, p.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/**
 * Counts every hash computed by verifyPassword in this process (the throttling test reads it).
 * @internal for tests
 */
export const passwordChecks = { count: 0 };

/** @internal for tests */
export const passwordGate = new PasswordGate();

/** `from`: the address the check is for (its fair share of the gate). */
export async function verifyPassword(password: string, stored: string, from = 'local'): Promise<boolean> {
  const [alg, n, r, p, salt, hash] = stored.split('$');
  if (alg !== 'scrypt' || !salt || !hash) return false;
  const N = Number(n);
  const R = Number(r);
  const want = Buffer.from(hash, 'base64url');
  const got = await passwordGate.run(() => {
    passwordChecks.count++;
    return scrypt(password, Buffer.from(salt, 'base64url'), want.length, {
      N,
      r: R,
      p: Number(p),
      maxmem: maxmem(N, R),
    });
  }, from);
  return got.length === want.length && timingSafeEqual(got, want);
}

let dummyHash: Promise<string> | null = null;
/** An unknown name costs the same hash as a known one, so timing does not tell which names exist. */
const dummy = () => (dummyHash ??= hashPassword(randomBytes(16).toString('hex')));

// ---- Accounts ----------------------------------------------------------------------------------

const nameKey = (name: string) => name.trim().normalize('NFC').toLowerCase();
const newId = (prefix: string) => `${prefix}_${randomBytes(6).toString('hex')}`;

interface ManagerRow {
  id: string;
  name: string;
  role: ManagerRole;
  branch: string | null;
  password_hash: string;
  created_at: unknown;
  disabled_at: unknown;
}
export const view = (r: ManagerRow): ManagerView => ({
  id: r.id,
  name: r.name,
  role: r.role,
  branch: r.branch,
  createdAt: num(r.created_at),
  disabled: r.disabled_at !== null && r.disabled_at !== undefined,
});

async function countManagers(db: HubDb): Promise<number> {
  return num((await db.query<{ n: unknown }>('select count(*) as n from managers'))[0]!.n);
}

export async function createManager(db: HubDb, m: CreateManagerRequest, now: number): Promise<ManagerView> {
  const hash = await hashPassword(m.password);
  const rows = await db.query<ManagerRow>(
    `insert into managers (id, name, name_key, role, branch, password_hash, created_at) values ($1, $2, $3, $4, $5, $6, $7)
     on conflict (name_key) do nothing returning *`,
    [newId('mgr'), m.name.trim(), nameKey(m.name), m.role, m.role === 'branch' ? m.branch : null, hash, now],
  );
  if (!rows[0])
    throw fail('HUB_BAD_REQUEST', 400, `A manager named "${m.name.trim()}" already exists: choose another name.`);
  return view(rows[0]);
}

export async function listManagers(db: HubDb): Promise<ManagerView[]> {
  return (await db.query<ManagerRow>('select * from managers where removed_at is null order by created_at, id')).map(
    view,
  );
}

// ---- First start ---------------------------------------------------------------------------------

/** A one-time token for creating the first manager; null when a manager already exists. Only its hash is kept. */
export async function issueSetupToken(
  db: HubDb,
  now: number,
  ttlMinutes = 60,
): Promise<{ token: string; expiresAt: number } | null> {
  if ((await countManagers(db)) > 0) return null;
  const token = randomBytes(32).toString('base64url');
  const expiresAt = now + ttlMinutes * 60_000;
  await db.query('insert into setup_tokens (token_hash, created_at, expires_at) values ($1, $2, $3)', [
    sha256(token),
    now,
    expiresAt,
  ]);
  return { token, expiresAt };
}

/** Creates the first (head office) manager with a setup token: one use, before expiry, only while there is no manager. */
export async function completeSetup(
  db: HubDb,
  token: string,
  name: string,
  password: string,
  now: number,
): Promise<ManagerView> {
  const hash = await hashPassword(password);
  return db.tx(async (q) => {
    await q.query('lock table managers in exclusive mode');
    const n = num((await q.query<{ n: unknown }>('select count(*) as n from managers'))[0]!.n);
    const claimed =
      n === 0
        ? await q.query(
            'update setup_tokens set used_at = $2 where token_hash = $1 and used_at is null and expires_at > $2 returning token_hash',
            [sha256(token), now],
          )
        : [];
    if (!claimed.length) {
      throw fail(
        'HUB_FORBIDDEN',
        403,
        n > 0
          ? 'The Hub already has a manager: log in, or ask head office for an account.'
          : 'This setup link is unknown, used or expired. Restart the Hub (npm run hub) for a new one, or use npm run hub -- create-manager.',
      );
    }
    const rows = await q.query<ManagerRow>(
      `insert into managers (id, name, name_key, role, branch, password_hash, created_at) values ($1, $2, $3, 'head-office', null, $4, $5) returning *`,
      [newId('mgr'), name.trim(), nameKey(name), hash, now],
    );
    return view(rows[0]!);
  });
}

// ---- Login throttling ------------------------------------------------------------------------------

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

/**
 * Two throttles, alike for real and unknown names so the answers never tell them apart:
 * - one address guessing one name: every attempt counts (those refused too) and the wait grows to
 *   maxWaitMs — the guesser is locked out, nobody else;
 * - one name for everyone: only checked failures count, an attempt during the wait (or while another
 *   check of it runs) is refused without counting or lengthening it, and the wait stops growing at
 *   accountMaxWaitMs — guessing from many addresses is slowed, the right password gets in after the wait.
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
  const a = t.byAddress.get(addressKey) ?? { failures: 0, lockedUntil: 0 };
  t.byAddress.set(addressKey, a);
  const waiting = a.lockedUntil > now;
  a.failures++;
  a.lockedUntil = Math.max(a.lockedUntil, now + waitAfter(a.failures, p));
  if (waiting) throw rateLimited(a.lockedUntil - now);

  const found = await db.query<ManagerRow>('select * from managers where name_key = $1', [key]);
  const m = found[0];
  const wrong = () => fail('HUB_LOGIN_FAILED', 401, 'Wrong manager name or password.');
  if (!m) {
    const u = t.unknown.get(key) ?? { failures: 0, lockedUntil: 0 };
    t.unknown.set(key, u);
    if (u.lockedUntil > now) throw rateLimited(u.lockedUntil - now);
    u.failures++;
    u.lockedUntil = now + waitAfter(u.failures, p, p.accountMaxWaitMs);
    await verifyPassword(password, await dummy(), from);
    throw wrong();
  }
  const claim = await db.query<{ failures: unknown }>(
    `update managers set failures = failures + 1, checking_until = $2 + ${CHECK_LEASE_MS},
            locked_until = $2 + ${WAIT_SQL}
      where id = $1 and locked_until <= $2 and checking_until <= $2 returning failures`,
    [m.id, now, p.free, p.firstWaitMs, p.accountMaxWaitMs],
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
  let ok = false;
  try {
    ok = await verifyPassword(password, m.password_hash, from);
  } finally {
    await db.query(
      ok
        ? 'update managers set failures = 0, locked_until = 0, checking_until = 0 where id = $1'
        : 'update managers set checking_until = 0 where id = $1',
      [m.id],
    );
  }
  if (!ok) throw wrong();
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

// ---- Sessions -------------------------------------------------------------------------------------

export interface SessionPolicy {
  idleMs: number;
  absoluteMs: number;
}
export const DEFAULT_SESSION_POLICY: SessionPolicy = { idleMs: 2 * 3_600_000, absoluteMs: 12 * 3_600_000 };

export interface Session {
  manager: ManagerView;
  idHash: string;
  csrfToken: string;
  idleExpiresAt: number;
  expiresAt: number;
}

/** Derived from the session id (never stored): only a holder of the cookie can compute it. */
const csrfTokenOf = (sessionId: string): string =>
  createHmac('sha256', sessionId).update('counterpay-dashboard-csrf').digest('base64url');

/** A new session (a new random id every login: no fixation). Returns the id for the cookie. */
export async function openSession(
  db: HubDb,
  manager: ManagerView,
  now: number,
  p: SessionPolicy,
): Promise<{ id: string; session: Session }> {
  const id = randomBytes(32).toString('base64url');
  const expiresAt = now + p.absoluteMs;
  await db.query(
    'insert into manager_sessions (id_hash, manager_id, created_at, last_seen_at, expires_at) values ($1, $2, $3, $3, $4)',
    [sha256(id), manager.id, now, expiresAt],
  );
  // Expired sessions are swept here (logins are rare); an expired row is never accepted anyway.
  await db.query('delete from manager_sessions where expires_at <= $1 or last_seen_at <= $1 - $2', [now, p.idleMs]);
  return {
    id,
    session: {
      manager,
      idHash: sha256(id),
      csrfToken: csrfTokenOf(id),
      idleExpiresAt: Math.min(now + p.idleMs, expiresAt),
      expiresAt,
    },
  };
}

/** The live session of a cookie id, renewed (idle expiry) at most once a minute; null when unknown or expired. */
export async function readSession(db: HubDb, id: string, now: number, p: SessionPolicy): Promise<Session | null> {
  const idHash = sha256(id);
  const rows = await db.query<ManagerRow & { last_seen_at: unknown; expires_at: unknown }>(
    `select m.*, s.last_seen_at, s.expires_at from manager_sessions s join managers m on m.id = s.manager_id
      where s.id_hash = $1 and s.expires_at > $2 and s.last_seen_at > $2 - $3 and m.disabled_at is null and m.removed_at is null`,
    [idHash, now, p.idleMs],
  );
  const r = rows[0];
  if (!r) return null;
  let seen = num(r.last_seen_at);
  if (now - seen > 60_000) {
    await db.query('update manager_sessions set last_seen_at = $2 where id_hash = $1', [idHash, now]);
    seen = now;
  }
  const expiresAt = num(r.expires_at);
  return {
    manager: view(r),
    idHash,
    csrfToken: csrfTokenOf(id),
    idleExpiresAt: Math.min(seen + p.idleMs, expiresAt),
    expiresAt,
  };
}

export async function closeSession(db: HubDb, idHash: string): Promise<number> {
  return (await db.query('delete from manager_sessions where id_hash = $1 returning id_hash', [idHash])).length;
}

export async function closeAllSessions(db: HubDb, managerId: string): Promise<number> {
  return (await db.query('delete from manager_sessions where manager_id = $1 returning id_hash', [managerId])).length;
}

/** Of these sessions, those neither ended nor expired: one query for every live stream of an instance, on each heartbeat. */
export async function sessionsAlive(
  db: HubDb,
  idHashes: string[],
  now: number,
  p: SessionPolicy,
): Promise<Set<string>> {
  if (!idHashes.length) return new Set();
  const rows = await db.query<{ id_hash: string }>(
    'select id_hash from manager_sessions where id_hash = any($1::text[]) and expires_at > $2 and last_seen_at > $2 - $3',
    [idHashes, now, p.idleMs],
  );
  return new Set(rows.map((r) => r.id_hash));
}
