-- notifications of orders not yet known, held for their counter (never broadcast); repeats recognised by signed content
-- notifications.body_hash now holds the SHA-256 of what the provider signed (POS: paramContent and
-- timestamp, bills: the sha512's signed string and the sha512), not of the raw body bytes.
create table quarantine (
  notification_id bigint primary key references notifications (id) on delete cascade,
  kind text not null,
  order_keys text[] not null,
  held_at bigint not null,
  expires_at bigint not null
);
create index quarantine_kind on quarantine (kind);
create index quarantine_expires on quarantine (expires_at)
