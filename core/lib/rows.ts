// Rows as SQLite gives them (snake_case columns) turned into the camelCase records the code uses,
// in one place instead of a hand-written line per column in every store. The caller says which
// columns are not part of its record, and owns the cast to its type (its SELECT decides the columns).

export type Row = Record<string, unknown>;

const camel = (col: string): string => col.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** `{ order_no: 'x', created_at: 1 }` -> `{ orderNo: 'x', createdAt: 1 }`, without the `omit` columns. */
export function camelRow(r: Row, omit: readonly string[] = []): Row {
  const out: Row = {};
  for (const [col, v] of Object.entries(r)) if (!omit.includes(col)) out[camel(col)] = v;
  return out;
}
