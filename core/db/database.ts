// The app's one SQLite file (WAL, synchronous commits). Its tables come from one ordered list of
// named migrations applied once at open: each table's owner writes its own, the root puts them in
// order (core/schema.ts). db/ depends on nothing of the core.
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

export type Db = Database.Database;

export interface Migration {
  /** `<owner>-<nnn>-<what>`: the key in schema_migrations. */
  name: string;
  sql: string;
}

export interface OpenOptions {
  /** The migrations to bring the file up to (the whole schema, core/schema.ts, unless a test builds an older file). */
  migrations: readonly Migration[];
}

export function openDatabase(file: string, opts: OpenOptions): Db {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)');
  migrate(db, opts.migrations);
  reusePrepared(db);
  return db;
}

/** Past this many SQL texts the cache starts again (text built per call, e.g. an IN list, must not grow it without end). */
const MAX_PREPARED = 1000;

/**
 * Each SQL text is prepared once and its statement reused: preparing again on every call was a
 * sixth of a sale's own work at the counter (`npm run bench`'s create overhead, profiled for issue
 * 37). SQLite prepares a statement again by itself after a schema change. A statement is handed
 * back in its default mode, so one caller's `.raw()` never reaches another caller of the same SQL;
 * nothing here iterates a statement while another call could reuse it (`.iterate()` is not used).
 */
function reusePrepared(db: Db): void {
  const prepare = db.prepare.bind(db);
  const cache = new Map<string, Database.Statement>();
  db.prepare = ((sql: string) => {
    const had = cache.get(sql);
    if (had) {
      if (had.reader) had.raw(false).pluck(false).expand(false);
      return had;
    }
    const s = prepare(sql);
    if (cache.size >= MAX_PREPARED) cache.clear();
    cache.set(sql, s);
    return s;
  }) as Db['prepare'];
}

/** Runs each named migration not yet applied to this file, in list order, each in a transaction. */
export function migrate(db: Db, migrations: readonly Migration[]): void {
  const applied = new Set(
    (db.prepare('SELECT name FROM schema_migrations').all() as { name: string }[]).map((r) => r.name),
  );
  for (const m of migrations) {
    if (applied.has(m.name)) continue;
    db.transaction(() => {
      db.exec(m.sql);
      db.prepare('INSERT INTO schema_migrations (name, applied_at) VALUES (?, ?)').run(m.name, Date.now());
    })();
  }
}
