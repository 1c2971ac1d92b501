// The Hub's schema as numbered SQL files (hub/db/migrations/NNN-*.sql): the files hold exactly what
// the code held before them, a database made by that code (a PGlite data folder, partly or fully
// migrated, with data in it) opens, keeps its data and upgrades; a badly numbered folder is refused.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate, MIGRATIONS, readMigrations, schemaIsCurrent, type Migration } from '../../../hub/db/migrations';
import { openHubDb } from '../../../hub/db/open';
import { openPgliteDb } from '../../../hub/db/pglite-db';

/** The migrations exactly as hub/db/migrations.ts held them before they moved to SQL files. */
const BEFORE = JSON.parse(
  readFileSync(join(__dirname, '..', 'fixtures', 'migrations-before-sql-files.json'), 'utf8'),
) as Migration[];
const words = (sql: string) =>
  sql
    .replace(/--[^\n]*\n/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
const dirs: string[] = [];
const temp = () => {
  const d = mkdtempSync(join(tmpdir(), 'hub-mig-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('hub migrations as numbered SQL files', () => {
  it('the files hold the same migrations, names and statements, as the code did', () => {
    // Later migrations (004 on) came after the move to files.
    expect(MIGRATIONS.slice(0, BEFORE.length).map((m) => [m.version, m.name])).toEqual(
      BEFORE.map((m) => [m.version, m.name]),
    );
    for (const [i, m] of MIGRATIONS.slice(0, BEFORE.length).entries()) expect(words(m.sql)).toBe(words(BEFORE[i]!.sql));
  });

  for (const upTo of [1, BEFORE.length]) {
    it(`a PGlite folder made by the code before the files (migrations 1..${upTo}, with a counter in it) opens, keeps its data and is current`, async () => {
      const dir = temp();
      const old = await openPgliteDb(dir);
      await migrate(old, BEFORE.slice(0, upTo));
      // The columns of migration 1: what any of those databases holds.
      await old.query(
        "insert into counters (id, name, branch, token_hash, enrolled_at) values ('ctr_old', 'Old counter', 'BR-OLD', 'h', 1)",
      );
      await old.close();

      const db = await openHubDb({ dataDir: dir });
      try {
        expect(await schemaIsCurrent(db)).toBe(true);
        const versions = await db.query<{ version: number }>('select version from schema_migrations order by version');
        expect(versions.map((r) => Number(r.version))).toEqual(MIGRATIONS.map((m) => m.version));
        expect(await db.query('select name, branch from counters where id = $1', ['ctr_old'])).toEqual([
          { name: 'Old counter', branch: 'BR-OLD' },
        ]);
        expect(await migrate(db)).toEqual([]);
      } finally {
        await db.close();
      }
    });
  }

  it('refuses a folder with a gap, a repeated number or a misnamed file', () => {
    const dir = temp();
    const at = (sub: string, files: Record<string, string>) => {
      const d = join(dir, sub);
      mkdirSync(d);
      for (const [f, t] of Object.entries(files)) writeFileSync(join(d, f), t);
      return d;
    };
    expect(() => readMigrations(at('gap', { '001-a.sql': '-- a\nselect 1', '003-c.sql': '-- c\nselect 1' }))).toThrow(
      /003-c.sql should be number 002/,
    );
    expect(() => readMigrations(at('name', { '001-A B.sql': '-- a\nselect 1' }))).toThrow(/not named NNN-what.sql/);
    expect(() => readMigrations(at('noname', { '001-a.sql': 'select 1' }))).toThrow(/-- name/);
    expect(
      readMigrations(at('ok', { '001-a.sql': '-- first\nselect 1', '002-b.sql': '-- second\nselect 2' })).map(
        (m) => m.name,
      ),
    ).toEqual(['first', 'second']);
  });
});
