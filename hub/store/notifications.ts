// Provider notifications: stored once (a repeat of the same signed content is a duplicate, whatever
// its whitespace or unsigned headers: ingest.ts), routed to the counters that claimed the order only
// — an order not yet known waits in a small holding area (quarantine.ts, holding.ts) until its counter syncs it, never
// broadcast on an unsigned header — delivered at least once until acknowledged, logged step by
// step, replayable, pruned.
import type { NotificationLog } from '../../shared/hub-contract';
import type { HubDb, SqlRunner } from '../db/adapter';
import { num } from '../db/adapter';
import type { NotificationKind } from './ingest';

export {
  createIngestBatcher,
  ingestNotification,
  ingestNotifications,
  type NotificationIngestInput,
  type NotificationIngestResult,
  type NotificationKind,
} from './ingest';
export { DEFAULT_HOLD, type HoldPolicy } from './holding';

/** NOTIFY channel: payload is a comma-separated list of counter ids with new deliveries. */
export const RELAY_CHANNEL = 'hub_relay';
/** Payload on RELAY_CHANNEL telling every instance that a counter was revoked. */
export const REVOKED_PREFIX = 'revoked:';

/**
 * Every live claimant of the order (of the first of its keys that has one) of one branch: the branch
 * the merchantId header names, else the claimants' one branch; nobody when they span branches. Never a broadcast.
 */
async function route(
  q: SqlRunner,
  orderKeys: string[],
  branch: string | null,
): Promise<{ ids: string[]; why: string }> {
  const rows = await q.query<{ id: string; key: string }>(
    `with k as (select key, n from unnest($1::text[]) with ordinality as k(key, n)),
     c as (select o.counter_id as id, o.branch, k.key, k.n from k join order_claimants o on o.order_key = k.key),
     f as (select * from c where n = (select min(n) from c))
     select id, key from f
      where case when exists (select 1 from f g where g.branch = $2) then f.branch = $2
                 else not exists (select 1 from f g where g.branch <> f.branch) end order by id`,
    [orderKeys.filter(Boolean), branch],
  );
  return { ids: rows.map((r) => r.id), why: rows[0] ? `owner of order ${rows[0].key}` : 'order not known' };
}

/**
 * NOTIFY payloads are capped at 8000 bytes: a very long list becomes '*' (every stream re-reads).
 * @internal for tests
 */
export const notifyPayload = (counterIds: string[]): string => {
  const p = counterIds.join(',');
  return p.length > 7000 ? '*' : p;
};

/** One statement (fewer round trips per webhook): the deliveries, their log lines after any `first` lines, and the NOTIFY. */
async function addDeliveries(
  q: SqlRunner,
  notificationId: string,
  counterIds: string[],
  now: number,
  replay: boolean,
  why: string,
  first: { step: string; detail: string }[] = [],
): Promise<void> {
  const step = replay ? 'replayed' : 'routed';
  const logs = [
    ...first.map((f) => ({ ...f, counter: null as string | null })),
    ...counterIds.map((c) => ({ step, detail: why, counter: c as string | null })),
  ];
  await q.query(
    `with d as (
       insert into deliveries (notification_id, counter_id, created_at, replay) select $1, c, $2, $3 from unnest($4::text[]) as c returning id),
     l as (
       insert into delivery_log (notification_id, at, step, counter_id, detail)
       select $1, $2, s, c, dt from unnest($5::text[], $6::text[], $7::text[]) with ordinality as t(s, c, dt, n) order by n)
     select case when cardinality($4::text[]) > 0 then pg_notify($8, $9) end as notified`,
    [
      notificationId,
      now,
      replay,
      counterIds,
      logs.map((l) => l.step),
      logs.map((l) => l.counter),
      logs.map((l) => l.detail),
      RELAY_CHANNEL,
      notifyPayload(counterIds),
    ],
  );
}

/**
 * Tells every instance (this one too) that these counters have new deliveries. Its own statement,
 * committed without waiting for the WAL flush: a NOTIFY is not durable anyway, and one lost (a
 * crash between the ingest's commit and this) only delays, because every relay stream re-reads its
 * pending deliveries on each heartbeat.
 */
