// The holding area for provider notifications whose order no counter owns yet (a webhook can beat
// the counter's sync of the order by a few seconds). Nothing in it is sent to anyone until the
// order's owner is known: then it goes to that counter only (to each, when several claim it).
// Bounded (holding.ts: only what could be a live counter's, a share per address, HoldPolicy.maxHeld
// per kind) and short-lived: what no counter claims within HoldPolicy.holdMs is
// dropped with a log line and a metric. A dropped bills callback (unverified: anyone can send one)
// is deleted with it; a dropped POS webhook (its signature checked) stays for the admin to replay.
import type { HubDb, SqlRunner } from '../db/adapter';
import { num } from '../db/adapter';

/**
 * Releases held notifications whose order now has a live claimant (the first of their keys that has
 * one), to every claimant of that key of one branch and no other counter, by the rules of ingest.ts:
 * one pinned to the counter whose code its reference carries goes to it alone; claimants in several
 * branches, or only outside the branch the merchantId header names, get nothing; with `only`, just those naming these
 * keys, of which this counter is a claimant (its sync just claimed them). Two releases racing
 * deliver once: a held row another release is taking (locked, not yet committed) is skipped, not
 * waited for: the sync's, the claim's and the ingest's releases run at the same moment, and waiting
 * on each other's rows made PostgreSQL deadlocks (one of them lost after a second). Returns the
 * counters given something.
 */
export async function releaseHeld(
  q: SqlRunner,
  now: number,
  only: { counterId: string; keys: string[] } | null,
): Promise<string[]> {
  const rows = await q.query<{ counter_id: string }>(
    `with owned as (
       select h.notification_id, o.counter_id, o.branch, k.key, k.n
         from quarantine h cross join lateral unnest(h.order_keys) with ordinality as k(key, n)
         join order_claimants o on o.order_key = k.key
        where ($1::text is null or h.order_keys && $3::text[]) and (h.pin is null or o.counter_id = h.pin)),
     first as (select * from owned w where w.n = (select min(x.n) from owned x where x.notification_id = w.notification_id)),
     cand as (
       select f.* from first f join notifications n on n.id = f.notification_id
        where case
          when exists (select 1 from first g where g.notification_id = f.notification_id and g.branch = n.branch) then f.branch = n.branch
          when exists (select 1 from counters c where c.branch = n.branch and c.revoked_at is null) then false
          else not exists (select 1 from first g where g.notification_id = f.notification_id and g.branch <> f.branch) end),
     pick as (select * from cand where $1::text is null or notification_id in (select notification_id from cand where counter_id = $1)),
     claimants as (select notification_id, count(*) as m, string_agg(counter_id, ', ' order by counter_id) as who from pick group by notification_id),
     mine as (select notification_id from quarantine where notification_id in (select notification_id from pick) order by notification_id for update skip locked),
     rel as (delete from quarantine h where h.notification_id in (select notification_id from mine) returning h.notification_id, h.held_at),
     d as (
       insert into deliveries (notification_id, counter_id, created_at, replay)
       select p.notification_id, p.counter_id, $2, false from pick p join rel r on r.notification_id = p.notification_id order by p.notification_id, p.counter_id),
     l as (
       insert into delivery_log (notification_id, at, step, counter_id, detail)
       select p.notification_id, $2, 'routed', p.counter_id,
              case when m.m > 1 then 'claimant of order ' || p.key || ' (claimed by ' || m.m || ' counters: ' || m.who || '; sent to each, each checks it)'
                   else 'owner of order ' || p.key end
              || ', once its counter synced the order (held ' || (($2::bigint - r.held_at) / 1000) || ' s)'
              || case when exists (select 1 from first g where g.notification_id = p.notification_id and g.branch <> p.branch)
                   then ' (claimed in another branch too: sent to branch ' || p.branch || ' only, the one its merchantId header names)'
                   when n.branch is not null and n.branch <> p.branch
                   then ' (its merchantId header says ' || n.branch || ', the owner is of branch ' || p.branch || ': sent to the owner only)' else '' end
         from pick p join rel r on r.notification_id = p.notification_id join claimants m on m.notification_id = p.notification_id
         join notifications n on n.id = p.notification_id order by p.notification_id, p.counter_id)
     select distinct p.counter_id from pick p join rel r on r.notification_id = p.notification_id`,
    [only?.counterId ?? null, now, only?.keys ?? []],
  );
  return rows.map((r) => r.counter_id);
}

interface DroppedHeld {
  notificationId: string;
  kind: 'pos' | 'bills';
  orderKeys: string[];
}

/** Drops what was held past its time: logged on the notification (POS, kept) or deleted with it (bills). */
export async function dropExpiredHeld(db: HubDb, now: number): Promise<DroppedHeld[]> {
  return db.tx(async (q) => {
    const rows = await q.query<{ notification_id: unknown; kind: string; order_keys: string[] | string }>(
      'delete from quarantine where expires_at <= $1 returning notification_id, kind, order_keys',
      [now],
    );
    if (!rows.length) return [];
    const dropped = rows.map((r) => ({
      notificationId: String(num(r.notification_id)),
      kind: r.kind as DroppedHeld['kind'],
      orderKeys: Array.isArray(r.order_keys)
        ? r.order_keys
        : r.order_keys
            .replace(/^\{|\}$/g, '')
            .split(',')
            .filter(Boolean),
    }));
    const pos = dropped.filter((d) => d.kind === 'pos').map((d) => d.notificationId);
    const bills = dropped.filter((d) => d.kind === 'bills').map((d) => d.notificationId);
    if (pos.length) {
      await q.query(
        `insert into delivery_log (notification_id, at, step, counter_id, detail)
         select n, $2, 'dropped', null, 'no counter synced its order while it was held: sent to no counter (replay it once the order is known)' from unnest($1::bigint[]) as n`,
        [pos, now],
      );
    }
    if (bills.length) await q.query('delete from notifications where id = any($1::bigint[])', [bills]);
    return dropped;
  });
}
