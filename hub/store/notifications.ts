// Provider notifications: stored once (a byte-identical repeat is a duplicate), routed to the
// counter that owns the order (or every counter of the branch, or every counter when the branch
// has none), delivered at least once until acknowledged, logged step by step, replayable, pruned.
import type { NotificationLog } from '../../shared/hub-contract';
import type { HubDb, SqlRunner } from '../db/adapter';
import { num, numOrNull } from '../db/adapter';
import { sha256 } from './tokens';

/** NOTIFY channel: payload is a comma-separated list of counter ids with new deliveries. */
export const RELAY_CHANNEL = 'hub_relay';
/** Payload on RELAY_CHANNEL telling every instance that a counter was revoked. */
export const REVOKED_PREFIX = 'revoked:';

export type NotificationKind = 'pos' | 'bills';

export interface IngestInput {
  kind: NotificationKind;
  headers: Record<string, string>;
  body: string;
  /** Keys that may name the order: provider order number, our reference. */
  orderKeys: string[];
  branch: string | null;
  /** What was checked before storing (for the delivery log). */
  verifiedDetail: string;
  now: number;
}

export interface IngestResult {
  notificationId: string;
  duplicate: boolean;
  counterIds: string[];
}

const log = (q: SqlRunner, id: string, now: number, step: string, counterId: string | null, detail: string) =>
  q.query('insert into delivery_log (notification_id, at, step, counter_id, detail) values ($1, $2, $3, $4, $5)', [id, now, step, counterId, detail]);

/** One query: the owner of the order; else every counter of the branch; else every counter. */
async function route(q: SqlRunner, orderKeys: string[], branch: string | null): Promise<{ ids: string[]; why: string }> {
  const rows = await q.query<{ id: string; why: string; key: string | null }>(
    `with owner as (
       select c.id, o.order_key as key from order_owners o join counters c on c.id = o.counter_id
        where o.order_key = any($1::text[]) and c.revoked_at is null limit 1),
     branch as (select id from counters where branch = $2 and revoked_at is null and not exists (select 1 from owner)),
     everyone as (select id from counters where revoked_at is null and not exists (select 1 from owner) and not exists (select 1 from branch))
     select id, 'owner' as why, key from owner
     union all select id, 'branch', null from branch
     union all select id, 'all', null from everyone
     order by 1`,
    [orderKeys.filter(Boolean), branch],
  );
  const why = rows[0]?.why;
  return {
    ids: rows.map((r) => r.id),
    why: why === 'owner' ? `owner of order ${rows[0]!.key}` : why === 'branch' ? `order not yet known: every counter of branch ${branch}` : 'order and branch not known: every counter',
  };
}

/** NOTIFY payloads are capped at 8000 bytes: a very long list becomes '*' (every stream re-reads). */
export const notifyPayload = (counterIds: string[]): string => {
  const p = counterIds.join(',');
  return p.length > 7000 ? '*' : p;
};

/** One statement (fewer round trips per webhook): the deliveries, their log lines after any `first` lines, and the NOTIFY. */
async function addDeliveries(
  q: SqlRunner, notificationId: string, counterIds: string[], now: number, replay: boolean, why: string, first: { step: string; detail: string }[] = [],
): Promise<void> {
  const step = replay ? 'replayed' : 'routed';
  const logs = [...first.map((f) => ({ ...f, counter: null as string | null })), ...counterIds.map((c) => ({ step, detail: why, counter: c as string | null }))];
  await q.query(
    `with d as (
       insert into deliveries (notification_id, counter_id, created_at, replay) select $1, c, $2, $3 from unnest($4::text[]) as c returning id),
     l as (
       insert into delivery_log (notification_id, at, step, counter_id, detail)
       select $1, $2, s, c, dt from unnest($5::text[], $6::text[], $7::text[]) with ordinality as t(s, c, dt, n) order by n)
     select case when cardinality($4::text[]) > 0 then pg_notify($8, $9) end as notified`,
    [notificationId, now, replay, counterIds, logs.map((l) => l.step), logs.map((l) => l.counter), logs.map((l) => l.detail), RELAY_CHANNEL, notifyPayload(counterIds)],
  );
}

/**
 * One statement, so one round trip and atomic without BEGIN/COMMIT: store the notification, route
 * it (owner, else branch, else everyone), add its deliveries and log lines. A byte-identical repeat
 * inserts nothing and is logged as a duplicate. No NOTIFY in it: PostgreSQL holds one global lock
 * from a NOTIFYing transaction's commit until its WAL flush ends, so a NOTIFY here made every
 * webhook's commit wait for the previous one's fsync (no group commit). The caller announces the
 * counters afterwards (RelayHub.announce -> notifyCounters).
 */
