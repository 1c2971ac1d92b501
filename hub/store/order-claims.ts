// A counter's claim of a sale's provider order number the moment it learns it (POST
// /api/v1/orders/claim), apart from its journal's sync: the POS webhook names the order by that
// number only, and a sync busy with an earlier batch made the Hub hold the webhook until the next
// one arrived (issue 28). A claim takes no more than an order.created naming the reference and the
// orderNo takes in a sync (journal.ts), and a claim naming another live counter's generated
// reference, as its reference or as its orderNo, is refused whole (HUB_CLAIM_NOT_YOURS, 403:
// code-owners.ts); an orderNo several counters of one branch claim goes to each, and a later
// claimant of the branch it went to is given it (claims.ts: the same shared claims and the same
// catch-up, here in one statement). It takes the orderNo only: the reference is the journal's
// to claim (its order.created may be committing at this very moment, and inserting the same key
// would wait for it); the journal's sync later claims the orderNo again (nothing changes). Held
// notifications are released by the caller after the commit (releaseHeld), which also catches a
// webhook stored while this claim was committing.
import type { HubDb } from '../db/adapter';
import { num } from '../db/adapter';
import { fail } from '../errors';
import { foreignKeys, recordRefused } from './code-owners';

export interface OrderClaimResult {
  claimed: number;
  /** The orderNos now claimed by this counter (release what is held for them). */
  keys: string[];
  sharedClaims: { key: string; counterIds: string[] }[];
  /** Counters given notifications that went to another claimant before this claim (announce them). */
  released: string[];
}

/**
 * One statement, so one round trip and one commit (the claim races the customer's webhook): claim
 * the keys; of them, those other live counters claim too are kept with every claimant for Needs
 * attention (claimsShared); what already went to another claimant of this counter's branch is given
 * to this counter too (catchUpClaimant: never a notification that went to another branch). The statement's reads do not see its own insert: this counter is added to
 * the other claimants it finds.
 */
const CLAIM_SQL = `
  with keys as (select distinct k from unnest($3::text[]) as k),
  ins as (
    insert into order_owners (order_key, counter_id, registered_at) select k, $1, $2 from keys
    on conflict (order_key, counter_id) do nothing returning order_key),
  others as (
    select o.order_key, o.counter_id from order_claimants o
     where o.order_key in (select k from keys) and o.counter_id <> $1),
  shared as (
    select order_key as key, counter_id from others
    union select distinct order_key, $1::text from others),
  sc as (insert into shared_claims (order_key, counter_id, at) select key, counter_id, $2 from shared on conflict do nothing),
  late as (
    select x.id, x.order_no,
           (select string_agg(distinct d.counter_id, ', ' order by d.counter_id) from deliveries d where d.notification_id = x.id) as before
      from notifications x
     where x.order_no in (select k from keys)
       and exists (select 1 from deliveries d where d.notification_id = x.id and d.counter_id <> $1
                    and d.counter_id in (select c.id from counters c where c.branch = (select branch from counters where id = $1)))
       and not exists (select 1 from deliveries d where d.notification_id = x.id and d.counter_id = $1)),
  d as (insert into deliveries (notification_id, counter_id, created_at, replay) select id, $1, $2, false from late order by id),
  l as (
    insert into delivery_log (notification_id, at, step, counter_id, detail)
    select id, $2, 'routed', $1, 'claimant of order ' || order_no || ' (claimed after it went to ' || before || '; sent to each, each checks it)'
      from late order by id)
  select (select count(*) from late) as caught,
         (select json_agg(json_build_object('key', key, 'counterIds', ids) order by key)
            from (select key, array_agg(counter_id order by counter_id) as ids from shared group by key) g) as shared`;

export async function claimOrders(
  db: HubDb,
  counter: { id: string; name: string },
  orders: { reference: string; orderNo: string }[],
  now: number,
): Promise<OrderClaimResult> {
  // No query unless a key carries a counter's code.
  const foreign = await foreignKeys(db, counter.id, counter.name, [
    ...new Set(orders.flatMap((o) => [o.reference, o.orderNo])),
  ]);
  if (foreign.size) {
    await recordRefused(db, counter.id, foreign, now);
    const keys = [...foreign.keys()];
    throw fail(
      'HUB_CLAIM_NOT_YOURS',
      403,
      `${keys.slice(0, 3).join(', ')}${keys.length > 3 ? ` and ${keys.length - 3} more` : ''} ${keys.length > 1 ? 'are references' : 'is a reference'} made with another counter's code: a counter claims its own sales only (its own code starts each of its sale numbers and top-up references). Nothing of this claim was taken.`,
      { keys: keys.slice(0, 20) },
    );
  }
  const keys = [...new Set(orders.map((o) => o.orderNo))];
  const r = await db.query<{ caught: unknown; shared: OrderClaimResult['sharedClaims'] | string | null }>(CLAIM_SQL, [
    counter.id,
    now,
    keys,
  ]);
  const shared = r[0]?.shared ?? null;
  const sharedClaims =
    typeof shared === 'string' ? (JSON.parse(shared) as OrderClaimResult['sharedClaims']) : (shared ?? []);
  const caught = num(r[0]?.caught ?? 0) > 0;
  return { claimed: orders.length, keys, sharedClaims, released: caught ? [counter.id] : [] };
}
