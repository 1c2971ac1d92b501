// HubDb on PGlite: PostgreSQL compiled to WebAssembly, in a data folder (or in memory for tests).
// One process at a time may open a folder, so this is the single-instance default.
import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import type { HubDb, SqlRunner } from './adapter';
import { lockFolder } from './folder-lock';

const runner = (db: PGlite | Transaction): SqlRunner => ({
  async query<T>(sql: string, params: unknown[] = []) {
    return (await db.query<T>(sql, params)).rows;
  },
});

export async function openPgliteDb(dataDir: string | null): Promise<HubDb> {
  if (dataDir) {
    // The database holds credentials' hashes, journals and callbacks: the Hub's user only.
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    chmodSync(dataDir, 0o700);
  }
  const unlock = dataDir ? lockFolder(dataDir) : () => undefined;
  let db: PGlite;
  try {
    db = dataDir ? await PGlite.create(join(dataDir, 'pg')) : await PGlite.create();
  } catch (e) {
    unlock();
    throw e;
  }
  const plain = runner(db);
  return {
    kind: 'pglite',
    label: dataDir ? `PGlite (embedded) in ${dataDir}` : 'PGlite (embedded, in memory)',
    query: plain.query,
    queryPlannedOnce: plain.query,
    tx: (fn) => db.transaction((t) => fn(runner(t))),
    async listen(channel, onPayload) {
      const off = await db.listen(channel, onPayload);
      return async () => {
        if (!db.closed) await off();
      };
    },
    poolStats: () => ({ total: 1, idle: 1, waiting: 0 }),
    async close() {
      if (!db.closed) await db.close();
      unlock();
    },
  };
}
