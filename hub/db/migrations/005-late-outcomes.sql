-- late outcomes (order.late / order.late.handled, docs/late-payments.md), one row per order
create table dash_late (
  counter_id text not null references counters (id),
  reference text not null,
  branch text not null,
  order_id bigint references dash_orders (id),
  kind text not null,
  closed_as text not null,
  provider_status text not null,
  amount_kobo bigint not null,
  pay_no text,
  source text not null,
  cashier text,
  practice boolean not null,
  at bigint not null,
  handled_how text,
  handled_by text,
  handled_note text,
  handled_at bigint,
  primary key (counter_id, reference)
);
create index dash_late_unhandled on dash_late (at) where handled_at is null;
create index dash_late_at on dash_late (at) include (branch, counter_id, kind, amount_kobo, practice);
create index dash_late_order on dash_late (order_id);