const INGEST_SQL = `
  with n as (
    insert into notifications (kind, received_at, order_no, branch, headers, body, body_hash) values ($1, $2, $3, $4, $5, $6, $7)
    on conflict (kind, body_hash) do nothing returning id),
  owner as (
    select c.id, o.order_key as key from order_owners o join counters c on c.id = o.counter_id
     where o.order_key = any($8::text[]) and c.revoked_at is null limit 1),
  br as (select id from counters where branch = $4 and revoked_at is null and not exists (select 1 from owner)),
  everyone as (select id from counters where revoked_at is null and not exists (select 1 from owner) and not exists (select 1 from br)),
  targets as (
    select id, 'owner of order ' || key as why from owner
    union all select id, 'order not yet known: every counter of branch ' || $4::text from br
    union all select id, 'order and branch not known: every counter' from everyone),
  d as (insert into deliveries (notification_id, counter_id, created_at, replay) select n.id, t.id, $2, false from n, targets t),
  l as (
    insert into delivery_log (notification_id, at, step, counter_id, detail)
    select n.id, $2, x.step, x.counter_id, x.detail from n, (
      select 1 as o, 'received' as step, null::text as counter_id, $9::text as detail
      union all select 2, 'verified', null, $10::text
      union all select 3, 'routed', t.id, t.why from targets t) x
    order by x.o, x.counter_id)
  select (select id from n) as id, (select array_agg(id order by id) from targets) as counters`;

export async function ingestNotification(db: HubDb, n: IngestInput): Promise<IngestResult> {
  const hash = sha256(n.body);
  const rows = await db.query<{ id: unknown; counters: string[] | string | null }>(INGEST_SQL, [
    n.kind, n.now, n.orderKeys[0] ?? null, n.branch, JSON.stringify(n.headers), n.body, hash, n.orderKeys.filter(Boolean),
    `${n.kind} notification, ${n.body.length} bytes`, n.verifiedDetail,
  ]);
  const r = rows[0]!;
  if (r.id === null || r.id === undefined) {
    const existing = await db.query<{ id: unknown }>('select id from notifications where kind = $1 and body_hash = $2', [n.kind, hash]);
    const id = String(num(existing[0]!.id));
    await log(db, id, n.now, 'duplicate', null, 'the same body arrived again: stored once, not relayed again');
    return { notificationId: id, duplicate: true, counterIds: [] };
  }
  return { notificationId: String(num(r.id)), duplicate: false, counterIds: pgTextArray(r.counters) };
}

/**
 * Tells every instance (this one too) that these counters have new deliveries. Its own statement,
 * committed without waiting for the WAL flush: a NOTIFY is not durable anyway, and one lost (a
 * crash between the ingest's commit and this) only delays, because every relay stream re-reads its
 * pending deliveries on each heartbeat.
 */
export async function notifyCounters(db: SqlRunner, counterIds: string[]): Promise<void> {
  if (counterIds.length === 0) return;
  await db.query(`select set_config('synchronous_commit', 'off', true), pg_notify($1, $2)`, [RELAY_CHANNEL, notifyPayload(counterIds)]);
}

/** text[] arrives as an array from both drivers, or as '{a,b}' text from some type setups. */
function pgTextArray(v: string[] | string | null): string[] {
  if (v === null) return [];
  if (Array.isArray(v)) return v;
  return v.replace(/^\{|\}$/g, '').split(',').filter(Boolean);
}

export interface PendingDelivery {
  eventId: string;
  notificationId: string;
  kind: NotificationKind;
  receivedAt: number;
  headers: Record<string, string>;
  body: string;
  replay: boolean;
}

/**
 * Deliveries a counter has not acknowledged. `resumeAfter` (the stream's Last-Event-ID) skips what
 * the counter says it holds; deliveries never sent are always included, whatever their id, because
 * ids are given at insert and a lower id can commit after a higher one.
 */
export async function pendingDeliveries(db: HubDb, counterId: string, resumeAfter: number | null, limit: number): Promise<PendingDelivery[]> {
  const rows = await db.query<Record<string, unknown>>(
    `select d.id, d.notification_id, d.replay, n.kind, n.received_at, n.headers, n.body
       from deliveries d join notifications n on n.id = d.notification_id
      where d.counter_id = $1 and d.acked_at is null and (d.relayed_at is null or ($2::bigint is not null and d.id > $2::bigint))
      order by d.id limit $3`,
    [counterId, resumeAfter, limit],
  );
  return rows.map((r) => ({
    eventId: String(num(r.id)), notificationId: String(num(r.notification_id)), kind: r.kind as NotificationKind, receivedAt: num(r.received_at),
    headers: (typeof r.headers === 'string' ? JSON.parse(r.headers) : r.headers) as Record<string, string>, body: String(r.body), replay: Boolean(r.replay),
  }));
}

