// Tables of the box-office integrations. `integrations`: each paired system (its key is in the
// vault; only its hash and fingerprint are here). `integration_charges`: a booking reference →
// the order it became, written in the same transaction as the order. `integration_deliveries`:
// the durable callback queue, one row per state change of a charge, delivered in sequence;
// `integration_delivery_attempts`: every attempt, for the delivery log. `outbox` (002): the charge
// has an outcome file in its system's folder-drop outbox (every folder-drop charge, and a charge
// asked for over HTTP or by link whose reference a request file named later).
import type { Migration } from '../db';

export const INTEGRATION_MIGRATIONS: readonly Migration[] = [
  {
    name: 'integrations-001-tables',
    sql: `
      CREATE TABLE integrations (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        key_hash TEXT NOT NULL,
        key_fingerprint TEXT NOT NULL,
        callback_url TEXT,
        created_at INTEGER NOT NULL,
        last_used_at INTEGER,
        revoked_at INTEGER
      );
      CREATE TABLE integration_charges (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        integration_id TEXT NOT NULL REFERENCES integrations(id),
        reference TEXT NOT NULL,
        order_id INTEGER NOT NULL UNIQUE,
        request_hash TEXT NOT NULL,
        source TEXT NOT NULL,
        callback_url TEXT,
        created_at INTEGER NOT NULL,
        events_queued INTEGER NOT NULL DEFAULT 0,
        settled INTEGER NOT NULL DEFAULT 0,
        outcome_final INTEGER NOT NULL DEFAULT 0,
        UNIQUE (integration_id, reference)
      );
      CREATE TABLE integration_deliveries (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        charge_id INTEGER NOT NULL REFERENCES integration_charges(id),
        seq INTEGER NOT NULL,
        from_state TEXT,
        to_state TEXT NOT NULL,
        at INTEGER NOT NULL,
        note TEXT NOT NULL,
        url TEXT NOT NULL,
        state TEXT NOT NULL DEFAULT 'pending',
        attempts INTEGER NOT NULL DEFAULT 0,
        next_at INTEGER NOT NULL,
        last_error TEXT,
        delivered_at INTEGER,
        UNIQUE (charge_id, seq)
      );
      CREATE INDEX integration_deliveries_pending ON integration_deliveries (state, next_at);
      CREATE TABLE integration_delivery_attempts (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        delivery_id INTEGER NOT NULL REFERENCES integration_deliveries(id),
        at INTEGER NOT NULL,
        status INTEGER,
        error TEXT
      );
    `,
  },
  {
    name: 'integrations-002-outbox',
    sql: `
      ALTER TABLE integration_charges ADD COLUMN outbox INTEGER NOT NULL DEFAULT 0;
      UPDATE integration_charges SET outbox = 1 WHERE source = 'folder';
    `,
  },
];
