// A counter's claim of a sale's provider order number the moment it learns it (POST
// /api/v1/orders/claim), apart from its journal's sync: the POS webhook names the order by that
// number only, and a sync busy with an earlier batch made the Hub hold the webhook until the next
// one arrived (issue 28). A claim takes no more than an order.created naming the reference and the
// orderNo takes in a sync (journal.ts): nothing for a reference made with another live counter's
// code; an orderNo several counters claim goes to each (claims.ts). It takes the orderNo only: the
// reference is the journal's to claim (its order.created may be committing at this very moment,
// and inserting the same key would wait for it); the journal's sync later claims the orderNo again
// (nothing changes). Held notifications are released by the caller after the commit
// (releaseHeld), which also catches a webhook stored while this claim was committing.
import type { HubDb } from '../db/adapter';
import { catchUpClaimant, claimsShared } from './claims';
import { othersCodes } from './journal';

export interface OrderClaimResult {
  claimed: number;
  /** The orderNos now claimed by this counter (release what is held for them). */
  keys: string[];
  /** References made with another live counter's code: not claimed (the route logs them). */
  refused: string[];
  sharedClaims: { key: string; counterIds: string[] }[];
  /** Counters given notifications that went to another claimant before this claim (announce them). */
  released: string[];
}

export async function claimOrders(
  db: HubDb,
  counter: { id: string; name: string },
  orders: { reference: string; orderNo: string }[],
  now: number,
): Promise<OrderClaimResult> {
  return db.tx(async (q) => {
    // No lock of the counter's row: its sync holds it for no key update, which the claims' foreign
    // key (for key share) does not wait for.
    const notOurs = await othersCodes(q, counter.id, counter.name, [...new Set(orders.map((o) => o.reference))]);
    const ours = orders.filter((o) => !notOurs.has(o.reference));
    const keys = [...new Set(ours.map((o) => o.orderNo))];
    if (!keys.length) return { claimed: 0, keys, refused: [...notOurs], sharedClaims: [], released: [] };
    await q.query(
      'insert into order_owners (order_key, counter_id, registered_at) select k, $1, $2 from unnest($3::text[]) as k on conflict (order_key, counter_id) do nothing',
      [counter.id, now, keys],
    );
    const sharedClaims = await claimsShared(q, counter.id, keys, now);
    const released = await catchUpClaimant(q, counter.id, keys, now);
    return { claimed: ours.length, keys, refused: [...notOurs], sharedClaims, released };
  });
}
