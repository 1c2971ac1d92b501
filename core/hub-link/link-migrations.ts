// Tables of the counter's Hub link. `hub_outbox`: every journal event bound for the Hub, written in
// the same transaction as the event itself, numbered by `seq` (the per-counter sequence the Hub
// keeps). `hub_state`: small values that must survive a crash (the last sequence the Hub holds,
// the relay stream's Last-Event-ID).
import type { Migration } from '../db';

export const HUB_LINK_MIGRATIONS: readonly Migration[] = [
  {
    name: 'hub-001-outbox',
    sql: `
      CREATE TABLE hub_outbox (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        kind TEXT NOT NULL,
        at INTEGER NOT NULL,
        payload_json TEXT NOT NULL
      );
      CREATE TABLE hub_state (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      );
    `,
  },
];
