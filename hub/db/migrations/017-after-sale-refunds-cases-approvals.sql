-- after the sale: refunds owed, complaint cases, managers' approval codes, cancelled seats
-- A cancel or exchange synced from a counter's journal (order.cancelled) takes seats out of its sale:
-- they are named in dash_orders.cancelled_seats (no longer taken by the sale) and their seat_holds
-- rows turn 'cancelled' (free for another sale, kept as history until the show is pruned).
alter table dash_orders add column cancelled_seats text[] not null default '{}';
alter table seat_holds drop constraint seat_holds_state_check;
alter table seat_holds add constraint seat_holds_state_check
  check (state in ('held', 'sold', 'released', 'lapsed', 'double', 'cancelled'));
-- One refund owed per (counter, refund number), projected from order.cancelled. Cash goes back from
-- the drawer at once (returned when made), card stays owed until refund.returned says how.
create table dash_refunds (
  counter_id text not null references counters (id),
  refund_no text not null,
  branch text not null,
  reference text not null,
  order_id bigint,
  kind text not null,
  tender text not null check (tender in ('cash', 'card')),
  amount_kobo bigint not null,
  seats text[] not null,
  reason text not null,
  note text,
  approved_by text not null,
  approved_how text not null,
  exchange_to text,
  practice boolean not null,
  at bigint not null,
  returned_at bigint,
  returned_how text,
  returned_reference text,
  returned_by text,
  primary key (counter_id, refund_no)
);
create index dash_refunds_owed on dash_refunds (branch, at) where returned_at is null;
create index dash_refunds_returned on dash_refunds (branch, returned_at);
-- Complaint cases ("I was debited") opened and resolved at a counter's desk, from its journal
-- (practice: opened while the counter was in Demo or Sandbox, kept out of the views).
create table dash_cases (
  counter_id text not null references counters (id),
  case_no text not null,
  branch text not null,
  opened_by text not null,
  opened_at bigint not null,
  reference text,
  amount_kobo bigint,
  last4 text,
  truth text,
  resolution text,
  resolved_by text,
  resolved_at bigint,
  note text,
  practice boolean not null,
  primary key (counter_id, case_no)
);
create index dash_cases_open on dash_cases (branch, opened_at) where resolved_at is null;
-- A manager's one-time approval code for one branch: only its hash is kept, it lapses at
-- expires_at, and a counter of that branch redeems it once (used_at, by whom, for what).
create table approval_codes (
  id bigserial primary key,
  code_hash text not null unique,
  branch text not null,
  issued_by_id text not null,
  issued_by text not null,
  issued_at bigint not null,
  expires_at bigint not null,
  used_at bigint,
  used_by text,
  used_what text
);
create index approval_codes_branch on approval_codes (branch, issued_at desc);
-- Each counter's wrong approval codes: the wait before its next try grows with them.
create table approval_failures (
  counter_id text primary key references counters (id),
  failures integer not null,
  locked_until bigint not null
);
