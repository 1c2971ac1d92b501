// The journal's statements are prepared once per SQL text and reused (core/db/database.ts): the
// create path prepared the same statements again on every sale (a sixth of its own work, profiled
// for issue 37). Reuse must not change what a caller gets: the default mode back after another
// caller's `.raw()`, a schema change seen by a cached `SELECT *`, and text built per call kept bounded.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../core/db';

let dir: string | null = null;
let db: Db | null = null;
afterEach(() => {
  db?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  db = null;
  dir = null;
});

function open(): Db {
  dir = mkdtempSync(join(tmpdir(), 'cp-prepared-'));
  db = openDatabase(join(dir, 'j.db'), {
    migrations: [{ name: 't-001', sql: 'CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL)' }],
  });
  return db;
}

describe('prepared statements, reused', () => {
  it('the same SQL text is prepared once', () => {
    const d = open();
    expect(d.prepare('SELECT * FROM t WHERE id = ?')).toBe(d.prepare('SELECT * FROM t WHERE id = ?'));
    expect(d.prepare('SELECT * FROM t WHERE id = ?')).not.toBe(d.prepare('SELECT id FROM t WHERE id = ?'));
  });

  it("one caller's .raw() does not reach the next caller of the same SQL", () => {
    const d = open();
    d.prepare('INSERT INTO t (name) VALUES (?)').run('Ada');
    expect(d.prepare('SELECT id, name FROM t').raw().all()).toEqual([[1, 'Ada']]);
    expect(d.prepare('SELECT id, name FROM t').all()).toEqual([{ id: 1, name: 'Ada' }]);
    expect(d.prepare('SELECT name FROM t').pluck().get()).toBe('Ada');
    expect(d.prepare('SELECT name FROM t').get()).toEqual({ name: 'Ada' });
  });

  it('a cached SELECT * sees a column added after it was prepared', () => {
    const d = open();
    d.prepare('INSERT INTO t (name) VALUES (?)').run('Ada');
    expect(d.prepare('SELECT * FROM t').get()).toEqual({ id: 1, name: 'Ada' });
    d.exec("ALTER TABLE t ADD COLUMN seat TEXT NOT NULL DEFAULT 'F7'");
    expect(d.prepare('SELECT * FROM t').get()).toEqual({ id: 1, name: 'Ada', seat: 'F7' });
  });

  it('SQL built per call (an IN list of any length) does not grow the cache without end', () => {
    const d = open();
    const first = d.prepare('SELECT 1 FROM t WHERE id IN (?)');
    for (let n = 2; n <= 1100; n++) d.prepare(`SELECT 1 FROM t WHERE id IN (${Array(n).fill('?').join(',')})`);
    // The cache started again past its bound: the first text is prepared anew, and still works.
    const again = d.prepare('SELECT 1 FROM t WHERE id IN (?)');
    expect(again).not.toBe(first);
    expect(again.all(1)).toEqual([]);
  });
});
