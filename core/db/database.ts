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
  return db;
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
