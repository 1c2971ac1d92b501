// SQL text built from the shared constants, so a table's CHECK list and a query's state list never
// drift from the values the code and the contract use.

/** `'a','b','c'` for `IN (...)`; the values are our own constants (never cashier input). */
export function sqlList(values: readonly string[]): string {
  return values.map((v) => `'${v.replace(/'/g, "''")}'`).join(',');
}

/** `CHECK (column IN ('a','b'))`. */
export function checkIn(column: string, values: readonly string[]): string {
  return `CHECK (${column} IN (${sqlList(values)}))`;
}
