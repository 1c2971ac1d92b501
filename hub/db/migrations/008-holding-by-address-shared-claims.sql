-- held notifications counted per source address and size; an order key may have several claimants
-- The holding area is bounded per address that sent what it holds (bills callbacks are unverified):
-- each held row says where it came from and how big its body is.
alter table quarantine add column source text not null default '';
alter table quarantine add column bytes integer not null default 0;
create index quarantine_kind_source on quarantine (kind, source);
-- A provider order number (or a batch file's own reference) may be claimed by more than one counter:
-- every claimant gets its notifications, none takes them from another (journal.ts).
alter table order_owners drop constraint order_owners_pkey;
alter table order_owners add primary key (order_key, counter_id);
-- A late claimant is given what was already sent to another claimant of the same order number.
create index notifications_order_no on notifications (order_no);
-- Order keys claimed by more than one counter, each claimant once: Needs attention lists them.
create table shared_claims (
  order_key text not null,
  counter_id text not null references counters (id),
  at bigint not null,
  primary key (order_key, counter_id)
);
create index shared_claims_at on shared_claims (at)
