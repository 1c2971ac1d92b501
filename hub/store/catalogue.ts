// Each branch's concessions catalogue on the Hub (table branch_catalogues): replaced whole by a
// manager's upload, read by the branch's counters (GET /api/v1/catalogue) and the dashboard, and the
// stock across counters: for each counted item, the stock uploaded minus what the branch's paid
// synced sales took since the upload (`itemsTaken` of shared/basket.ts: an item line takes its
// quantity, a combo one of each chosen item per combo), summed by SQL over dash_order_lines. A
// count below zero is a line in Needs attention (attention.ts); it never blocks a sale.
import type { Catalogue } from '../../shared/catalogue';
import type { AttentionLine } from '../../shared/hub-dashboard-contract';
import type { DashCatalogueView, HubCatalogue, StockLine } from '../../shared/hub-sales-contract';
import type { HubDb, SqlRunner } from '../db/adapter';
import { num } from '../db/adapter';
import type { Row } from './dashboard-orders';
import { RELAY_CHANNEL } from './notifications';
import { programmeNotice } from './programme';
import { Where, type Scope } from './scope';

interface Stored extends HubCatalogue {
  updatedBy: string | null;
}

const catalogueOf = (v: unknown): Catalogue => (typeof v === 'string' ? JSON.parse(v) : v) as Catalogue;

/**
 * Replaces the branch's catalogue; resolves to its new version. The branch's programme version moves
 * on too (as a screen's layout does), so its counters, told `event: programme`, pull again.
 */
export async function setCatalogue(db: HubDb, branch: string, c: Catalogue, by: string, now: number): Promise<number> {
  return db.tx(async (q) => {
    const v = await q.query<{ version: unknown }>(
      `insert into branch_catalogues (branch, version, catalogue, updated_at, updated_by) values ($1, 1, $2::jsonb, $3, $4)
       on conflict (branch) do update set version = branch_catalogues.version + 1, catalogue = excluded.catalogue,
         updated_at = excluded.updated_at, updated_by = excluded.updated_by
       returning version`,
      [branch, JSON.stringify(c), now, by],
    );
    const p = await q.query<{ version: unknown }>(
      `update programme_versions set version = version + 1, updated_at = $2, updated_by = $3 where branch = $1 returning version`,
      [branch, now, by],
    );
    if (p[0]) await q.query('select pg_notify($1, $2)', [RELAY_CHANNEL, programmeNotice(branch, num(p[0].version))]);
    return num(v[0]!.version);
  });
}

export async function readCatalogue(q: SqlRunner, branch: string): Promise<Stored> {
  const r = (
    await q.query<Row>('select version, catalogue, updated_at, updated_by from branch_catalogues where branch = $1', [
      branch,
    ])
  )[0];
  if (!r) return { branch, version: 0, updatedAt: null, updatedBy: null, catalogue: null };
  return {
    branch,
    version: num(r.version),
    updatedAt: num(r.updated_at),
    updatedBy: String(r.updated_by),
    catalogue: catalogueOf(r.catalogue),
  };
}

/** The counted items of a branch's catalogue: uploaded, taken by paid synced sales since `since`, left. */
async function stockOf(q: SqlRunner, branch: string, c: Catalogue, since: number): Promise<StockLine[]> {
  const counted = c.items.filter((i) => i.stock !== undefined);
  if (!counted.length) return [];
  const rows = await q.query<Row>(
    `with taken as (
       select x.code, sum(x.n) as n from (
         select l.code, l.quantity as n from dash_order_lines l join dash_orders o on o.id = l.order_id
          where o.branch = $1 and o.counted_at >= $2 and o.in_card and not o.practice and l.kind = 'item'
         union all
         select c.code, l.quantity from dash_order_lines l join dash_orders o on o.id = l.order_id cross join unnest(l.chosen) as c(code)
          where o.branch = $1 and o.counted_at >= $2 and o.in_card and not o.practice and l.kind = 'combo'
       ) x group by x.code)
     select u.code, u.uploaded, coalesce(t.n, 0) as taken, u.uploaded - coalesce(t.n, 0) as left_over
       from unnest($3::text[], $4::bigint[], $5::int[]) as u(code, uploaded, i) left join taken t on t.code = u.code
      order by u.i`,
    [branch, since, counted.map((i) => i.code), counted.map((i) => i.stock), counted.map((_, i) => i)],
  );
  const byCode = new Map(counted.map((i) => [i.code, i]));
  return rows.map((r) => {
    const item = byCode.get(String(r.code))!;
    return {
      code: item.code,
      name: item.name,
      category: item.category,
      uploaded: num(r.uploaded),
      taken: num(r.taken),
      left: num(r.left_over),
    };
  });
}

/** The dashboard's view of a branch's catalogue, with its stock across counters. */
export async function catalogueView(q: SqlRunner, branch: string): Promise<DashCatalogueView> {
  const s = await readCatalogue(q, branch);
  const stock = s.catalogue && s.updatedAt !== null ? await stockOf(q, branch, s.catalogue, s.updatedAt) : [];
  return { ...s, stock };
}

/** Needs attention: each counted item whose stock across the branch's counters is below zero. */
export async function stockLines(
  q: SqlRunner,
  scope: Scope,
  lines: AttentionLine[],
  branchFilter?: string,
): Promise<void> {
  const w = new Where(scope, 'b.branch', branchFilter);
  const rows = await q.query<Row>(
    `select b.branch, b.catalogue, b.updated_at from branch_catalogues b ${w.sql()} order by b.branch`,
    w.params,
  );
  for (const r of rows) {
    const branch = String(r.branch);
    const since = num(r.updated_at);
    for (const s of await stockOf(q, branch, catalogueOf(r.catalogue), since)) {
      if (s.left >= 0) continue;
      lines.push({
        kind: 'stock-below-zero',
        branch,
        counterId: null,
        counterName: null,
        orderId: null,
        notificationId: null,
        shiftId: null,
        since,
        subject: `${s.name} (${s.code}): ${s.left} left across the counters (${s.uploaded} in the catalogue, ${s.taken} sold since)`,
        todo: `Count the ${s.name} at the stand and upload the catalogue again with the real stock; sales were not stopped (a counter that sold offline is counted when it syncs).`,
      });
    }
  }
}
