// Whose is a reference? A generated sale number or top-up reference (COU1-251125-0001,
// COU1-T251125-0001) starts with the code of the live counter that made it (shared/counter-code.ts;
// codes are unique among live counters: counter-codes.ts). Two rules follow, whatever field a key
// arrives in:
// - no counter claims a key in another live counter's code: not its `reference`, not an `orderNo`
//   (the claim route, or a synced order.created / order.status / topup.*). A claim route naming one
//   is refused (HUB_CLAIM_NOT_YOURS); a sync stores its events but does not enter such a key (the
//   counter's journal keeps syncing, nothing is lost). Either way the key is kept in refused_claims
//   for Needs attention (attention-claims.ts) and logged;
// - a notification whose key names a live counter's code goes to that counter alone, whatever else
//   claims it (ingest.ts, quarantine.ts: the `pin`), so a claim made before that counter enrolled,
//   or before this rule, takes nothing.
import { counterCode, referenceCounterCode } from '../../shared/counter-code';
import type { SqlRunner } from '../db/adapter';

/** The live counters by code: code -> counter id (one query: a Hub has tens of counters, not thousands). */
export async function liveCodeOwners(q: SqlRunner): Promise<Map<string, string>> {
  const rows = await q.query<{ id: string; name: string }>(
    'select id, name from counters where revoked_at is null order by enrolled_at, id',
  );
  const owners = new Map<string, string>();
  for (const r of rows) if (!owners.has(counterCode(r.name))) owners.set(counterCode(r.name), r.id);
  return owners;
}

/** The live counter whose code the first of these keys that carries one names; null when none does. */
export function pinOf(keys: string[], owners: Map<string, string>): string | null {
  for (const k of keys) {
    const code = referenceCounterCode(k);
    if (code !== null && owners.has(code)) return owners.get(code)!;
  }
  return null;
}

/**
 * Of these keys, those that carry another live counter's code and not this one's (the name it
 * enrolled under), each with that counter's id. A code no live counter has (a counter renamed since
 * it enrolled, a revoked one) is not refused: only another's is. No query unless a key carries a code.
 */
export async function foreignKeys(
  q: SqlRunner,
  counterId: string,
  name: string,
  keys: string[],
): Promise<Map<string, string>> {
  const own = counterCode(name);
  const suspect = keys.filter((k) => {
    const code = referenceCounterCode(k);
    return code !== null && code !== own;
  });
  if (!suspect.length) return new Map();
  const owners = await liveCodeOwners(q);
  const out = new Map<string, string>();
  for (const k of suspect) {
    const owner = owners.get(referenceCounterCode(k)!);
    if (owner && owner !== counterId) out.set(k, owner);
  }
  return out;
}

/** Keeps refused keys for Needs attention (the first time each counter tried each key). */
export async function recordRefused(
  q: SqlRunner,
  counterId: string,
  refused: Map<string, string>,
  now: number,
): Promise<void> {
  if (!refused.size) return;
  await q.query(
    `insert into refused_claims (order_key, counter_id, owner_id, at)
     select k, $1, o, $2 from unnest($3::text[], $4::text[]) as t(k, o) on conflict do nothing`,
    [counterId, now, [...refused.keys()], [...refused.values()]],
  );
}