export async function markRelayed(db: HubDb, counterId: string, ds: PendingDelivery[], now: number): Promise<void> {
  if (!ds.length) return;
  await db.query(
    `with u as (update deliveries set relayed_at = $2 where id = any($4::bigint[]))
     insert into delivery_log (notification_id, at, step, counter_id, detail) select n, $2, 'relayed', $3, 'event ' || e from unnest($1::bigint[], $4::bigint[]) as t(n, e)`,
    [ds.map((d) => d.notificationId), now, counterId, ds.map((d) => d.eventId)],
  );
}

export async function ackDeliveries(db: HubDb, counterId: string, eventIds: string[], now: number): Promise<number> {
  return db.tx(async (q) => {
    const rows = await q.query<{ id: unknown; notification_id: unknown }>(
      'update deliveries set acked_at = $3 where counter_id = $1 and id = any($2::bigint[]) and acked_at is null returning id, notification_id',
      [counterId, eventIds, now],
    );
    if (rows.length) {
      await q.query(
        `insert into delivery_log (notification_id, at, step, counter_id, detail) select n, $2, 'acknowledged', $3, 'event ' || e from unnest($1::bigint[], $4::bigint[]) as t(n, e)`,
        [rows.map((r) => String(num(r.notification_id))), now, counterId, rows.map((r) => String(num(r.id)))],
      );
    }
    return rows.length;
  });
}

/** Sends a stored notification again to the counters it went to (or routes it afresh). */
export async function replayNotification(db: HubDb, notificationId: string, now: number): Promise<number | null> {
  return db.tx(async (q) => {
    const n = await q.query<{ order_no: string | null; branch: string | null }>('select order_no, branch from notifications where id = $1', [notificationId]);
    if (!n[0]) return null;
    const before = await q.query<{ counter_id: string }>(
      `select distinct d.counter_id from deliveries d join counters c on c.id = d.counter_id where d.notification_id = $1 and c.revoked_at is null order by 1`,
      [notificationId],
    );
    const ids = before.length ? before.map((r) => r.counter_id) : (await route(q, n[0].order_no ? [n[0].order_no] : [], n[0].branch)).ids;
    await addDeliveries(q, notificationId, ids, now, true, 'replay asked by the administrator');
    return ids.length;
  });
}

export async function notificationLog(db: HubDb, notificationId: string): Promise<NotificationLog | null> {
  const n = await db.query<Record<string, unknown>>('select id, kind, received_at, order_no, branch from notifications where id = $1', [notificationId]);
  if (!n[0]) return null;
  const steps = await db.query<Record<string, unknown>>('select at, step, counter_id, detail from delivery_log where notification_id = $1 order by id', [notificationId]);
  return {
    id: String(num(n[0].id)), kind: n[0].kind as NotificationKind, receivedAt: num(n[0].received_at),
    orderNo: (n[0].order_no as string | null) ?? null, branch: (n[0].branch as string | null) ?? null,
    steps: steps.map((s) => ({ at: num(s.at), step: s.step as NotificationLog['steps'][number]['step'], counterId: (s.counter_id as string | null) ?? null, detail: String(s.detail) })),
  };
}

export async function findNotifications(db: HubDb, orderNo: string | null, limit: number): Promise<{ id: string; kind: string; receivedAt: number; orderNo: string | null }[]> {
  const rows = await db.query<Record<string, unknown>>(
    `select id, kind, received_at, order_no from notifications where ($1::text is null or order_no = $1) order by id desc limit $2`,
    [orderNo, limit],
  );
  return rows.map((r) => ({ id: String(num(r.id)), kind: String(r.kind), receivedAt: num(r.received_at), orderNo: (r.order_no as string | null) ?? null }));
}

/** Deletes notifications (with their deliveries and log) received before the cutoff, and spent enrollment codes. */
export async function pruneOlderThan(db: HubDb, cutoff: number): Promise<number> {
  const rows = await db.query('delete from notifications where received_at < $1 returning id', [cutoff]);
  await db.query('delete from enroll_codes where expires_at < $1', [cutoff]);
  return rows.length;
}

export async function pendingCountByCounter(db: HubDb): Promise<Map<string, number>> {
  const rows = await db.query<{ counter_id: string; n: unknown }>('select counter_id, count(*) as n from deliveries where acked_at is null group by counter_id');
  return new Map(rows.map((r) => [r.counter_id, numOrNull(r.n) ?? 0]));
}
