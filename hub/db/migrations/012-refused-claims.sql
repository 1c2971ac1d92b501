-- claims refused for another counter's code, and a held notification pinned to the counter its reference names
-- A key a counter tried to claim that is a reference made with another live counter's code
-- (journal.ts, order-claims.ts): never entered in order_owners, kept for Needs attention.
create table refused_claims (
  order_key text not null,
  counter_id text not null references counters (id),
  owner_id text not null references counters (id),
  at bigint not null,
  primary key (order_key, counter_id)
);
create index refused_claims_at on refused_claims (at);
-- A held notification whose reference names a live counter's code goes to that counter alone when
-- released (ingest.ts sets it, quarantine.ts reads it).
alter table quarantine add column pin text
