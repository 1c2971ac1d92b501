-- manager accounts and sessions; dashboard projections of the journal
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
