// Storing provider notifications as they arrive (notifications.ts says what happens to them then):
// one statement per batch routes each to the claimants of its order, holds it for a counter not
// synced yet (holding.ts says what may be held), or drops it; repeats are recognised by what the
// provider signed.
import type { HubDb, SqlRunner } from '../db/adapter';
import { num } from '../db/adapter';
import { referenceCounterCode } from '../../shared/counter-code';
import { liveCodeOwners, pinOf } from './code-owners';
import { couldBeLiveCounters, DEFAULT_HOLD, trimHeldBills, type DropReason, type HoldPolicy } from './holding';
import { sha256 } from './tokens';

export type NotificationKind = 'pos' | 'bills';

export interface NotificationIngestInput {
  kind: NotificationKind;
  headers: Record<string, string>;
  body: string;
  /** What the provider signed (checkPosWebhook, readBillsCallback): repeats are recognised by it. */
  contentKey: string;
  /** Keys that may name the order, the surest first: our reference, the provider order number. */
  orderKeys: string[];
  branch: string | null;
  /** The address it came from (req.ip): the holding area is shared out by it. */
  source?: string;
  /** What was checked before storing (for the delivery log). */
  verifiedDetail: string;
  now: number;
}

export interface NotificationIngestResult {
  /** Null: not stored (a bills callback neither routed nor held). */
  notificationId: string | null;
  duplicate: boolean;
  counterIds: string[];
  /** No owner yet: waits in the holding area for its counter to sync the order. */
  held: boolean;
  /** No owner and not held (see dropReason): sent to no counter. */
  dropped: boolean;
  dropReason: DropReason | null;
}

const log = (q: SqlRunner, id: string, now: number, step: string, counterId: string | null, detail: string) =>
  q.query('insert into delivery_log (notification_id, at, step, counter_id, detail) values ($1, $2, $3, $4, $5)', [
    id,
    now,
    step,
    counterId,
    detail,
  ]);

/**
 * One statement for a whole batch of notifications, so one round trip and one commit however many
 * arrived together, atomic without BEGIN/COMMIT: route each to the claimants of its order and add
 * their deliveries, or hold it (quarantine.ts releases it when the order is synced; only what could
 * be a live counter's and within its address's share: holding.ts), and log each step. Who gets it:
 * 1. a notification whose key names a live counter's code (a bills callback's merchantOrderNo, our
 *    reference) goes to that counter alone, whatever else claims it (`pin`, code-owners.ts); held for
 *    it until it claims the order;
 * 2. otherwise the live claimants of the first of its keys that has one (several counters may claim
 *    one provider order number, and none takes it from another: journal.ts), of one branch only,
 *    never fanned out across branches: those of the branch its merchantId header names (the
 *    provider's merchant, the branch id counters enroll under); when none claims it there and that
 *    branch has live counters, nobody yet (held for that branch's claimant: a counter of another
 *    branch that named its provider order number gets nothing); when the header names no branch of
 *    the Hub, the claimants if they are all of one branch (sent to the owner only, the log says so),
 *    else nobody.
 * A bills callback that is neither routed nor held is not stored at all (unverified: nothing to keep). A repeat of
 * the same signed content inserts nothing (the caller logs it as a duplicate). A batch must not hold
 * the same (kind, content) twice: the second would read as new. No NOTIFY in it: PostgreSQL holds
 * one global lock from a NOTIFYing transaction's commit until its WAL flush ends, which made every
 * webhook's commit wait for the previous one's fsync; the caller announces the counters afterwards
 * (RelayHub.announce -> notifyCounters).
 */
