// Needs attention about claims, for CLAIM_DAYS, one line per claiming counter in the manager's
// scope (a branch manager is not told other branches' counter names):
// - *Order claimed twice*: a provider order number claimed by more than one counter of one branch
//   (claims.ts). Each of them gets its notifications, so no payment is lost, but two counters never
//   sell on one provider order: one of them named another's in a sale of its own.
// - *Order named in two branches*: claimed by counters of different branches. The notification goes
//   to one branch only, the one the provider names (ingest.ts); the other branch's claim takes nothing.
// - *Claim refused*: a counter tried to claim a reference made with another live counter's code, in
//   any field (code-owners.ts): not taken.
import type { AttentionLine } from '../../shared/hub-dashboard-contract';
import type { SqlRunner } from '../db/adapter';
import { num } from '../db/adapter';
import { Where, type Scope } from './scope';

const CLAIM_DAYS = 7;
const LINE_LIMIT = 200;

interface Claimant {
  name: string;
  branch: string;
}

export async function sharedClaimLines(
  q: SqlRunner,
  scope: Scope,
  now: number,
  lines: AttentionLine[],
  branchFilter?: string,
): Promise<void> {
  const w = new Where(scope, 'c.branch', branchFilter);
  w.and(`s.at > ${w.p(now - CLAIM_DAYS * 86_400_000)}`).and('c.revoked_at is null');
  const rows = await q.query<{
    order_key: string;
    counter_id: string;
    name: string;
    branch: string;
    at: unknown;
    others: Claimant[] | string;
  }>(
    `select s.order_key, s.counter_id, c.name, c.branch, s.at,
            (select coalesce(json_agg(json_build_object('name', c2.name, 'branch', c2.branch) order by c2.name), '[]'::json)
               from shared_claims s2 join counters c2 on c2.id = s2.counter_id where s2.order_key = s.order_key and s2.counter_id <> s.counter_id) as others
       from shared_claims s join counters c on c.id = s.counter_id ${w.sql()} order by s.at, s.order_key, c.name limit ${w.p(LINE_LIMIT)}`,
    w.params,
  );
  for (const r of rows) {
    const others = (typeof r.others === 'string' ? JSON.parse(r.others) : r.others) as Claimant[];
    const here = others.filter((o) => o.branch === r.branch);
    const away = others.filter((o) => o.branch !== r.branch);
    const at = {
      branch: r.branch,
      counterId: r.counter_id,
      counterName: r.name,
      orderId: null,
      notificationId: null,
      shiftId: null,
      since: num(r.at),
    };
    if (here.length)
      lines.push({
        ...at,
        kind: 'order-claimed-twice',
        subject: `Provider order ${r.order_key} is claimed by ${r.name} and by ${here.map((o) => o.name).join(', ')}: each gets its payment notification`,
        todo:
          scope.kind === 'all'
            ? `Search Orders for ${r.order_key} to see whose sale it is: the other counter named that provider order in a sale of its own. Revoke it under Counters if it is not yours.`
            : `Tell head office: one of these counters named another's provider order in a sale of its own. Search Orders for ${r.order_key} to see whose sale it is.`,
      });
    if (away.length) {
      const named = away.map((o) => (scope.kind === 'all' ? `${o.name} (${o.branch})` : 'a counter of another branch'));
      lines.push({
        ...at,
        kind: 'order-named-in-two-branches',
        subject: `Provider order ${r.order_key} is named by ${r.name} and by ${[...new Set(named)].join(', ')}: its payment notification goes to one branch only, the one the provider names`,
        todo:
          scope.kind === 'all'
            ? `Search Orders for ${r.order_key} to see whose sale it is: a counter named another branch's provider order in a sale of its own. Revoke it under Counters if it is not yours.`
            : `Tell head office. Search Orders for ${r.order_key}: if it is your branch's sale, your counter gets its payment notification; if not, your counter named another branch's provider order.`,
      });
    }
  }
  await refusedClaimLines(q, scope, now, lines, branchFilter);
}

/** A claim refused for another live counter's code: one line per (key, counter) that tried it. */
async function refusedClaimLines(
  q: SqlRunner,
  scope: Scope,
  now: number,
  lines: AttentionLine[],
  branchFilter?: string,
): Promise<void> {
  const w = new Where(scope, 'c.branch', branchFilter);
  w.and(`r.at > ${w.p(now - CLAIM_DAYS * 86_400_000)}`).and('c.revoked_at is null');
  const rows = await q.query<{
    order_key: string;
    counter_id: string;
    name: string;
    branch: string;
    at: unknown;
    owner: string;
    owner_branch: string;
  }>(
    `select r.order_key, r.counter_id, c.name, c.branch, r.at, o.name as owner, o.branch as owner_branch
       from refused_claims r join counters c on c.id = r.counter_id join counters o on o.id = r.owner_id
       ${w.sql()} order by r.at desc, r.order_key limit ${w.p(LINE_LIMIT)}`,
    w.params,
  );
  for (const r of rows) {
    const owner =
      scope.kind === 'all' || r.owner_branch === r.branch
        ? `${r.owner}${scope.kind === 'all' && r.owner_branch !== r.branch ? ` (${r.owner_branch})` : ''}`
        : 'a counter of another branch';
    lines.push({
      kind: 'claim-refused',
      branch: r.branch,
      counterId: r.counter_id,
      counterName: r.name,
      orderId: null,
      notificationId: null,
      shiftId: null,
      since: num(r.at),
      subject: `${r.name} named ${r.order_key}, a reference made by ${owner}: refused, it gets none of that order's notifications`,
      todo:
        scope.kind === 'all'
          ? `A counter claims its own sales only. Look at ${r.name}'s journal (admin API) and revoke it under Counters if it is not yours.`
          : `Tell head office: ${r.name} named another counter's reference. Check the counter is yours.`,
    });
  }
}
