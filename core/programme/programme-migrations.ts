// The programme's tables, as named migrations run once each (in the database's one list,
// core/schema.ts). The whole copy is replaced at once (a CSV import or the Hub's programme); each sale
// made from it keeps its show, screen and ticket type (written with its order; paid or not is the order's).
import type { Migration } from '../db';

export const PROGRAMME_MIGRATIONS: Migration[] = [
  {
    name: 'programme-001-copy',
    sql: `
      CREATE TABLE programme_source (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        kind TEXT NOT NULL CHECK (kind IN ('csv', 'hub')),
        source_json TEXT NOT NULL,
        hub_version INTEGER,
        replaced_at INTEGER NOT NULL
      );
      CREATE TABLE programme_films (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        name TEXT NOT NULL UNIQUE COLLATE NOCASE,
        title TEXT NOT NULL,
        rating TEXT NOT NULL
      );
      CREATE TABLE programme_screens (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        name TEXT NOT NULL UNIQUE COLLATE NOCASE
      );
      CREATE TABLE programme_shows (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        show_key TEXT NOT NULL UNIQUE,
        film_id INTEGER NOT NULL REFERENCES programme_films(id),
        screen_id INTEGER NOT NULL REFERENCES programme_screens(id),
        show_date TEXT NOT NULL,
        show_time TEXT NOT NULL,
        starts_at INTEGER NOT NULL
      );
      CREATE INDEX programme_shows_start ON programme_shows (starts_at);
      CREATE TABLE programme_ticket_types (
        show_id INTEGER NOT NULL REFERENCES programme_shows(id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        name TEXT NOT NULL,
        price_kobo INTEGER NOT NULL CHECK (price_kobo > 0),
        booking_fee_kobo INTEGER NOT NULL CHECK (booking_fee_kobo >= 0),
        PRIMARY KEY (show_id, position)
      );
      CREATE TABLE programme_sales (
        order_id INTEGER PRIMARY KEY,
        show_key TEXT NOT NULL,
        film_name TEXT NOT NULL COLLATE NOCASE,
        ticket_type TEXT NOT NULL COLLATE NOCASE,
        tickets INTEGER NOT NULL,
        paid INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX programme_sales_film ON programme_sales (film_name, paid);
    `,
  },
  {
    // The screen as the programme named it, so the receipt can say where to go (the show key has it lower-cased).
    name: 'programme-002-sale-screen',
    sql: 'ALTER TABLE programme_sales ADD COLUMN screen TEXT;',
  },
  {
    // Each screen's layout (docs/seat-maps.md), checked before it is kept: from a file imported on
    // this counter, or from the Hub's programme. One per screen, replaced whole.
    name: 'programme-003-layouts',
    sql: `
      CREATE TABLE programme_layouts (
        screen TEXT PRIMARY KEY COLLATE NOCASE,
        layout_json TEXT NOT NULL,
        source TEXT NOT NULL CHECK (source IN ('file', 'hub')),
        file_name TEXT,
        imported_by TEXT,
        replaced_at INTEGER NOT NULL
      );
    `,
  },
  {
    // Paid or not is the order's own state (the journal's): the copy kept here, written after the
    // order's events and read by nothing, goes.
    name: 'programme-004-sale-paid-gone',
    sql: `
      DROP INDEX programme_sales_film;
      ALTER TABLE programme_sales DROP COLUMN paid;
    `,
  },
];