const INGEST_SQL = `
  with input as (
    select * from unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $14::boolean[], $15::text[], $17::text[])
      with ordinality as t(kind, received_at, order_no, branch, headers, body, body_hash, received_detail, verified_detail, holdable, source, pin, i)),
  keys as (select k.i, k.key, k.n from unnest($10::bigint[], $11::text[]) with ordinality as k(i, key, n)),
  claims as (
    select k.i, k.n, k.key, o.counter_id as id, o.branch
      from keys k join input i on i.i = k.i join order_claimants o on o.order_key = k.key
     where i.pin is null or o.counter_id = i.pin),
  first as (select c.* from claims c where c.n = (select min(x.n) from claims x where x.i = c.i)),
  owner as (
    select f.* from first f join input i on i.i = f.i
     where case
       when exists (select 1 from first g where g.i = f.i and g.branch = i.branch) then f.branch = i.branch
       when exists (select 1 from counters c where c.branch = i.branch and c.revoked_at is null) then false
       else not exists (select 1 from first g where g.i = f.i and g.branch <> f.branch) end),
  claimants as (select i, count(*) as m, string_agg(id, ', ' order by id) as who from owner group by i),
  decide as (
    select i.i, case
      when exists (select 1 from owner o where o.i = i.i) then 'routed'
      when exists (select 1 from notifications x where x.kind = i.kind and x.body_hash = i.body_hash) then 'repeat'
      when not exists (select 1 from keys k where k.i = i.i) then 'no-key'
      when not i.holdable then 'not-ours'
      when i.kind = 'bills' and octet_length(i.body) + (select coalesce(sum(q.bytes), 0) from quarantine q where q.kind = 'bills' and q.source = i.source) > $16::bigint then 'source-full'
      when i.kind = 'pos' and (select count(*) from quarantine q where q.kind = 'pos') >= $13::int then 'full'
      else 'held' end as fate
      from input i),
  n as (
    insert into notifications (kind, received_at, order_no, branch, headers, body, body_hash)
    select i.kind, i.received_at, i.order_no, i.branch, i.headers::jsonb, i.body, i.body_hash from input i join decide d on d.i = i.i
     where i.kind = 'pos' or d.fate in ('routed', 'repeat', 'held') order by i.i
    on conflict (kind, body_hash) do nothing returning id, kind, body_hash),
  fresh as (select i.i, n.id, i.received_at, i.kind from input i join n on n.kind = i.kind and n.body_hash = i.body_hash),
  targets as (
    select o.i, o.id,
           case when m.m > 1 then 'claimant of order ' || o.key || ' (claimed by ' || m.m || ' counters: ' || m.who || '; sent to each, each checks it)'
                else 'owner of order ' || o.key end
           || case when i.pin is not null then ' (its reference carries this counter''s code: sent to it alone)' else '' end
           || case when exists (select 1 from first g where g.i = o.i and g.branch <> o.branch)
                then ' (claimed in another branch too: sent to branch ' || o.branch || ' only, the one its merchantId header names)'
                when i.branch is not null and i.branch <> o.branch
                then ' (its merchantId header says ' || i.branch || ', the owner is of branch ' || o.branch || ': sent to the owner only)' else '' end as why
      from owner o join input i on i.i = o.i join claimants m on m.i = o.i),
  held as (
    insert into quarantine (notification_id, kind, order_keys, held_at, expires_at, source, bytes, pin)
    select f.id, f.kind, (select array_agg(k.key order by k.n) from keys k where k.i = f.i), f.received_at, f.received_at + $12::bigint, i.source, octet_length(i.body), i.pin
      from fresh f join decide d on d.i = f.i join input i on i.i = f.i where d.fate = 'held'
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
      union all select d.i, 4, case when d.fate = 'held' then 'held' else 'dropped' end, null,
        case when d.fate = 'held' and exists (select 1 from first g where g.i = d.i)
               then 'claimed only outside the branch its merchantId header names, or in several branches: held up to ' || ($12::bigint / 60000) || ' minutes for a claimant of the branch the provider names, sent to no other'
             when d.fate = 'held' then 'order not yet known: held up to ' || ($12::bigint / 60000) || ' minutes for the counter that creates it, sent to no other'
             when d.fate = 'no-key' then 'no order number to route by: sent to no counter'
             else 'order not yet known and the holding area is full: sent to no counter' end
        from decide d where d.fate not in ('routed', 'repeat')) x on x.i = f.i
    order by f.i, x.o, x.counter_id)
  select i.i, f.id, (select array_agg(t.id order by t.id) from targets t where t.i = i.i) as counters, d.fate
    from input i join decide d on d.i = i.i left join fresh f on f.i = i.i order by i.i`;

