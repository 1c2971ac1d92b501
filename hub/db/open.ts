// Opens the Hub's database from its options (a postgres:// URL, or a PGlite folder) and migrates it.
import type { HubDb } from './adapter';
import { migrate } from './migrations';
import { openPgDb } from './pg-db';
import { openPgliteDb } from './pglite-db';

interface OpenDbOptions {
  databaseUrl?: string | null;
  /** PGlite folder; null keeps the database in memory (tests). */
  dataDir: string | null;
  poolMax?: number;
  onError?: (e: Error) => void;
}

export async function openHubDb(o: OpenDbOptions): Promise<HubDb> {
  const db = o.databaseUrl
    ? await openPgDb({ url: o.databaseUrl, max: o.poolMax, onError: o.onError })
    : await openPgliteDb(o.dataDir);
  try {
    await migrate(db);
  } catch (e) {
    await db.close();
    throw e;
  }
  return db;
}
