// Branch names: every branch a counter joined with (or head office named), with its name if any.
// A branch manager's list holds their own branch only (the scope, as every dashboard query).
import type { BranchView } from '../../shared/hub-branches-contract';
import type { HubDb } from '../db/adapter';
import { Where, type Scope } from './scope';

export async function listBranches(db: HubDb, scope: Scope): Promise<BranchView[]> {
  const w = new Where(scope, 'b.branch');
  const rows = await db.query<{ branch: string; name: string | null }>(
    `select b.branch, n.name from (select branch from counters union select branch from branch_names) b
     left join branch_names n on n.branch = b.branch ${w.sql()} order by b.branch`,
    w.params,
  );
  return rows.map((r) => ({ branch: r.branch, name: r.name ?? null }));
}

export async function setBranchName(db: HubDb, branch: string, name: string, by: string, now: number): Promise<void> {
  await db.query(
    `insert into branch_names (branch, name, updated_at, updated_by) values ($1, $2, $3, $4)
     on conflict (branch) do update set name = excluded.name, updated_at = excluded.updated_at, updated_by = excluded.updated_by`,
    [branch, name, now, by],
  );
}
