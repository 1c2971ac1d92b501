// The Hub's docs say which files write each table (hub/README.md, "Who writes each table"), and
// this checks it against the SQL: every `insert into`, `update` and `delete from` in hub/store/ is
// found, and the docs' table must name exactly those files for each table — a new writer, a writer
// gone or a table renamed fails here until the table in the docs says so. (The docs once said "each
// store file owns its tables" while `counters` was written by journal.ts and `notifications` by four
// files.)
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tableWrites } from '../../helpers/table-writes';

const ROOT = resolve(__dirname, '../../..');
const STORE = join(ROOT, 'hub/store');
const DOC = join(ROOT, 'hub/README.md');

/** table → the files (names in hub/store/) that write it, from the SQL. */
function writersFromSql(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const f of readdirSync(STORE)
    .filter((n) => n.endsWith('.ts'))
    .sort()) {
    for (const t of tableWrites(readFileSync(join(STORE, f), 'utf8'))) out.set(t, [...(out.get(t) ?? []), f]);
  }
  return out;
}

/** table → files, from the docs' table: rows `| \`table\` | \`a.ts\`, \`b.ts\` |` under the heading. */
function writersFromDoc(): Map<string, string[]> {
  const text = readFileSync(DOC, 'utf8');
  const start = text.indexOf('## Who writes each table');
  expect(start, 'hub/README.md has the section "Who writes each table"').toBeGreaterThan(-1);
  const out = new Map<string, string[]>();
  for (const line of text.slice(start).split('\n').slice(1)) {
    if (line.startsWith('## ')) break;
    const m = /^\|\s*`([a-z_0-9]+)`\s*\|\s*(.+?)\s*\|/.exec(line);
    if (!m) continue;
    out.set(m[1]!, [...m[2]!.matchAll(/`([\w.-]+\.ts)`/g)].map((x) => x[1]!).sort());
  }
  return out;
}

describe("the docs say who writes each of the Hub's tables", () => {
  it('the SQL reader finds writes and leaves words alone', () => {
    expect(
      tableWrites(
        [
          '// update counters here (a comment)',
          "q.query('insert into seat_holds (a) values ($1) on conflict do update set a = 1');",
          'q.query(`update counters set x = 1 where id in (select id from quarantine for update skip locked)`);',
          "q.query('delete from quarantine where id = $1');",
          "todo: 'Set the clock to update automatically (Windows: Settings)',",
        ].join('\n'),
      ),
    ).toEqual(['counters', 'quarantine', 'seat_holds']);
  });

  it("hub/README.md's table names exactly the files whose SQL writes each table", () => {
    const sql = writersFromSql();
    const doc = writersFromDoc();
    const all = [...new Set([...sql.keys(), ...doc.keys()])].sort();
    const wrong = all
      .filter((t) => (sql.get(t) ?? []).join(', ') !== (doc.get(t) ?? []).join(', '))
      .map(
        (t) =>
          `${t}: the SQL is written by [${(sql.get(t) ?? []).join(', ')}], the docs say [${(doc.get(t) ?? []).join(', ')}]`,
      );
    expect(wrong, 'fix the table "Who writes each table" in hub/README.md').toEqual([]);
  });
});
