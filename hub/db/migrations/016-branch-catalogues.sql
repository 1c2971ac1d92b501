-- each branch's concessions catalogue as a manager uploaded it, pulled by the branch's counters
-- One row per branch, replaced whole by an upload (hub/store/catalogue.ts). catalogue is the parsed
-- Catalogue of shared/catalogue.ts (prices in kobo). An item's stock is counted from updated_at on:
-- stock left = its stock in the catalogue minus what the branch's paid synced sales took since.
create table branch_catalogues (
  branch text primary key,
  version integer not null,
  catalogue jsonb not null,
  updated_at bigint not null,
  updated_by text not null
);
