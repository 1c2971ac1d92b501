-- seat holds per show across counters, each branch's screen layouts
-- A seat of a show (per branch, real or practice) held for an order while its payment is under way,
-- then sold or released. The race between counters is settled here: at most one live row (held or
-- sold) per seat of a show. A hold lapses at until_at (the Hub's clock), a lapsed or released row
-- stays as history. 'double' is a paid sale synced for a seat another sale already had (sold
-- offline): kept beside the live row, outside the constraint, for Needs attention.
create table seat_holds (
  id bigserial primary key,
  branch text not null,
  practice boolean not null,
  show_key text not null,
  seat text not null,
  order_key text not null,
  counter_id text not null references counters (id),
  film_name text,
  state text not null check (state in ('held', 'sold', 'released', 'lapsed', 'double')),
  until_at bigint not null,
  created_at bigint not null,
  settled_at bigint
);
create unique index seat_holds_live on seat_holds (branch, practice, show_key, seat) where state in ('held', 'sold');
create index seat_holds_order on seat_holds (order_key, counter_id);
create index seat_holds_show on seat_holds (branch, show_key, state);
create index seat_holds_lapse on seat_holds (until_at) where state = 'held';
-- A screen's layout (ScreenLayout as JSON), per branch, pushed to counters with the programme.
create table screen_layouts (
  branch text not null,
  screen_key text not null,
  screen text not null,
  layout text not null,
  capacity integer not null,
  file_name text not null,
  updated_at bigint not null,
  updated_by text not null,
  primary key (branch, screen_key)
)