export async function notifyCounters(db: SqlRunner, counterIds: string[]): Promise<void> {
  if (counterIds.length === 0) return;
  await db.query(`select set_config('synchronous_commit', 'off', true), pg_notify($1, $2)`, [
    RELAY_CHANNEL,
    notifyPayload(counterIds),
  ]);
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

/** One read of the relay's fan-out: a counter's deliveries, after `after` or, null, only those never sent. */
export interface PendingRequest {
  counterId: string;
  after: number | null;
}

/**
 * Deliveries not acknowledged, for many counters in one query (the relay's fan-out reads every
 * stream of an instance at once), at most `limit` per request, each request's in id order.
 * `after` is the cursor through a new stream's backlog: every unacknowledged delivery after it,
 * sent or not (a new stream starts at 0, whatever its Last-Event-ID: counter-routes.ts). Null once
 * the backlog is read: only deliveries never sent, whatever their id, because ids are given at
 * insert and a lower id can commit after a higher one. Result i holds request i's deliveries.
 */
export async function pendingDeliveriesFor(
  db: HubDb,
  reqs: PendingRequest[],
  limit: number,
): Promise<PendingDelivery[][]> {
  const out: PendingDelivery[][] = reqs.map(() => []);
  if (!reqs.length) return out;
  // On every webhook's path: planned once (adapter.ts, queryPlannedOnce; 0.26 -> 0.15 ms a read).
  const rows = await db.queryPlannedOnce<Record<string, unknown>>(
    `select r.i, d.id, d.notification_id, d.replay, n.kind, n.received_at, n.headers, n.body
       from unnest($1::text[], $2::bigint[]) with ordinality as r(counter_id, after, i)
       cross join lateral (
         select d.id, d.notification_id, d.replay from deliveries d
          where d.counter_id = r.counter_id and d.acked_at is null and (d.relayed_at is null or (r.after is not null and d.id > r.after))
          order by d.id limit $3) d
       join notifications n on n.id = d.notification_id
      order by r.i, d.id`,
    [reqs.map((r) => r.counterId), reqs.map((r) => (r.after === null ? null : String(r.after))), limit],
  );
  for (const r of rows) {
    out[num(r.i) - 1]!.push({
      eventId: String(num(r.id)),
      notificationId: String(num(r.notification_id)),
      kind: r.kind as NotificationKind,
      receivedAt: num(r.received_at),
      headers: (typeof r.headers === 'string' ? JSON.parse(r.headers) : r.headers) as Record<string, string>,
      body: String(r.body),
      replay: Boolean(r.replay),
    });
  }
  return out;
}

/**
 * One counter's unacknowledged deliveries (see pendingDeliveriesFor).
 * @internal for tests
 */
export async function pendingDeliveries(
  db: HubDb,
  counterId: string,
  resumeAfter: number | null,
  limit: number,
): Promise<PendingDelivery[]> {
  return (await pendingDeliveriesFor(db, [{ counterId, after: resumeAfter }], limit))[0]!;
}

/** Of these counters, those with a delivery never sent and not acknowledged: one query however many (the relay's safety sweep). */
export async function countersWithUnsent(db: SqlRunner, counterIds: string[]): Promise<string[]> {
  if (!counterIds.length) return [];
  const rows = await db.query<{ counter_id: string }>(
    'select distinct counter_id from deliveries where counter_id = any($1::text[]) and acked_at is null and relayed_at is null',
    [counterIds],
  );
  return rows.map((r) => r.counter_id);
}

/**
 * Marks deliveries of any counters relayed at `now`, with a log line each: one statement, committed
 * without waiting for the WAL flush (the relay's next read waits for it, so it must not wait for an
 * fsync). A mark lost in a crash only means the delivery is sent again, which the counter takes once
 * (deliveries are at least once, acknowledged by event id).
 */
export async function markRelayedMany(
  db: HubDb,
  ds: { counterId: string; d: PendingDelivery }[],
  now: number,
): Promise<void> {
  if (!ds.length) return;
  await db.queryPlannedOnce(
    `with a as (select set_config('synchronous_commit', 'off', true)),
     u as (update deliveries set relayed_at = $2 where id = any($4::bigint[]))
     insert into delivery_log (notification_id, at, step, counter_id, detail)
     select n, $2, 'relayed', c, 'event ' || e from unnest($1::bigint[], $3::text[], $4::bigint[]) as t(n, c, e) cross join a`,
    [ds.map((x) => x.d.notificationId), now, ds.map((x) => x.counterId), ds.map((x) => x.d.eventId)],
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

/** Sends a stored notification again to the counters it went to (or to its order's owner, if one is known now). */
export async function replayNotification(db: HubDb, notificationId: string, now: number): Promise<number | null> {
  return db.tx(async (q) => {
    const n = await q.query<{ order_no: string | null; branch: string | null }>(
      'select order_no, branch from notifications where id = $1',
      [notificationId],
    );
    if (!n[0]) return null;
    const before = await q.query<{ counter_id: string }>(
      `select distinct d.counter_id from deliveries d join counters c on c.id = d.counter_id where d.notification_id = $1 and c.revoked_at is null order by 1`,
      [notificationId],
    );
    const ids = before.length
      ? before.map((r) => r.counter_id)
      : (await route(q, n[0].order_no ? [n[0].order_no] : [], n[0].branch)).ids;
    await addDeliveries(q, notificationId, ids, now, true, 'replay asked by the administrator');
    return ids.length;
  });
}

export async function notificationLog(db: HubDb, notificationId: string): Promise<NotificationLog | null> {
  const n = await db.query<Record<string, unknown>>(
    'select id, kind, received_at, order_no, branch from notifications where id = $1',
    [notificationId],
  );
  if (!n[0]) return null;
  const steps = await db.query<Record<string, unknown>>(
    'select at, step, counter_id, detail from delivery_log where notification_id = $1 order by id',
    [notificationId],
  );
  return {
    id: String(num(n[0].id)),
    kind: n[0].kind as NotificationKind,
    receivedAt: num(n[0].received_at),
    orderNo: (n[0].order_no as string | null) ?? null,
    branch: (n[0].branch as string | null) ?? null,
    steps: steps.map((s) => ({
      at: num(s.at),
      step: s.step as NotificationLog['steps'][number]['step'],
      counterId: (s.counter_id as string | null) ?? null,
      detail: String(s.detail),
    })),
  };
}

export async function findNotifications(
  db: HubDb,
  orderNo: string | null,
  limit: number,
): Promise<{ id: string; kind: string; receivedAt: number; orderNo: string | null }[]> {
  const rows = await db.query<Record<string, unknown>>(
    `select id, kind, received_at, order_no from notifications where ($1::text is null or order_no = $1) order by id desc limit $2`,
    [orderNo, limit],
  );
  return rows.map((r) => ({
    id: String(num(r.id)),
    kind: String(r.kind),
    receivedAt: num(r.received_at),
    orderNo: (r.order_no as string | null) ?? null,
  }));
}

/** Deletes notifications (with their deliveries and log) received before the cutoff, and spent enrollment codes. */
export async function pruneOlderThan(db: HubDb, cutoff: number): Promise<number> {
  const rows = await db.query('delete from notifications where received_at < $1 returning id', [cutoff]);
  await db.query('delete from enroll_codes where expires_at < $1', [cutoff]);
  return rows.length;
}
