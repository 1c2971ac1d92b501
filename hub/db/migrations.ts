// Versioned schema of the Hub. Each migration runs once, in its own transaction, and is recorded
// in schema_migrations; several instances starting together serialise on an advisory lock.
// Append new migrations; never edit one that has shipped.
import type { HubDb } from './adapter';
import { num } from './adapter';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: 'counters, enrollment, notifications, deliveries, journal',
    sql: `
      create table enroll_codes (
        code_hash text primary key,
        created_at bigint not null,
        expires_at bigint not null,
        used_at bigint,
        used_by text
      );
      create table counters (
        id text primary key,
        name text not null,
        branch text not null,
        token_hash text not null unique,
        enrolled_at bigint not null,
        revoked_at bigint,
        last_seen_at bigint,
        app_version text,
        profile text,
        clock_offset_ms bigint,
        queue_length integer,
        open_payments integer,
        last_seq bigint not null default 0
      );
      create index counters_branch on counters (branch);
      create table notifications (
        id bigserial primary key,
        kind text not null check (kind in ('pos', 'bills')),
        received_at bigint not null,
        order_no text,
        branch text,
        headers jsonb not null,
        body text not null,
        body_hash text not null,
        unique (kind, body_hash)
      );
      create index notifications_received on notifications (received_at);
      create table deliveries (
        id bigserial primary key,
        notification_id bigint not null references notifications (id) on delete cascade,
        counter_id text not null references counters (id),
        created_at bigint not null,
        relayed_at bigint,
        acked_at bigint,
        replay boolean not null default false
      );
      create index deliveries_pending on deliveries (counter_id, id) where acked_at is null;
      create index deliveries_notification on deliveries (notification_id);
      create table delivery_log (
        id bigserial primary key,
        notification_id bigint not null references notifications (id) on delete cascade,
        at bigint not null,
        step text not null,
        counter_id text,
        detail text not null default ''
      );
      create index delivery_log_notification on delivery_log (notification_id, id);
      create table order_owners (
        order_key text primary key,
        counter_id text not null references counters (id),
        registered_at bigint not null
      );
      create table journal (
        counter_id text not null references counters (id),
        seq bigint not null,
        kind text not null,
        at bigint not null,
        payload jsonb not null,
        received_at bigint not null,
        primary key (counter_id, seq)
      );
    `,
  },
];

const LOCK_KEY = 726_412_001; // any constant: the Hub's migration lock

export async function migrate(db: HubDb): Promise<number[]> {
  await db.query(`create table if not exists schema_migrations (version integer primary key, name text not null, applied_at bigint not null)`);
  const applied: number[] = [];
  for (const m of MIGRATIONS) {
    await db.tx(async (q) => {
      await q.query('select pg_advisory_xact_lock($1)', [LOCK_KEY]);
      const done = await q.query('select 1 from schema_migrations where version = $1', [m.version]);
      if (done.length) return;
      for (const stmt of m.sql.split(';').map((s) => s.trim()).filter(Boolean)) await q.query(stmt);
      await q.query('insert into schema_migrations (version, name, applied_at) values ($1, $2, $3)', [m.version, m.name, Date.now()]);
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
