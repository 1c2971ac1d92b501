// Several counters may claim one order key (a provider order number, a batch file's own reference:
// journal.ts). None of one branch takes the notifications from another: each claimant of the branch
// they go to gets them, whichever claimed first, and each counter checks a body itself (a POS body is
// signed by the provider; a counter takes nothing for an order it does not hold). Claimants in several
// branches: the notification goes to one branch only, the one the provider names (ingest.ts). The Hub
// says who claims what, in the log and on Needs attention.
import type { SqlRunner } from '../db/adapter';
import { num } from '../db/adapter';

/** Of these keys just claimed by this counter, those other live counters claim too, with every claimant (recorded for Needs attention). */
export async function claimsShared(
  q: SqlRunner,
  counterId: string,
  keys: string[],
  now: number,
): Promise<{ key: string; counterIds: string[] }[]> {
  const rows = await q.query<{ key: string; ids: string[] | string }>(
    `select o.order_key as key, array_agg(o.counter_id order by o.counter_id) as ids
       from order_claimants o
      where o.order_key = any($1::text[]) group by o.order_key
     having count(*) > 1 and bool_or(o.counter_id = $2) order by o.order_key`,
    [keys, counterId],
  );
  const shared = rows.map((r) => ({
    key: r.key,
    counterIds: Array.isArray(r.ids)
      ? r.ids
      : r.ids
          .replace(/^\{|\}$/g, '')
          .split(',')
          .filter(Boolean),
  }));
  if (shared.length) {
    // Kept for Needs attention (attention.ts): every claimant of each shared key, once.
    await q.query(
      `insert into shared_claims (order_key, counter_id, at) select k, c, $3 from unnest($1::text[], $2::text[]) as t(k, c) on conflict do nothing`,
      [shared.flatMap((s) => s.counterIds.map(() => s.key)), shared.flatMap((s) => s.counterIds), now],
    );
  }
  return shared;
}

/**
 * A claim made after a notification of that order went to another claimant: this counter is given it
 * too (the claim of the first never took it away). Only notifications named by this key as their
 * first (order_no) and sent to another counter of this counter's branch, never to this one: a
 * payment is never fanned out across branches (ingest.ts). Returns [counterId] when it got any (the
 * caller announces it on the counter's relay stream).
 */
export async function catchUpClaimant(q: SqlRunner, counterId: string, keys: string[], now: number): Promise<string[]> {
  const rows = await q.query<{ n: unknown }>(
    `with late as (
       select x.id, x.order_no,
              (select string_agg(distinct d.counter_id, ', ' order by d.counter_id) from deliveries d where d.notification_id = x.id) as before
         from notifications x
        where x.order_no = any($2::text[])
          and exists (select 1 from deliveries d where d.notification_id = x.id and d.counter_id <> $1
                       and d.counter_id in (select c.id from counters c where c.branch = (select branch from counters where id = $1)))
          and not exists (select 1 from deliveries d where d.notification_id = x.id and d.counter_id = $1)),
     d as (insert into deliveries (notification_id, counter_id, created_at, replay) select id, $1, $3, false from late order by id),
     l as (
       insert into delivery_log (notification_id, at, step, counter_id, detail)
       select id, $3, 'routed', $1, 'claimant of order ' || order_no || ' (claimed after it went to ' || before || '; sent to each, each checks it)' from late order by id)
     select count(*) as n from late`,
    [counterId, keys, now],
  );
  return num(rows[0]!.n) > 0 ? [counterId] : [];
}
