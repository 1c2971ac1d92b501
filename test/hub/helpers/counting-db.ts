// A HubDb that records every SQL text it runs (transactions' statements too) and can go deaf to a
// NOTIFY channel (a lost LISTEN connection, played): for tests that count the queries a feature
// costs rather than time it.
import type { HubDb, SqlRunner } from '../../../hub/db/adapter';

export interface CountingDb extends HubDb {
  /** Every statement run so far, in order. */
  readonly queries: string[];
  /** Statements run since `mark` (an index into `queries`) that match `re`. */
  since(mark: number, re: RegExp): number;
  /** Channels whose NOTIFYs this database's listeners no longer hear. */
  readonly deaf: Set<string>;
  /** Tells this database's listeners of `channel` a payload, as a NOTIFY or a re-opened LISTEN ('*') would. */
  emit(channel: string, payload: string): void;
  /** Holds the next statement matching `re` until released: `hit` resolves once one is held. */
  hold(re: RegExp): { hit: Promise<void>; release(): void };
}

export function countingDb(db: HubDb): CountingDb {
  const queries: string[] = [];
  const listeners = new Map<string, Set<(p: string) => void>>();
  const deaf = new Set<string>();
  let gate: { re: RegExp; held: () => void; open: Promise<void> } | null = null;
  const counted = (q: SqlRunner): SqlRunner => ({
    query: async <T>(sql: string, params?: unknown[]) => {
      queries.push(sql);
      if (gate && gate.re.test(sql)) {
        const g = gate;
        gate = null;
        g.held();
        await g.open;
      }
      return q.query<T>(sql, params);
    },
  });
  return {
    kind: db.kind,
    label: db.label,
    queries,
    deaf,
    query: counted(db).query,
    queryPlannedOnce: counted({ query: (sql, params) => db.queryPlannedOnce(sql, params) }).query,
    tx: (fn) => db.tx((q) => fn(counted(q))),
    async listen(channel, onPayload) {
      const set = listeners.get(channel) ?? new Set();
      listeners.set(channel, set);
      set.add(onPayload);
      const off = await db.listen(channel, (p) => {
        if (!deaf.has(channel)) onPayload(p);
      });
      return async () => {
        set.delete(onPayload);
        await off();
      };
    },
    poolStats: () => db.poolStats(),
    close: () => db.close(),
    since: (mark, re) => queries.slice(mark).filter((q) => re.test(q)).length,
    hold(re) {
      let held = () => undefined as void;
      let release = () => undefined as void;
      const hit = new Promise<void>((r) => (held = r));
      gate = { re, held: () => held(), open: new Promise<void>((r) => (release = r)) };
      return { hit, release: () => release() };
    },
    emit(channel, payload) {
      for (const cb of listeners.get(channel) ?? []) cb(payload);
    },
  };
}
