// What head office does to manager accounts, and what a manager does to their own: disable, enable,
// remove (the row is kept, renamed out of the way, for the audit trail), reset a password, change
// one's own. Each ends the sessions it must and writes its audit row in the same transaction.
// Returns the ended sessions' hashes so the caller closes their live feeds at once.
import type { AuditEntry, ManagerRosterEntry, ManagerSession, ManagerView } from '../../shared/hub-dashboard-contract';
import type { HubDb, SqlRunner } from '../db/adapter';
import { num } from '../db/adapter';
import { fail } from '../errors';
import { hashPassword, listManagers, verifyPassword, type SessionPolicy } from './managers';

export interface Actor {
  manager: ManagerView;
  address: string | null;
}
type Action = AuditEntry['action'];

/** One audit row; pass the transaction of the action so both commit or neither. */
export async function writeAudit(
  q: SqlRunner,
  a: Actor | { manager: null; name: string; address: string | null },
  action: Action,
  target: string | null,
  detail: string | null,
  now: number,
): Promise<void> {
  const actorId = a.manager ? a.manager.id : null;
  const actorName = a.manager ? a.manager.name : (a as { name: string }).name;
  await q.query(
    'insert into manager_audit (at, actor_id, actor_name, action, target, address, detail) values ($1, $2, $3, $4, $5, $6, $7)',
    [now, actorId, actorName, action, target, a.address, detail],
  );
}

interface AuditRow {
  id: unknown;
  at: unknown;
  actor_id: string | null;
  actor_name: string;
  action: Action;
  target: string | null;
  address: string | null;
  detail: string | null;
}
/** The newest first; `before` (an entry id) pages back. */
export async function listAudit(db: HubDb, limit: number, before?: number): Promise<AuditEntry[]> {
  const rows = await db.query<AuditRow>(
    `select * from manager_audit ${before ? 'where id < $2' : ''} order by id desc limit $1`,
    before ? [limit, before] : [limit],
  );
  return rows.map((r) => ({
    id: num(r.id),
    at: num(r.at),
    actorId: r.actor_id,
    actorName: r.actor_name,
    action: r.action,
    target: r.target,
    address: r.address,
    detail: r.detail,
  }));
}

async function target(q: SqlRunner, by: Actor, id: string): Promise<{ id: string; name: string; role: string }> {
  const t = (
    await q.query<{ id: string; name: string; role: string }>(
      'select id, name, role from managers where id = $1 and removed_at is null for update',
      [id],
    )
  )[0];
  if (!t) throw fail('HUB_NOT_FOUND', 404, `No manager ${id}: they may have been removed already.`);
  if (t.id === by.manager.id)
    throw fail(
      'HUB_BAD_REQUEST',
      400,
      'You cannot disable or remove your own account: ask another head-office manager.',
    );
  return t;
}
const endAll = async (q: SqlRunner, id: string) =>
  (
    await q.query<{ id_hash: string }>('delete from manager_sessions where manager_id = $1 returning id_hash', [id])
  ).map((r) => r.id_hash);

export async function setManagerDisabled(
  db: HubDb,
  by: Actor,
  id: string,
  disabled: boolean,
  now: number,
): Promise<string[]> {
  return db.tx(async (q) => {
    const t = await target(q, by, id);
    await q.query('update managers set disabled_at = $2 where id = $1', [id, disabled ? now : null]);
    const ended = disabled ? await endAll(q, id) : [];
    await writeAudit(q, by, disabled ? 'manager.disabled' : 'manager.enabled', t.name, null, now);
    return ended;
  });
}

export async function removeManager(db: HubDb, by: Actor, id: string, now: number): Promise<string[]> {
  return db.tx(async (q) => {
    const t = await target(q, by, id);
    // The name is freed for a new account; the row stays so the audit log still names who did what.
    await q.query(
      `update managers set removed_at = $2, disabled_at = coalesce(disabled_at, $2), name_key = 'removed:' || id where id = $1`,
      [id, now],
    );
    const ended = await endAll(q, id);
    await writeAudit(q, by, 'manager.removed', t.name, null, now);
    return ended;
  });
}

export async function resetPassword(
  db: HubDb,
  by: Actor,
  id: string,
  password: string,
  now: number,
): Promise<string[]> {
  const hash = await hashPassword(password);
  return db.tx(async (q) => {
    const t = (
      await q.query<{ name: string }>('select name from managers where id = $1 and removed_at is null for update', [id])
    )[0];
    if (!t) throw fail('HUB_NOT_FOUND', 404, `No manager ${id}: they may have been removed.`);
    await q.query('update managers set password_hash = $2, failures = 0, locked_until = 0 where id = $1', [id, hash]);
    const ended = await endAll(q, id);
    await writeAudit(q, by, 'manager.password-reset', t.name, null, now);
    return ended;
  });
}

