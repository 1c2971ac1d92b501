// The catalogue's tables, as named migrations run once each (in the database's one list,
// core/schema.ts). The whole catalogue is replaced at once (a file imported here, the Hub's, or the
// Demo profile's); each entry keeps its own sold-out mark, which the cashier changes.
import type { Migration } from '../db';

export const CATALOGUE_MIGRATIONS: Migration[] = [
  {
    name: 'catalogue-001-copy',
    sql: `
      CREATE TABLE catalogue_source (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        kind TEXT NOT NULL CHECK (kind IN ('file', 'hub', 'demo')),
        file_name TEXT,
        hub_version INTEGER,
        imported_at INTEGER NOT NULL
      );
      CREATE TABLE catalogue_entries (
        code TEXT PRIMARY KEY,
        position INTEGER NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('item', 'combo')),
        entry_json TEXT NOT NULL,
        sold_out INTEGER NOT NULL DEFAULT 0 CHECK (sold_out IN (0, 1)),
        sold_out_at INTEGER
      );
    `,
  },
];
