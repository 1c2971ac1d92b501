-- programmes per branch; the seat check's index on the order projections
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
