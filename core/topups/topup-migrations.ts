// The top-up journal's tables, as named migrations run once each (in the database's one list,
// core/schema.ts). The CHECK lists come from the shared constants.
import { BATCH_CHECK_STATES, BATCH_STATES, SERVICE_TYPES, TOPUP_STATES } from '../../shared/topups';
import type { Migration } from '../db';
import { checkIn } from '../lib';

export const TOPUP_MIGRATIONS: Migration[] = [
  {
    name: 'topups-001-journal',
    sql: `
      CREATE TABLE topup_batches (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        profile TEXT NOT NULL,
        bills_merchant_id TEXT NOT NULL,
        file_name TEXT NOT NULL,
        state TEXT NOT NULL ${checkIn('state', BATCH_STATES)},
        chunk_size INTEGER NOT NULL,
        total_rows INTEGER NOT NULL,
        bad_rows INTEGER NOT NULL,
        notice TEXT,
        check_state TEXT NOT NULL DEFAULT 'none' ${checkIn('check_state', BATCH_CHECK_STATES)},
        check_checked INTEGER NOT NULL DEFAULT 0,
        check_total INTEGER NOT NULL DEFAULT 0,
        check_not_found INTEGER NOT NULL DEFAULT 0,
        check_unchecked INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        finished_at INTEGER
      );
      CREATE TABLE topups (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        reference TEXT NOT NULL,
        profile TEXT NOT NULL,
        bills_merchant_id TEXT NOT NULL,
        batch_id INTEGER REFERENCES topup_batches(id),
        line INTEGER,
        service_type TEXT NOT NULL ${checkIn('service_type', SERVICE_TYPES)},
        provider TEXT NOT NULL,
        customer_id TEXT NOT NULL,
        customer_name TEXT,
        amount_kobo INTEGER NOT NULL CHECK (amount_kobo > 0),
        state TEXT NOT NULL ${checkIn('state', TOPUP_STATES)},
        provider_status TEXT,
        order_no TEXT,
        error_msg TEXT NOT NULL DEFAULT '',
        attempts INTEGER NOT NULL DEFAULT 0,
        sent_at INTEGER,
        business_day TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        finished_at INTEGER,
        UNIQUE (bills_merchant_id, reference)
      );
      CREATE INDEX topups_batch_state ON topups(batch_id, state);
      CREATE INDEX topups_state ON topups(state);
      CREATE INDEX topups_day ON topups(business_day);
      CREATE TABLE topup_events (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        topup_id INTEGER NOT NULL REFERENCES topups(id) ON DELETE CASCADE,
        at INTEGER NOT NULL,
        from_state TEXT,
        to_state TEXT NOT NULL,
        note TEXT NOT NULL
      );
      CREATE INDEX topup_events_item ON topup_events(topup_id, id);
      CREATE TABLE topup_row_errors (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        batch_id INTEGER NOT NULL REFERENCES topup_batches(id),
        line INTEGER NOT NULL,
        col TEXT NOT NULL,
        message TEXT NOT NULL
      );
      CREATE INDEX topup_row_errors_batch ON topup_row_errors(batch_id, line, id);
      CREATE TABLE topup_counters (
        counter_code TEXT NOT NULL,
        business_day TEXT NOT NULL,
        last_seq INTEGER NOT NULL,
        PRIMARY KEY (counter_code, business_day)
      );
    `,
  },
];
