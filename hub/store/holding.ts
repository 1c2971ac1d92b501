// Who may fill the holding area (quarantine.ts) and how much. A bills callback is unverified (the
// Hub has no bills secret): anyone can send one, so the Hub keeps only what could belong to a live
// counter — a reference that carries a live counter's code (shared/counter-code.ts) — and, of that,
// at most `maxHeldBytesPerSource` per address that sent it. Past the kind's `maxHeld`, each address
// keeps its oldest first, in turn (round robin): an address sending much loses its own newest, never
// another's one. What is not kept is not stored at all (no row, no log line): it only counts in the
// metrics. A POS webhook is signed by the provider: held under the per-kind count only, and kept
// for replay when it cannot be held.
import { referenceCounterCode } from '../../shared/counter-code';
import type { SqlRunner } from '../db/adapter';
import { num } from '../db/adapter';

/** How long, and how much, notifications of orders not yet known are held. */
export interface HoldPolicy {
  holdMs: number;
  /** Per kind: past it, bills callbacks are evicted round robin by address; POS webhooks are not held. */
  maxHeld: number;
  /** Bills callbacks held per source address, in body bytes (a real one is about 500 bytes). */
  maxHeldBytesPerSource: number;
  /** Told how many held bills callbacks of earlier requests were evicted to make room (the metrics). */
  onEvicted?: (n: number) => void;
}
export const DEFAULT_HOLD: HoldPolicy = { holdMs: 10 * 60_000, maxHeld: 1000, maxHeldBytesPerSource: 256 * 1024 };

/** Why a notification of an order nobody owns went to no counter. */
export type DropReason =
  | 'no-key' // no order number to route by
  | 'not-ours' // a bills reference that carries no live counter's code
  | 'source-full' // its address already holds its share
  | 'full'; // the kind's holding area is full (POS)

/** Could this notification belong to a live counter? A POS webhook is signed: yes. A bills callback: if its reference carries a live counter's code. */
export function couldBeLiveCounters(kind: 'pos' | 'bills', orderKeys: string[], codes: Set<string>): boolean {
  if (kind === 'pos') return true;
  const code = referenceCounterCode(orderKeys[0] ?? '');
  return code !== null && codes.has(code);
}

/**
 * Brings the held bills callbacks back within the policy: per address at most its byte share, and
 * at most maxHeld in all, each address keeping its oldest first, in turn. What goes is deleted with
 * its notification (unverified: nothing to replay). Returns the ids that went.
 */
export async function trimHeldBills(q: SqlRunner, hold: HoldPolicy): Promise<string[]> {
  const rows = await q.query<{ id: unknown }>(
    `with ranked as (
       select notification_id, held_at,
              row_number() over (partition by source order by held_at, notification_id) as r,
              sum(bytes) over (partition by source order by held_at, notification_id) as upto
         from quarantine where kind = 'bills'),
     ordered as (select notification_id, upto, row_number() over (order by r, held_at, notification_id) as g from ranked)
     delete from notifications where id in (select notification_id from ordered where g > $1 or upto > $2) returning id`,
    [hold.maxHeld, hold.maxHeldBytesPerSource],
  );
  return rows.map((r) => String(num(r.id)));
}
