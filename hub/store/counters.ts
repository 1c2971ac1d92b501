// Counters of the Hub: enrollment with one-time expiring codes, credentials (hash only),
// revocation (its seat holds end with it), and what each counter last said about itself.
import type { CounterStatus, CounterView, EnrollRequest, EnrollResponse } from '../../shared/hub-contract';
import type { HubDb } from '../db/adapter';
import { num, numOrNull } from '../db/adapter';
import { fail } from '../errors';
import { checkCodeFree } from './counter-codes';
import { RELAY_CHANNEL, REVOKED_PREFIX } from './notifications';
import { endCounterHolds } from './seat-release';
import { newCounterId, newCredential, newEnrollCode, sha256 } from './tokens';

export interface CounterRow {
  id: string;
  name: string;
  branch: string;
  revokedAt: number | null;
}

/** A code limited to a branch (a branch manager's) enrolls only a counter of that branch. */
export async function issueEnrollCode(
  db: HubDb,
  now: number,
  ttlMinutes: number,
  branch: string | null = null,
): Promise<{ code: string; expiresAt: number; branch: string | null }> {
  const code = newEnrollCode();
  const expiresAt = now + ttlMinutes * 60_000;
  await db.query('insert into enroll_codes (code_hash, created_at, expires_at, branch) values ($1, $2, $3, $4)', [
    sha256(code),
    now,
    expiresAt,
    branch,
  ]);
  return { code, expiresAt, branch };
}

export async function enrollCounter(db: HubDb, req: EnrollRequest, now: number): Promise<EnrollResponse> {
  const credential = newCredential();
  const id = newCounterId();
  return db.tx(async (q) => {
    // The update claims the code atomically: two counters racing for one code, only one wins.
    const claimed = await q.query(
      'update enroll_codes set used_at = $2, used_by = $3 where code_hash = $1 and used_at is null and expires_at > $2 and (branch is null or branch = $4) returning code_hash',
      [sha256(req.code.toUpperCase()), now, id, req.branch],
    );
    if (!claimed.length) {
      // A code a branch manager issued is for their branch only.
      const other = await q.query<{ branch: string }>(
        'select branch from enroll_codes where code_hash = $1 and used_at is null and expires_at > $2 and branch <> $3',
        [sha256(req.code.toUpperCase()), now, req.branch],
      );
      if (other.length) {
        throw fail(
          'HUB_ENROLL_CODE_INVALID',
          403,
          `This enrollment code is for branch ${other[0]!.branch}, not ${req.branch}. Check the counter's branch (merchant id) or ask for a code for ${req.branch}.`,
          { codeBranch: other[0]!.branch, branch: req.branch },
        );
      }
      throw fail(
        'HUB_ENROLL_CODE_INVALID',
        403,
        'This enrollment code is unknown, already used or expired. Ask the Hub administrator for a new code.',
      );
    }
    // After the code is claimed: only the holder of a good code learns which counter has a name's code.
    await checkCodeFree(q, req.counterName, req.branch);
    await q.query(
      'insert into counters (id, name, branch, token_hash, enrolled_at, app_version) values ($1, $2, $3, $4, $5, $6)',
      [id, req.counterName, req.branch, sha256(credential), now, req.appVersion],
    );
    return { counterId: id, credential, branch: req.branch };
  });
}

/** The counter a credential belongs to; throws the right error for unknown or revoked ones. */
export async function authenticateCounter(db: HubDb, credential: string): Promise<CounterRow> {
  const rows = await db.query<{ id: string; name: string; branch: string; revoked_at: unknown }>(
    'select id, name, branch, revoked_at from counters where token_hash = $1',
    [sha256(credential)],
  );
  const r = rows[0];
  if (!r)
    throw fail('HUB_UNAUTHENTICATED', 401, 'This counter is not known to the Hub. Enroll it again with a new code.');
  if (r.revoked_at !== null) {
    throw fail(
      'HUB_COUNTER_REVOKED',
      403,
      'This counter was removed from the Hub by its manager. Ask them for a new enrollment code.',
      { counterId: r.id },
    );
  }
  return { id: r.id, name: r.name, branch: r.branch, revokedAt: null };
}

/** Credentials of counters not revoked (their hashes, as stored), the most recently seen first: to serve them from memory from a Hub's start. */
export async function liveCounterCredentials(
  db: HubDb,
  limit: number,
): Promise<{ tokenHash: string; counter: CounterRow }[]> {
  const rows = await db.query<{ id: string; name: string; branch: string; token_hash: string }>(
    'select id, name, branch, token_hash from counters where revoked_at is null order by last_seen_at desc nulls last, id limit $1',
    [limit],
  );
  return rows.map((r) => ({
    tokenHash: r.token_hash,
    counter: { id: r.id, name: r.name, branch: r.branch, revokedAt: null },
  }));
}

/**
 * Revokes a counter; every Hub instance on the database closes its open streams (NOTIFY), and its
 * seat holds end at once (released, the shows' counters told; its paid sales' seats stay sold).
 */
export async function revokeCounter(db: HubDb, id: string, now: number): Promise<boolean> {
  return db.tx(async (q) => {
    const rows = await q.query('update counters set revoked_at = coalesce(revoked_at, $2) where id = $1 returning id', [
      id,
      now,
    ]);
    if (rows.length) {
      await q.query('select pg_notify($1, $2)', [RELAY_CHANNEL, `${REVOKED_PREFIX}${id}`]);
      await endCounterHolds(q, id, now);
    }
    return rows.length > 0;
  });
}

export async function touchCounter(db: HubDb, id: string, now: number): Promise<void> {
  await db.query('update counters set last_seen_at = $2 where id = $1', [id, now]);
}

export async function recordCounterStatus(db: HubDb, id: string, s: CounterStatus, now: number): Promise<void> {
  await db.query(
    `update counters set last_seen_at = $2, last_sync_at = $2, app_version = $3, profile = $4, clock_offset_ms = $5, queue_length = $6, open_payments = $7 where id = $1`,
    [id, now, s.appVersion, s.profile, now - s.sentAt, s.queueLength, s.openPayments],
  );
}

export async function listCounters(db: HubDb, connected: (id: string) => boolean): Promise<CounterView[]> {
  const rows = await db.query<Record<string, unknown>>('select * from counters order by enrolled_at, id');
  return rows.map((r) => ({
    id: String(r.id),
    name: String(r.name),
    branch: String(r.branch),
    enrolledAt: num(r.enrolled_at),
    revokedAt: numOrNull(r.revoked_at),
    lastSeenAt: numOrNull(r.last_seen_at),
    appVersion: (r.app_version as string | null) ?? null,
    profile: (r.profile as string | null) ?? null,
    clockOffsetMs: numOrNull(r.clock_offset_ms),
    queueLength: numOrNull(r.queue_length),
    openPayments: numOrNull(r.open_payments),
    lastSeq: num(r.last_seq),
    connected: connected(String(r.id)),
  }));
}
