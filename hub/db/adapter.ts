// The one SQL code path of the Hub: a thin interface over PostgreSQL with $1 parameters,
// transactions and LISTEN/NOTIFY. PGlite (embedded, one process per data folder) and `pg` (a real
// server, several Hub instances) both implement it, so every query is written once.
export interface SqlRunner {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}

interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

export interface HubDb extends SqlRunner {
  readonly kind: 'pglite' | 'postgres';
  /** For logs and the benchmark: where the data lives, never with a password. */
  readonly label: string;
  /**
   * For a statement run on every webhook whose best plan does not depend on its parameters: planned
   * once per connection and reused. PostgreSQL would plan a statement with array parameters again on
   * every call (its plan for the arrays' actual lengths always looks cheaper than the general one,
   * and the planning costs more than the execution: 0.5 of the webhook ingest's 1 ms), so on a real
   * server it runs on connections of their own with plan_cache_mode = force_generic_plan. PGlite: query.
   */
  queryPlannedOnce<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Runs fn in one transaction: committed when it resolves, rolled back when it throws. */
  tx<T>(fn: (q: SqlRunner) => Promise<T>): Promise<T>;
  /** Subscribes to a NOTIFY channel; the returned function unsubscribes. */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  poolStats(): PoolStats;
  close(): Promise<void>;
}

/** int8 / numeric columns arrive as strings from `pg` and as numbers or bigints from PGlite. */
export function num(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint' || typeof v === 'string') return Number(v);
  throw new Error(`expected a number from the database, got ${typeof v}`);
}

export function numOrNull(v: unknown): number | null {
  return v === null || v === undefined ? null : num(v);
}

/** Hides the password of a postgres:// URL. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'postgres://(unparsable URL)';
  }
}