/** Stores a batch (see INGEST_SQL); the results are in the inputs' order. Repeats are logged as duplicates. */
export async function ingestNotifications(
  db: HubDb,
  ns: NotificationIngestInput[],
  hold: HoldPolicy = DEFAULT_HOLD,
): Promise<NotificationIngestResult[]> {
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
  // The live counters' codes: a bills callback is held only in one; a key in one pins its notification to that counter.
  const owners = ns.some((n) => n.kind === 'bills' || n.orderKeys.some((k) => referenceCounterCode(k) !== null))
    ? await liveCodeOwners(db)
    : new Map<string, string>();
  const codes = new Set(owners.keys());
  const rows = await db.queryPlannedOnce<{ i: unknown; id: unknown; counters: string[] | string | null; fate: string }>(
    INGEST_SQL,
    [
      ns.map((n) => n.kind),
      ns.map((n) => n.now),
      ns.map((n) => n.orderKeys[0] ?? null),
      ns.map((n) => n.branch),
      ns.map((n) => JSON.stringify(n.headers)),
      ns.map((n) => n.body),
      hashes,
      ns.map((n) => `${n.kind} notification, ${n.body.length} bytes`),
      ns.map((n) => n.verifiedDetail),
      keyIdx,
      keys,
      hold.holdMs,
      hold.maxHeld,
      ns.map((n) => couldBeLiveCounters(n.kind, n.orderKeys.filter(Boolean), codes)),
      ns.map((n) => n.source ?? ''),
      hold.maxHeldBytesPerSource,
      ns.map((n) => pinOf(n.orderKeys, owners)),
    ],
  );
  const results: NotificationIngestResult[] = [];
  for (const [j, n] of ns.entries()) {
    const r = rows.find((x) => num(x.i) === j + 1)!;
    if (r.id !== null && r.id !== undefined) {
      const counterIds = pgTextArray(r.counters);
      const held = r.fate === 'held';
      const dropped = !held && counterIds.length === 0;
      results.push({
        notificationId: String(num(r.id)),
        duplicate: false,
        counterIds,
        held,
        dropped,
        dropReason: dropped ? (r.fate as DropReason) : null,
      });
      continue;
    }
    if (n.kind === 'bills' && !['routed', 'repeat', 'held'].includes(r.fate)) {
      // Neither routed nor held: not stored (an unverified body is not worth a row).
      results.push({
        notificationId: null,
        duplicate: false,
        counterIds: [],
        held: false,
        dropped: true,
        dropReason: r.fate as DropReason,
      });
      continue;
    }
    const existing = await db.query<{ id: unknown }>(
      'select id from notifications where kind = $1 and body_hash = $2',
      [n.kind, hashes[j]],
    );
    const id = String(num(existing[0]!.id));
    await log(
      db,
      id,
      n.now,
      'duplicate',
      null,
      'the same signed content arrived again: stored once, not relayed again',
    );
    results.push({
      notificationId: id,
      duplicate: true,
      counterIds: [],
      held: false,
      dropped: false,
      dropReason: null,
    });
  }
  // Bills held past the policy (a batch from one address sees only what was held before it; many
  // addresses past maxHeld): each address keeps its oldest, in turn; the rest is deleted.
  if (results.some((r, j) => r.held && ns[j]!.kind === 'bills')) {
    const gone = new Set(await trimHeldBills(db, hold));
    let earlier = gone.size;
    for (const r of results) {
      if (r.notificationId === null || !gone.has(r.notificationId)) continue;
      Object.assign(r, { notificationId: null, held: false, dropped: true, dropReason: 'full' });
      earlier--;
    }
    if (earlier > 0) hold.onEvicted?.(earlier);
  }
  return results;
}

export async function ingestNotification(
  db: HubDb,
  n: NotificationIngestInput,
  hold: HoldPolicy = DEFAULT_HOLD,
): Promise<NotificationIngestResult> {
  return (await ingestNotifications(db, [n], hold))[0]!;
}

/**
 * Gathers the notifications that arrive while a batch is being stored into the next batch: under
 * load, one round trip and one commit for many webhooks; alone, one at once. Each caller's promise
 * settles when its own notification is stored (or its batch failed), so "stored before answered"
 * holds for every webhook. A body already in the batch waits for the next one.
 */
export function createIngestBatcher(
  db: HubDb,
  maxBatch = 64,
  hold: HoldPolicy = DEFAULT_HOLD,
): (n: NotificationIngestInput) => Promise<NotificationIngestResult> {
  type Waiting = {
    n: NotificationIngestInput;
    key: string;
    ok: (r: NotificationIngestResult) => void;
    fail: (e: unknown) => void;
  };
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
        const rs = await ingestNotifications(
          db,
          batch.map((w) => w.n),
          hold,
        );
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
    new Promise<NotificationIngestResult>((ok, fail) => {
      queue.push({ n, key: `${n.kind}:${n.contentKey}`, ok, fail });
      if (!busy) void run();
    });
}

/** text[] arrives as an array from both drivers, or as '{a,b}' text from some type setups. */
function pgTextArray(v: string[] | string | null): string[] {
  if (v === null) return [];
  if (Array.isArray(v)) return v;
  return v
    .replace(/^\{|\}$/g, '')
    .split(',')
    .filter(Boolean);
}
