// Provider notifications: stored once (a repeat of the same signed content is a duplicate, whatever
// its whitespace or unsigned headers), routed to the counter that owns the order only — an order
// not yet known waits in a small holding area (quarantine.ts) until its counter syncs it, never
// broadcast on an unsigned header — delivered at least once until acknowledged, logged step by
// step, replayable, pruned.
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
  /** What the provider signed (checkPosWebhook, readBillsCallback): repeats are recognised by it. */
  contentKey: string;
  /** Keys that may name the order, the surest first: our reference, the provider order number. */
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
  /** No owner yet: waits in the holding area for its counter to sync the order. */
  held: boolean;
  /** No owner and not held (no order key, or the holding area full): sent to no counter. */
  dropped: boolean;
}

/** How long, and how many per kind, notifications of orders not yet known are held. */
export interface HoldPolicy {
  holdMs: number;
  maxHeld: number;
}
export const DEFAULT_HOLD: HoldPolicy = { holdMs: 10 * 60_000, maxHeld: 1000 };

const log = (q: SqlRunner, id: string, now: number, step: string, counterId: string | null, detail: string) =>
  q.query('insert into delivery_log (notification_id, at, step, counter_id, detail) values ($1, $2, $3, $4, $5)', [id, now, step, counterId, detail]);

