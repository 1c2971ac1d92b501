// The tables a source file's SQL writes (test/unit/lint/table-writers.test.ts checks the Hub's docs against it).
/** Comments out; the SQL in strings stays. */
const code = (src: string) => src.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/(^|[^:'"`])\/\/[^\n]*/g, '$1');
/** SQL that writes a table: `insert into T`, `delete from T`, `update T [alias] set` (not `do update set`, `for update skip locked`, nor "update automatically" in a message). */
const WRITES =
  /\b(?:insert\s+into\s+([a-z_][a-z0-9_]*)|delete\s+from\s+([a-z_][a-z0-9_]*)|update\s+([a-z_][a-z0-9_]*)\s+(?:[a-z_][a-z0-9_]*\s+)?set\b)/gi;
const NOT_TABLES = new Set(['set']);

export function tableWrites(src: string): string[] {
  const found = new Set<string>();
  for (const m of code(src).matchAll(WRITES)) {
    const t = (m[1] ?? m[2] ?? m[3]!).toLowerCase();
    if (!NOT_TABLES.has(t)) found.add(t);
  }
  return [...found].sort();
}
