// Versioned schema of the Hub: the numbered SQL files in hub/db/migrations/ (NNN-what.sql, the first
// line `-- name`). Each runs once, in its own transaction, and is recorded in schema_migrations;
// several instances starting together serialise on an advisory lock. Add a new file with the next
// number; never edit one that has shipped (a database that ran it would not run it again).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HubDb } from './adapter';
import { num } from './adapter';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

const MIGRATIONS_DIR = join(__dirname, 'migrations');

/**
 * The migrations in a folder, by number; refuses a gap, a repeated number or a file not named NNN-what.sql.
 * @internal for tests
 */
export function readMigrations(dir: string = MIGRATIONS_DIR): Migration[] {
  const out: Migration[] = [];
  for (const f of readdirSync(dir)
    .filter((x) => x.endsWith('.sql'))
    .sort()) {
    const m = /^(\d{3})-[a-z0-9-]+\.sql$/.exec(f);
    if (!m) throw new Error(`hub migrations: ${f} is not named NNN-what.sql`);
    const version = Number(m[1]);
    if (version !== out.length + 1)
      throw new Error(
        `hub migrations: ${f} should be number ${String(out.length + 1).padStart(3, '0')} (no gaps, no repeats)`,
      );
    const text = readFileSync(join(dir, f), 'utf8');
    const first = /^-- (.+)\n/.exec(text);
    if (!first) throw new Error(`hub migrations: ${f} must start with a "-- name" line`);
    out.push({ version, name: first[1]!.trim(), sql: text.slice(first[0].length) });
  }
  return out;
}

/** @internal for tests */
export const MIGRATIONS: Migration[] = readMigrations();

const LOCK_KEY = 726_412_001; // any constant: the Hub's migration lock

/** Statements of a migration file: split on `;` (the Hub's SQL files hold no `;` inside a string). */
const statements = (sql: string) =>
  sql
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean);

export async function migrate(db: HubDb, migrations: Migration[] = MIGRATIONS): Promise<number[]> {
  await db.query(
    `create table if not exists schema_migrations (version integer primary key, name text not null, applied_at bigint not null)`,
  );
  const applied: number[] = [];
  for (const m of migrations) {
    await db.tx(async (q) => {
      await q.query('select pg_advisory_xact_lock($1)', [LOCK_KEY]);
      const done = await q.query('select 1 from schema_migrations where version = $1', [m.version]);
      if (done.length) return;
      for (const stmt of statements(m.sql)) await q.query(stmt);
      await q.query('insert into schema_migrations (version, name, applied_at) values ($1, $2, $3)', [
        m.version,
        m.name,
        Date.now(),
      ]);
      applied.push(m.version);
    });
  }
  return applied;
}

/** True when the database answers and holds every migration this build knows. */
export async function schemaIsCurrent(db: HubDb): Promise<boolean> {
  const rows = await db.query<{ v: unknown }>('select coalesce(max(version), 0) as v from schema_migrations');
  return num(rows[0]?.v ?? 0) >= MIGRATIONS[MIGRATIONS.length - 1]!.version;
}
