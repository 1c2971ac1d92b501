// Manager accounts of the dashboard: scrypt password hashes (parameters kept with each hash), the
// one-time setup token of the first start, and sessions (only the SHA-256 of the id is stored; idle
// and absolute expiry; at most MAX_SESSIONS_PER_MANAGER each; logout everywhere). Checking a login
// (its throttling) is login-throttle.ts.
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
export const dummy = () => (dummyHash ??= hashPassword(randomBytes(16).toString('hex')));

// ---- Accounts ----------------------------------------------------------------------------------

export const nameKey = (name: string) => name.trim().normalize('NFC').toLowerCase();
const newId = (prefix: string) => `${prefix}_${randomBytes(6).toString('hex')}`;

export interface ManagerRow {
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

/**
 * Open sessions a manager may hold; a login past it ends their oldest (issue 36), so logging in many
 * times cannot fill the Hub's memory of known credentials (10,000) and push the counters out of it.
 */
export const MAX_SESSIONS_PER_MANAGER = 10;

/**
 * A new session (a new random id every login: no fixation). Returns the id for the cookie, and the
 * id hashes of the manager's oldest sessions it ended (past MAX_SESSIONS_PER_MANAGER).
 */
export async function openSession(
  db: HubDb,
  manager: ManagerView,
  now: number,
  p: SessionPolicy,
): Promise<{ id: string; session: Session; ended: string[] }> {
  const id = randomBytes(32).toString('base64url');
  const idHash = sha256(id);
  const expiresAt = now + p.absoluteMs;
  await db.query(
    'insert into manager_sessions (id_hash, manager_id, created_at, last_seen_at, expires_at) values ($1, $2, $3, $3, $4)',
    [idHash, manager.id, now, expiresAt],
  );
  // Expired sessions are swept here (logins are rare); an expired row is never accepted anyway.
  await db.query('delete from manager_sessions where expires_at <= $1 or last_seen_at <= $1 - $2', [now, p.idleMs]);
  const ended = await db.query<{ id_hash: string }>(
    `delete from manager_sessions where id_hash in (
       select id_hash from manager_sessions where manager_id = $1 and id_hash <> $2
        order by created_at desc, id_hash desc offset $3)
     returning id_hash`,
    [manager.id, idHash, MAX_SESSIONS_PER_MANAGER - 1],
  );
  return {
    id,
    ended: ended.map((r) => r.id_hash),
    session: {
      manager,
      idHash,
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