/** The live owner of the order (the first of its keys that has one), or nobody: never a broadcast. */
async function route(q: SqlRunner, orderKeys: string[]): Promise<{ ids: string[]; why: string }> {
  const rows = await q.query<{ id: string; key: string }>(
    `select c.id, o.order_key as key from unnest($1::text[]) with ordinality as k(key, n)
       join order_owners o on o.order_key = k.key join counters c on c.id = o.counter_id and c.revoked_at is null
      order by k.n limit 1`,
    [orderKeys.filter(Boolean)],
  );
  return { ids: rows.map((r) => r.id), why: rows[0] ? `owner of order ${rows[0].key}` : 'order not known' };
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
 * One statement for a whole batch of notifications, so one round trip and one commit however many
 * arrived together, atomic without BEGIN/COMMIT: store each notification, route it to the owner of
 * its order (the first of its keys that has a live owner) and add its delivery, or hold it (no
 * owner yet: quarantine.ts releases it when the order is synced), and log each step. A notification
 * whose merchantId header names another branch than its owner's still goes to the owner only. A
 * repeat of the same signed content inserts nothing (the caller logs it as a duplicate). A batch
 * must not hold the same (kind, content) twice: the second would read as new. No NOTIFY in it:
 * PostgreSQL holds one global lock from a NOTIFYing transaction's commit until its WAL flush ends,
 * which made every webhook's commit wait for the previous one's fsync; the caller announces the
 * counters afterwards (RelayHub.announce -> notifyCounters).
 */
const INGEST_SQL = `
  with input as (
    select * from unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[])
      with ordinality as t(kind, received_at, order_no, branch, headers, body, body_hash, received_detail, verified_detail, i)),
  n as (
    insert into notifications (kind, received_at, order_no, branch, headers, body, body_hash)
    select kind, received_at, order_no, branch, headers::jsonb, body, body_hash from input order by i
    on conflict (kind, body_hash) do nothing returning id, kind, body_hash),
  fresh as (select i.i, n.id, i.received_at, i.kind from input i join n on n.kind = i.kind and n.body_hash = i.body_hash),
  keys as (select k.i, k.key, k.n from unnest($10::bigint[], $11::text[]) with ordinality as k(i, key, n)),
  owner as (
    select distinct on (k.i) k.i, c.id, c.branch, k.key
      from keys k join order_owners o on o.order_key = k.key join counters c on c.id = o.counter_id and c.revoked_at is null
     order by k.i, k.n),
  targets as (
    select o.i, o.id, 'owner of order ' || o.key || case when i.branch is not null and i.branch <> o.branch
      then ' (its merchantId header says ' || i.branch || ', the owner is of branch ' || o.branch || ': sent to the owner only)' else '' end as why
      from owner o join input i on i.i = o.i),
  held as (
    insert into quarantine (notification_id, kind, order_keys, held_at, expires_at)
    select f.id, f.kind, (select array_agg(k.key order by k.n) from keys k where k.i = f.i), f.received_at, f.received_at + $12::bigint
      from fresh f
     where not exists (select 1 from owner o where o.i = f.i) and exists (select 1 from keys k where k.i = f.i)
       and (select count(*) from quarantine q where q.kind = f.kind) < $13::int
    returning notification_id),
  d as (
    insert into deliveries (notification_id, counter_id, created_at, replay)
    select f.id, t.id, f.received_at, false from fresh f join targets t on t.i = f.i order by f.i, t.id),
  l as (
    insert into delivery_log (notification_id, at, step, counter_id, detail)
    select f.id, f.received_at, x.step, x.counter_id, x.detail from fresh f join (
      select i, 1 as o, 'received' as step, null::text as counter_id, received_detail as detail from input
      union all select i, 2, 'verified', null, verified_detail from input
      union all select i, 3, 'routed', id, why from targets
      union all select f.i, 4, case when h.notification_id is not null then 'held' else 'dropped' end, null,
        case when h.notification_id is not null then 'order not yet known: held up to ' || ($12::bigint / 60000) || ' minutes for the counter that creates it, sent to no other'
             when not exists (select 1 from keys k where k.i = f.i) then 'no order number to route by: sent to no counter'
             else 'order not yet known and the holding area is full: sent to no counter' end
        from fresh f left join held h on h.notification_id = f.id where not exists (select 1 from owner o where o.i = f.i)) x on x.i = f.i
    order by f.i, x.o, x.counter_id)
  select i.i, f.id, (select array_agg(t.id order by t.id) from targets t where t.i = i.i) as counters,
         exists (select 1 from held h where h.notification_id = f.id) as held
    from input i left join fresh f on f.i = i.i order by i.i`;

/** Stores a batch (see INGEST_SQL); the results are in the inputs' order. Repeats are logged as duplicates. */
export async function ingestNotifications(db: HubDb, ns: IngestInput[], hold: HoldPolicy = DEFAULT_HOLD): Promise<IngestResult[]> {
  if (ns.length === 0) return [];
  const hashes = ns.map((n) => sha256(n.contentKey));
  const keyIdx: number[] = [];
  const keys: string[] = [];
  ns.forEach((n, i) => {
    for (const k of n.orderKeys) {
      if (!k) continue;
      keyIdx.push(i + 1);
      keys.push(k);
    }
  });
  const rows = await db.query<{ i: unknown; id: unknown; counters: string[] | string | null; held: unknown }>(INGEST_SQL, [
    ns.map((n) => n.kind), ns.map((n) => n.now), ns.map((n) => n.orderKeys[0] ?? null), ns.map((n) => n.branch), ns.map((n) => JSON.stringify(n.headers)),
    ns.map((n) => n.body), hashes, ns.map((n) => `${n.kind} notification, ${n.body.length} bytes`), ns.map((n) => n.verifiedDetail), keyIdx, keys,
    hold.holdMs, hold.maxHeld,
  ]);
  const results: IngestResult[] = [];
  for (const [j, n] of ns.entries()) {
    const r = rows.find((x) => num(x.i) === j + 1);
    if (r && r.id !== null && r.id !== undefined) {
      const counterIds = pgTextArray(r.counters);
      const held = r.held === true || r.held === 't';
      results.push({ notificationId: String(num(r.id)), duplicate: false, counterIds, held, dropped: !held && counterIds.length === 0 });
      continue;
    }
    const existing = await db.query<{ id: unknown }>('select id from notifications where kind = $1 and body_hash = $2', [n.kind, hashes[j]]);
    const id = String(num(existing[0]!.id));
    await log(db, id, n.now, 'duplicate', null, 'the same signed content arrived again: stored once, not relayed again');
    results.push({ notificationId: id, duplicate: true, counterIds: [], held: false, dropped: false });
  }
  return results;
}

export async function ingestNotification(db: HubDb, n: IngestInput, hold: HoldPolicy = DEFAULT_HOLD): Promise<IngestResult> {
  return (await ingestNotifications(db, [n], hold))[0]!;
}

/**
 * Gathers the notifications that arrive while a batch is being stored into the next batch: under
 * load, one round trip and one commit for many webhooks; alone, one at once. Each caller's promise
 * settles when its own notification is stored (or its batch failed), so "stored before answered"
 * holds for every webhook. A body already in the batch waits for the next one.
 */
export function createIngestBatcher(db: HubDb, maxBatch = 64, hold: HoldPolicy = DEFAULT_HOLD): (n: IngestInput) => Promise<IngestResult> {
  type Waiting = { n: IngestInput; key: string; ok: (r: IngestResult) => void; fail: (e: unknown) => void };
  let queue: Waiting[] = [];
  let busy = false;
  const run = async (): Promise<void> => {
    busy = true;
    while (queue.length > 0) {
      const batch: Waiting[] = [];
      const seen = new Set<string>();
      const rest: Waiting[] = [];
      for (const w of queue) {
        if (batch.length < maxBatch && !seen.has(w.key)) {
          seen.add(w.key);
          batch.push(w);
        } else rest.push(w);
      }
      queue = rest;
      try {
        const rs = await ingestNotifications(db, batch.map((w) => w.n), hold);
        batch.forEach((w, i) => w.ok(rs[i]!));
      } catch (e) {
        // Nothing of the batch was stored; one at a time, so one bad notification fails only itself.
        if (batch.length === 1) batch[0]!.fail(e);
        else for (const w of batch) await ingestNotifications(db, [w.n], hold).then((rs) => w.ok(rs[0]!), w.fail);
      }
    }
    busy = false;
  };
  return (n) =>
    new Promise<IngestResult>((ok, fail) => {
      queue.push({ n, key: `${n.kind}:${n.contentKey}`, ok, fail });
      if (!busy) void run();
    });
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
export async function pendingDeliveriesFor(db: SqlRunner, reqs: PendingRequest[], limit: number): Promise<PendingDelivery[][]> {
  const out: PendingDelivery[][] = reqs.map(() => []);
  if (!reqs.length) return out;
  const rows = await db.query<Record<string, unknown>>(
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
      eventId: String(num(r.id)), notificationId: String(num(r.notification_id)), kind: r.kind as NotificationKind, receivedAt: num(r.received_at),
      headers: (typeof r.headers === 'string' ? JSON.parse(r.headers) : r.headers) as Record<string, string>, body: String(r.body), replay: Boolean(r.replay),
    });
  }
  return out;
}

/** One counter's unacknowledged deliveries (see pendingDeliveriesFor). */
export async function pendingDeliveries(db: SqlRunner, counterId: string, resumeAfter: number | null, limit: number): Promise<PendingDelivery[]> {
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
export async function markRelayedMany(db: SqlRunner, ds: { counterId: string; d: PendingDelivery }[], now: number): Promise<void> {
  if (!ds.length) return;
  await db.query(
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
    const n = await q.query<{ order_no: string | null }>('select order_no from notifications where id = $1', [notificationId]);
    if (!n[0]) return null;
    const before = await q.query<{ counter_id: string }>(
      `select distinct d.counter_id from deliveries d join counters c on c.id = d.counter_id where d.notification_id = $1 and c.revoked_at is null order by 1`,
      [notificationId],
    );
    const ids = before.length ? before.map((r) => r.counter_id) : (await route(q, n[0].order_no ? [n[0].order_no] : [])).ids;
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
