-- branch names set by head office
create table branch_names (
  branch text primary key,
  name text not null,
  updated_at bigint not null,
  updated_by text not null
);