/** The current password is checked first; every other session of this manager ends. */
export async function changeOwnPassword(
  db: HubDb,
  by: Actor,
  keepSession: string,
  current: string,
  password: string,
  now: number,
): Promise<string[]> {
  const row = (
    await db.query<{ password_hash: string }>('select password_hash from managers where id = $1', [by.manager.id])
  )[0];
  if (!row || !(await verifyPassword(current, row.password_hash, by.address ?? 'local')))
    throw fail('HUB_BAD_REQUEST', 400, 'The current password is wrong: type the one you logged in with.');
  const hash = await hashPassword(password);
  return db.tx(async (q) => {
    await q.query('update managers set password_hash = $2 where id = $1', [by.manager.id, hash]);
    const ended = (
      await q.query<{ id_hash: string }>(
        'delete from manager_sessions where manager_id = $1 and id_hash <> $2 returning id_hash',
        [by.manager.id, keepSession],
      )
    ).map((r) => r.id_hash);
    await writeAudit(q, by, 'manager.password-changed', by.manager.name, null, now);
    return ended;
  });
}

// ---- Who is logged in ------------------------------------------------------------------------------

/** Every manager not removed, with their last login (from the audit log) and their open sessions. */
export async function managerRoster(db: HubDb, now: number, p: SessionPolicy): Promise<ManagerRosterEntry[]> {
  const managers = await listManagers(db);
  const logins = await db.query<{ actor_id: string; at: unknown; address: string | null }>(
    `select distinct on (actor_id) actor_id, at, address from manager_audit where action = 'login' and actor_id is not null order by actor_id, id desc`,
  );
  const open = await db.query<{ manager_id: string; n: unknown }>(
    'select manager_id, count(*) as n from manager_sessions where expires_at > $1 and last_seen_at > $1 - $2 group by manager_id',
    [now, p.idleMs],
  );
  const login = new Map(logins.map((r) => [r.actor_id, r]));
  const sessions = new Map(open.map((r) => [r.manager_id, num(r.n)]));
  return managers.map((m) => {
    const l = login.get(m.id);
    return {
      ...m,
      lastLoginAt: l ? num(l.at) : null,
      lastLoginAddress: l?.address ?? null,
      sessions: sessions.get(m.id) ?? 0,
    };
  });
}

const REF_LEN = 16;
async function liveManager(db: SqlRunner, id: string): Promise<{ id: string; name: string }> {
  const t = (
    await db.query<{ id: string; name: string }>('select id, name from managers where id = $1 and removed_at is null', [
      id,
    ])
  )[0];
  if (!t) throw fail('HUB_NOT_FOUND', 404, `No manager ${id}: they may have been removed.`);
  return t;
}

/** A manager's open sessions, the newest first; `current` marks the caller's own. */
export async function managerSessions(
  db: HubDb,
  id: string,
  callerSession: string,
  now: number,
  p: SessionPolicy,
): Promise<ManagerSession[]> {
  await liveManager(db, id);
  const rows = await db.query<{ id_hash: string; created_at: unknown; last_seen_at: unknown; expires_at: unknown }>(
    'select id_hash, created_at, last_seen_at, expires_at from manager_sessions where manager_id = $1 and expires_at > $2 and last_seen_at > $2 - $3 order by created_at desc',
    [id, now, p.idleMs],
  );
  return rows.map((r) => ({
    ref: r.id_hash.slice(0, REF_LEN),
    createdAt: num(r.created_at),
    lastSeenAt: num(r.last_seen_at),
    expiresAt: num(r.expires_at),
    current: r.id_hash === callerSession,
  }));
}

/** Ends one session of a manager (by its ref) or all of them; the caller's own session is never ended here (Log out does that). */
export async function endManagerSessions(
  db: HubDb,
  by: Actor,
  callerSession: string,
  id: string,
  ref: string | null,
  now: number,
): Promise<string[]> {
  return db.tx(async (q) => {
    const t = await liveManager(q, id);
    if (ref !== null && callerSession.startsWith(ref))
      throw fail('HUB_BAD_REQUEST', 400, 'That is the session you are using now: use Log out instead.');
    const ended = (
      await q.query<{ id_hash: string }>(
        `delete from manager_sessions where manager_id = $1 and id_hash <> $2 ${ref === null ? '' : `and left(id_hash, ${REF_LEN}) = $3`} returning id_hash`,
        ref === null ? [id, callerSession] : [id, callerSession, ref],
      )
    ).map((r) => r.id_hash);
    if (ref !== null && !ended.length)
      throw fail('HUB_NOT_FOUND', 404, 'That session has already ended: refresh the list.');
    await writeAudit(
      q,
      by,
      'manager.sessions-ended',
      t.name,
      `${ended.length} session${ended.length === 1 ? '' : 's'}`,
      now,
    );
    return ended;
  });
}
