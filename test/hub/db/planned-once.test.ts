// The statements on every webhook's way (store it, read it for its counter's stream, mark it relayed)
// are planned once on real PostgreSQL, not again on every call (issue 28: the ingest's planning took
// 0.5 of its 1 ms). Counted with PostgreSQL's own counters of a session's prepared statements
// (pg_prepared_statements: generic_plans, custom_plans), not timed. Before queryPlannedOnce the ingest
// ran on the main pool and this test found it nowhere on the planned-once connections.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HubDb } from '../../../hub/db/adapter';
import { openHubDb } from '../../../hub/db/open';
import { ingestNotifications, type NotificationIngestInput } from '../../../hub/store/ingest';
import { markRelayedMany, pendingDeliveriesFor } from '../../../hub/store/notifications';
import { pgUnavailable, startPgCluster, type PgCluster } from '../helpers/pg-cluster';

if (pgUnavailable) console.log(`statements planned once on real PostgreSQL skipped: ${pgUnavailable}`);

interface PlanCount {
  statement: string;
  generic_plans: string | number;
  custom_plans: string | number;
}

const plansOf = async (run: (sql: string) => Promise<PlanCount[]>, marker: string) => {
  const rows = await run('select statement, generic_plans, custom_plans from pg_prepared_statements');
  const mine = rows.filter((r) => r.statement.includes(marker));
  return {
    found: mine.length,
    generic: mine.reduce((a, r) => a + Number(r.generic_plans), 0),
    custom: mine.reduce((a, r) => a + Number(r.custom_plans), 0),
  };
};

/** A POS webhook for order ORD-i, owned by counter c1. */
const webhook = (body: string, i: number, now: number): NotificationIngestInput => ({
  kind: 'pos',
  headers: { 'X-Opay-Tranid': `ORD-${i}` },
  body,
  contentKey: body,
  orderKeys: [`ORD-${i}`],
  branch: 'BR-1',
  source: '127.0.0.1',
  verifiedDetail: 'checked',
  now,
});

describe.skipIf(!!pgUnavailable)("a webhook's statements on real PostgreSQL", () => {
  let cluster: PgCluster;
  let db: HubDb;
  const N = 8;

  beforeAll(async () => {
    cluster = await startPgCluster();
    db = await openHubDb({ databaseUrl: cluster.createDatabase('plannedonce'), dataDir: null });
    await db.query(
      `insert into counters (id, name, branch, token_hash, enrolled_at) values ('c1', 'Counter 1', 'BR-1', 'x', 0)`,
    );
    for (let i = 0; i < N; i++)
      await db.query(`insert into order_owners (order_key, counter_id, registered_at) values ($1, 'c1', 0)`, [
        `ORD-${i}`,
      ]);
  }, 120_000);
  afterAll(async () => {
    await db?.close();
    cluster?.stop();
  });

  it('are planned once and reused: no plan made for the values of one call', async () => {
    for (let i = 0; i < N; i++) {
      const [r] = await ingestNotifications(db, [webhook(`{"n":${i}}`, i, 1_000 + i)]);
      expect(r!.counterIds).toEqual(['c1']);
      const [ds] = await pendingDeliveriesFor(db, [{ counterId: 'c1', after: null }], 10);
      expect(ds!.map((d) => d.body)).toEqual([`{"n":${i}}`]);
      await markRelayedMany(
        db,
        ds!.map((d) => ({ counterId: 'c1', d })),
        2_000 + i,
      );
    }
    const onceConnection = (sql: string) => db.queryPlannedOnce<PlanCount>(sql);
    for (const marker of ['insert into notifications', 'cross join lateral', "'relayed'"]) {
      const p = await plansOf(onceConnection, marker);
      expect(p.found, marker).toBeGreaterThan(0);
      expect(p.custom, marker).toBe(0);
      expect(p.generic, marker).toBeGreaterThan(0);
    }
  });

  it('the same ingest on the main pool is planned again for its values: why the webhook path has connections of its own', async () => {
    // As before queryPlannedOnce: PostgreSQL plans a prepared statement for its values at least on
    // its first five calls (the plan cache's rule), and after them whenever the plan for the arrays'
    // actual lengths looks cheaper than the general one (this statement's shape decides: before the
    // claims by branch, issue 36, it never settled on one plan). The planned-once connections make none.
    const asBefore: HubDb = { ...db, queryPlannedOnce: (sql, params) => db.query(sql, params) };
    for (let i = 0; i < N; i++) await ingestNotifications(asBefore, [webhook(`{"again":${i}}`, i, 3_000 + i)]);
    const p = await plansOf((sql) => db.query<PlanCount>(sql), 'insert into notifications');
    expect(p.custom).toBeGreaterThanOrEqual(5);
  });
});
