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
  {
    version: 2,
    name: 'manager accounts and sessions; dashboard projections of the journal',
    sql: `
      create table managers (
        id text primary key,
        name text not null,
        name_key text not null unique,
        role text not null check (role in ('branch', 'head-office')),
        branch text,
        password_hash text not null,
        created_at bigint not null,
        failures integer not null default 0,
        locked_until bigint not null default 0,
        checking_until bigint not null default 0,
        check ((role = 'head-office' and branch is null) or (role = 'branch' and branch is not null))
      );
      create table manager_sessions (
        id_hash text primary key,
        manager_id text not null references managers (id) on delete cascade,
        created_at bigint not null,
        last_seen_at bigint not null,
        expires_at bigint not null
      );
      create index manager_sessions_manager on manager_sessions (manager_id);
      create table setup_tokens (
        token_hash text primary key,
        created_at bigint not null,
        expires_at bigint not null,
        used_at bigint
      );
      alter table enroll_codes add column branch text;
      alter table counters add column last_sync_at bigint;
      create sequence dash_change_seq;
      create table dash_orders (
        id bigserial primary key,
        counter_id text not null references counters (id),
        reference text not null,
        branch text not null,
        profile text,
        practice boolean not null,
        order_no text,
        pay_no text,
        state text not null,
        amount_kobo bigint not null,
        film_name text,
        film_title text,
        show_date text,
        show_time text,
        seats text,
        tickets integer,
        cashier text,
        created_at bigint not null,
        updated_at bigint not null,
        change_id bigint not null,
        unique (counter_id, reference)
      );
      create index dash_orders_created on dash_orders (created_at, id) include (branch, counter_id, cashier, state, amount_kobo, practice);
      create index dash_orders_branch_created on dash_orders (branch, created_at, id) include (counter_id, cashier, state, amount_kobo, practice);
      create index dash_orders_counter_created on dash_orders (counter_id, created_at, id);
      create index dash_orders_order_no_rev on dash_orders (reverse(order_no) text_pattern_ops);
      create index dash_orders_pay_no on dash_orders (pay_no);
      create index dash_orders_reference on dash_orders (reference);
      create index dash_orders_amount on dash_orders (amount_kobo, created_at);
      create index dash_orders_cashier on dash_orders (cashier, created_at);
      create index dash_orders_state on dash_orders (state, created_at);
      create index dash_orders_branch_amount on dash_orders (branch, amount_kobo, created_at);
      create index dash_orders_branch_cashier on dash_orders (branch, cashier, created_at);
      create index dash_orders_branch_state on dash_orders (branch, state, created_at);
      create index dash_orders_open on dash_orders (created_at) where state in ('queued', 'creating', 'waiting', 'unknown');
      create index dash_orders_change on dash_orders (change_id);
      create table dash_order_events (
        counter_id text not null,
        seq bigint not null,
        order_id bigint not null references dash_orders (id),
        kind text not null,
        at bigint not null,
        status text,
        order_no text,
        pay_no text,
        note text,
        received_at bigint not null,
        primary key (counter_id, seq)
      );
      create index dash_order_events_order on dash_order_events (order_id, seq);
      create table dash_topups (
        counter_id text not null references counters (id),
        reference text not null,
        branch text not null,
        kind text not null,
        amount_kobo bigint not null,
        provider text not null,
        customer_id text not null,
        state text not null,
        order_no text,
        profile text,
        practice boolean not null,
        created_at bigint not null,
        updated_at bigint not null,
        primary key (counter_id, reference)
      );
      create index dash_topups_created on dash_topups (created_at) include (branch, counter_id, state, amount_kobo, practice);
      create index dash_topups_branch_created on dash_topups (branch, created_at);
      create table dash_shifts (
        counter_id text not null references counters (id),
        shift_id text not null,
        branch text not null,
        cashier text not null,
        profile text,
        practice boolean not null,
        opened_at bigint not null,
        closed_at bigint,
        float_kobo bigint,
        takings_kobo bigint,
        primary key (counter_id, shift_id)
      );
      create index dash_shifts_opened on dash_shifts (opened_at);
      create index dash_shifts_open on dash_shifts (opened_at) where closed_at is null;
      create table dash_zreports (
        counter_id text not null references counters (id),
        seq bigint not null,
        branch text not null,
        shift_id text,
        report_no integer not null,
        from_at bigint not null,
        to_at bigint not null,
        total_kobo bigint not null,
        count integer not null,
        lines jsonb not null,
        at bigint not null,
        primary key (counter_id, seq)
      );
      create index dash_zreports_shift on dash_zreports (counter_id, shift_id);
      create index dash_zreports_at on dash_zreports (at)
    `,
  },
  {
    version: 3,
    name: 'programmes per branch; the seat check\'s index on the order projections',
    sql: `
      create table programme_versions (
        branch text primary key,
        version bigint not null,
        updated_at bigint not null,
        updated_by text not null
      );
      create table programme_films (
        branch text not null,
        position integer not null,
        name text not null,
        title text not null,
        rating text not null,
        primary key (branch, position)
      );
      create table programme_screens (
        branch text not null,
        position integer not null,
        name text not null,
        primary key (branch, position)
      );
      create table programme_shows (
        branch text not null,
        position integer not null,
        film text not null,
        screen text not null,
        show_date text not null,
        show_time text not null,
        primary key (branch, position)
      );
      create index programme_shows_day on programme_shows (branch, show_date);
      create table programme_ticket_types (
        branch text not null,
        show_position integer not null,
        position integer not null,
        name text not null,
        price_kobo bigint not null,
        booking_fee_kobo bigint not null,
        primary key (branch, show_position, position)
      );
      create index dash_orders_show on dash_orders (branch, show_date, show_time)
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
