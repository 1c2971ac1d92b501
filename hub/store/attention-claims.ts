// Needs attention: a provider order number claimed by more than one counter (claims.ts). Each
// claimant gets its notifications, so no payment is lost, but two counters never sell on one
// provider order: one of them named another's in a sale of its own. One line per claimant in the
// manager's scope, for SHARED_CLAIM_DAYS; a branch manager is not told other branches' counter names.
import type { AttentionLine } from '../../shared/hub-dashboard-contract';
import type { SqlRunner } from '../db/adapter';
import { num } from '../db/adapter';
import { Where, type Scope } from './scope';

const SHARED_CLAIM_DAYS = 7;
const LINE_LIMIT = 200;

export async function sharedClaimLines(
  q: SqlRunner,
  scope: Scope,
  now: number,
  lines: AttentionLine[],
  branchFilter?: string,
): Promise<void> {
  const w = new Where(scope, 'c.branch', branchFilter);
  w.and(`s.at > ${w.p(now - SHARED_CLAIM_DAYS * 86_400_000)}`).and('c.revoked_at is null');
  const rows = await q.query<{
    order_key: string;
    counter_id: string;
    name: string;
    branch: string;
    at: unknown;
    others: { name: string; branch: string }[] | string;
  }>(
    `select s.order_key, s.counter_id, c.name, c.branch, s.at,
            (select coalesce(json_agg(json_build_object('name', c2.name, 'branch', c2.branch) order by c2.name), '[]'::json)
               from shared_claims s2 join counters c2 on c2.id = s2.counter_id where s2.order_key = s.order_key and s2.counter_id <> s.counter_id) as others
       from shared_claims s join counters c on c.id = s.counter_id ${w.sql()} order by s.at, s.order_key, c.name limit ${w.p(LINE_LIMIT)}`,
    w.params,
  );
  for (const r of rows) {
    const others = (typeof r.others === 'string' ? JSON.parse(r.others) : r.others) as {
      name: string;
      branch: string;
    }[];
    const named = others.map((o) =>
      scope.kind === 'all' ? `${o.name} (${o.branch})` : o.branch === r.branch ? o.name : 'a counter of another branch',
    );
    lines.push({
      kind: 'order-claimed-twice',
      branch: r.branch,
      counterId: r.counter_id,
      counterName: r.name,
      orderId: null,
      notificationId: null,
      shiftId: null,
      since: num(r.at),
      subject: `Provider order ${r.order_key} is claimed by ${r.name} and by ${named.join(', ')}: each gets its payment notification`,
      todo:
        scope.kind === 'all'
          ? `Search Orders for ${r.order_key} to see whose sale it is: the other counter named that provider order in a sale of its own. Revoke it under Counters if it is not yours.`
          : `Tell head office: one of these counters named another's provider order in a sale of its own. Search Orders for ${r.order_key} to see whose sale it is.`,
    });
  }
}
