// "Who owns this order" is one SQL view, order_claimants (hub/db/migrations/010-order-claimants-view.sql):
// every live counter that claimed an order key, with its branch; a revoked counter is left out. The
// routing of a new notification, the release of held ones and the shared claims all read it, and no
// store file writes that join again by hand. On PGlite and on a throwaway real PostgreSQL.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HubDb } from '../../../hub/db/adapter';
import { openHubDb } from '../../../hub/db/open';
import { enrollCounter, issueEnrollCode, revokeCounter } from '../../../hub/store/counters';
import { pgUnavailable, startPgCluster, type PgCluster } from '../helpers/pg-cluster';

if (pgUnavailable) console.log(`order_claimants on real PostgreSQL skipped: ${pgUnavailable}`);

const STORE_DIR = join(__dirname, '..', '..', '..', 'hub', 'store');

async function counter(db: HubDb, name: string, branch: string): Promise<string> {
  const now = Date.now();
  const { code } = await issueEnrollCode(db, now, 10, branch);
  return (await enrollCounter(db, { code, counterName: name, branch, appVersion: '1' }, now)).counterId;
}

function claimantsSuite(name: string, open: () => Promise<HubDb>) {
  describe(name, () => {
    let db: HubDb;
    beforeAll(async () => {
      db = await open();
    });
    afterAll(async () => db?.close());

    it('lists every live claimant of an order key with its branch, and drops a counter once it is revoked', async () => {
      const a = await counter(db, 'Claim A', 'B1');
      const b = await counter(db, 'Claim B', 'B2');
      const now = Date.now();
      await db.query(
        `insert into order_owners (order_key, counter_id, registered_at) values ('K1', $1, $3), ('K1', $2, $3), ('K2', $2, $3)`,
        [a, b, now],
      );
      const claimants = async (key: string) =>
        db.query<{ counter_id: string; branch: string }>(
          'select counter_id, branch from order_claimants where order_key = $1 order by counter_id',
          [key],
        );
      expect(await claimants('K1')).toEqual(
        [
          { counter_id: a, branch: 'B1' },
          { counter_id: b, branch: 'B2' },
        ].sort((x, y) => x.counter_id.localeCompare(y.counter_id)),
      );
      expect(await revokeCounter(db, b, now + 1)).toBe(true);
      expect(await claimants('K1')).toEqual([{ counter_id: a, branch: 'B1' }]);
      expect(await claimants('K2')).toEqual([]);
    });
  });
}

claimantsSuite('order_claimants on PGlite', () => openHubDb({ dataDir: null }));

describe.skipIf(!!pgUnavailable)('real PostgreSQL', () => {
  let cluster: PgCluster;
  beforeAll(async () => {
    cluster = await startPgCluster();
  });
  afterAll(() => cluster?.stop());
  claimantsSuite('order_claimants on real PostgreSQL', () =>
    openHubDb({ databaseUrl: cluster.createDatabase('claimants'), dataDir: null }),
  );
});

describe('one place says who owns an order', () => {
  it('no store file joins order_owners with counters by hand: they read order_claimants', () => {
    const joins: string[] = [];
    for (const f of readdirSync(STORE_DIR).filter((x) => x.endsWith('.ts'))) {
      const text = readFileSync(join(STORE_DIR, f), 'utf8');
      if (/order_owners\b[^;`]*?\bjoin\s+counters\b|\bjoin\s+order_owners\b/i.test(text)) joins.push(f);
    }
    expect(joins).toEqual([]);
    const readers = readdirSync(STORE_DIR).filter((f) =>
      /\border_claimants\b/.test(readFileSync(join(STORE_DIR, f), 'utf8')),
    );
    expect(readers.sort()).toEqual(['claims.ts', 'ingest.ts', 'notifications.ts', 'order-claims.ts', 'quarantine.ts']);
  });
});
