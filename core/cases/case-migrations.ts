// The complaint desk's table (docs/refunds.md, "The complaint desk"): one row per case, written
// before anything else is said about it (journal first); its sync events go to the Hub's outbox in
// the same transaction (case-store.ts). Named migrations at the end of the one list (core/schema.ts).
import type { Migration } from '../db';
import { checkIn } from '../lib';

/** The truths and resolutions when the table was made (shared/cases.ts then): its text never changes. */
const FIRST_TRUTHS = ['paid-tickets-given', 'paid-after-closing', 'not-paid', 'unknown'] as const;
const FIRST_RESOLUTIONS = ['tickets-given', 'refund-owed', 'not-debited'] as const;

const CASES: Migration = {
  name: 'cases-001-cases',
  sql: `
    CREATE TABLE cases (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      seq INTEGER NOT NULL UNIQUE,
      case_no TEXT NOT NULL UNIQUE,
      opened_at INTEGER NOT NULL,
      opened_by TEXT NOT NULL,
      search_json TEXT NOT NULL,
      customer TEXT NOT NULL,
      order_id INTEGER,
      out_order_no TEXT,
      truth TEXT ${checkIn('truth', FIRST_TRUTHS)},
      provider_status TEXT,
      asked_at INTEGER,
      resolution TEXT ${checkIn('resolution', FIRST_RESOLUTIONS)},
      resolved_by TEXT,
      resolved_at INTEGER,
      note TEXT NOT NULL DEFAULT '',
      profile TEXT NOT NULL
    );
    CREATE INDEX cases_open ON cases(resolved_at, opened_at);
    CREATE INDEX cases_out_order_no ON cases(out_order_no);
  `,
};

export const CASE_MIGRATIONS: Migration[] = [CASES];
