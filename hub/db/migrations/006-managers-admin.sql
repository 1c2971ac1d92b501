-- managers head office can disable or remove (kept for the audit trail), and the audit log of manager actions
alter table managers add column disabled_at bigint;
alter table managers add column removed_at bigint;
create table manager_audit (
  id bigserial primary key,
  at bigint not null,
  actor_id text,
  actor_name text not null,
  action text not null,
  target text,
  address text,
  detail text
);
create index manager_audit_at on manager_audit (at desc, id desc);
