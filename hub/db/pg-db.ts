// HubDb on a real PostgreSQL server through a `pg` Pool. LISTEN needs a connection of its own that
// stays open; if it drops, it is re-opened and every listener is told (payload '*') so streams
// re-read what they may have missed.
import { createHash } from 'node:crypto';
import pg from 'pg';
import type { HubDb, SqlRunner } from './adapter';
import { redactUrl } from './adapter';

interface PgDbOptions {
  url: string;
  max?: number;
  onError?: (err: Error) => void;
}

export async function openPgDb(o: PgDbOptions): Promise<HubDb> {
  const pool = new pg.Pool({ connectionString: o.url, max: o.max ?? 10 });
  pool.on('error', (e) => o.onError?.(e));
  // Fail fast with a clear message when the server is not there.
  await pool.query('select 1');
  // queryPlannedOnce (adapter.ts): connections of its own, where every statement keeps one plan.
  // A server without the setting (before PostgreSQL 12) only plans as before.
  const plannedOnce = new pg.Pool({ connectionString: o.url, max: 2 });
  plannedOnce.on('error', (e) => o.onError?.(e));
  const genericSet = new WeakSet<pg.PoolClient>();

  const listeners = new Map<string, Set<(payload: string) => void>>();
  let listenClient: pg.Client | null = null;
  let closed = false;

  const connectListener = async (): Promise<void> => {
    const c = new pg.Client({ connectionString: o.url });
    c.on('notification', (m) => {
      for (const cb of listeners.get(m.channel) ?? []) cb(m.payload ?? '');
    });
    c.on('error', (e) => {
      o.onError?.(e);
      if (listenClient === c) listenClient = null;
      void c.end().catch(() => undefined);
      if (!closed) setTimeout(() => void reconnect(), 500).unref();
    });
    await c.connect();
    for (const ch of listeners.keys()) await c.query(`LISTEN ${pg.escapeIdentifier(ch)}`);
    listenClient = c;
  };
  const reconnect = async (): Promise<void> => {
    try {
      await connectListener();
      for (const set of listeners.values()) for (const cb of set) cb('*');
    } catch (e) {
      o.onError?.(e as Error);
      if (!closed) setTimeout(() => void reconnect(), 1000).unref();
    }
  };
  await connectListener();

  // Every SQL text of the Hub is a constant, so each becomes a named prepared statement: parsed and
  // planned once per connection instead of on every webhook.
  const names = new Map<string, string>();
  const named = (text: string, values: unknown[]) => {
    let name = names.get(text);
    if (!name) names.set(text, (name = `hub_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`));
    return { name, text, values };
  };
  const q: SqlRunner = {
    async query<T>(sql: string, params: unknown[] = []) {
      return (await pool.query(named(sql, params))).rows as T[];
    },
  };
  return {
    kind: 'postgres',
    label: `PostgreSQL at ${redactUrl(o.url)}`,
    query: q.query,
    async queryPlannedOnce<T>(sql: string, params: unknown[] = []) {
      const client = await plannedOnce.connect();
      try {
        if (!genericSet.has(client)) {
          await client.query('set plan_cache_mode = force_generic_plan').catch(() => undefined);
          genericSet.add(client);
        }
        const rows = (await client.query(named(sql, params))).rows as T[];
        client.release();
        return rows;
      } catch (e) {
        // As pg's own pool.query does: a connection that failed a statement is not reused.
        client.release(e as Error);
        throw e;
      }
    },
    async tx(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const r = await fn({
          query: async <T>(sql: string, params: unknown[] = []) => (await client.query(named(sql, params))).rows as T[],
        });
        await client.query('COMMIT');
        return r;
      } catch (e) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw e;
      } finally {
        client.release();
      }
    },
    async listen(channel, onPayload) {
      let set = listeners.get(channel);
      if (!set) {
        set = new Set();
        listeners.set(channel, set);
        await listenClient?.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      }
      set.add(onPayload);
      return async () => {
        set.delete(onPayload);
      };
    },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    async close() {
      closed = true;
      await listenClient?.end().catch(() => undefined);
      await Promise.all([pool.end(), plannedOnce.end()]);
    },
  };
}
