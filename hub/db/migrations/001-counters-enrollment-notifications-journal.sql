-- counters, enrollment, notifications, deliveries, journal
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
