// The tables of receipts and shifts (print jobs, shifts, kept Z reports), as named migrations in
// the database's one list (core/schema.ts). Three migrations here are older than the rule that each
// table has one owner: they built the order search's indexes and word table, which the order
// journal now owns. They keep their names (existing files know them as applied) and their place.
import { PRINT_JOB_KINDS, PRINT_JOB_STATUSES } from '../../shared/records';

/** The print jobs' kinds when the table was made: its first migration keeps them (its text never changes). */
const FIRST_PRINT_JOB_KINDS = ['receipt', 'shift-report', 'test-page'] as const;
import type { Migration } from '../db';
import { checkIn } from '../lib';

const OWN_TABLES: Migration = {
  name: 'records-001-print-jobs-shifts',
  sql: `
    CREATE TABLE print_jobs (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      kind TEXT NOT NULL ${checkIn('kind', FIRST_PRINT_JOB_KINDS)},
      order_id INTEGER,
      report_id INTEGER,
      title TEXT NOT NULL,
      payload_json TEXT NOT NULL,
      target_json TEXT NOT NULL,
      target_text TEXT NOT NULL,
      status TEXT NOT NULL ${checkIn('status', PRINT_JOB_STATUSES)},
      error TEXT,
      error_code TEXT,
      attempts INTEGER NOT NULL DEFAULT 0,
      reprint INTEGER NOT NULL DEFAULT 0,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      printed_at INTEGER
    );
    CREATE INDEX records_print_jobs_order ON print_jobs(order_id, id);
    CREATE INDEX records_print_jobs_report ON print_jobs(report_id, id);
    CREATE INDEX records_print_jobs_status ON print_jobs(status, id);
    CREATE TABLE shifts (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      cashier TEXT NOT NULL,
      opened_at INTEGER NOT NULL,
      opening_float_kobo INTEGER,
      closed_at INTEGER
    );
    CREATE UNIQUE INDEX records_one_open_shift ON shifts(ifnull(closed_at, 0)) WHERE closed_at IS NULL;
    CREATE INDEX records_shifts_opened ON shifts(opened_at);
    CREATE TABLE shift_reports (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      shift_id INTEGER NOT NULL UNIQUE REFERENCES shifts(id),
      created_at INTEGER NOT NULL,
      report_json TEXT NOT NULL
    );
  `,
};

/** Newest-first pages of one state, and the events of a shift's window by time. */
const ORDER_INDEXES: Migration = {
  name: 'records-002-order-search-indexes',
  sql: `
    CREATE INDEX IF NOT EXISTS records_orders_state_created ON orders(state, created_at, id);
    CREATE INDEX IF NOT EXISTS records_order_events_at ON order_events(at, to_state);
  `,
};

/**
 * Parts of numbers, films and seats are found through a trigram word index (orders/order-text-index.ts)
 * instead of reading every order; the wide covering index is not needed for that any more.
 */
const ORDER_TEXT: Migration = {
  name: 'records-003-order-text-index',
  sql: `
    DROP INDEX IF EXISTS records_orders_search;
    CREATE INDEX IF NOT EXISTS records_orders_amount ON orders(amount_kobo, created_at);
    CREATE VIRTUAL TABLE records_order_text USING fts5(refs, film, seats, tokenize = 'trigram');
  `,
};

/**
 * The profile each shift and print job was made under. Older rows cannot say and stay
 * "unrecorded", which counts as real (a counter's history keeps counting).
 */
const PROFILES: Migration = {
  name: 'records-004-profiles',
  sql: `
    ALTER TABLE shifts ADD COLUMN profile TEXT NOT NULL DEFAULT 'unrecorded';
    ALTER TABLE print_jobs ADD COLUMN profile TEXT NOT NULL DEFAULT 'unrecorded';
  `,
};

/** An older receipt's print job takes its order's profile (the journal knows it). */
const PRINT_JOB_PROFILES_FROM_ORDERS: Migration = {
  name: 'records-005-print-job-profiles-from-orders',
  sql: `
    UPDATE print_jobs SET profile = (SELECT o.profile FROM orders o WHERE o.id = print_jobs.order_id)
      WHERE order_id IS NOT NULL AND EXISTS (SELECT 1 FROM orders o WHERE o.id = print_jobs.order_id);
  `,
};

/** The print jobs' table with its CHECK on `kind`, made again with its rows (SQLite cannot widen a CHECK in place). */
function printJobsWithKinds(n: string, kinds: readonly string[]): string {
  return `
    CREATE TABLE print_jobs_${n} (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      kind TEXT NOT NULL ${checkIn('kind', kinds)},
      order_id INTEGER,
      report_id INTEGER,
      title TEXT NOT NULL,
      payload_json TEXT NOT NULL,
      target_json TEXT NOT NULL,
      target_text TEXT NOT NULL,
      status TEXT NOT NULL ${checkIn('status', PRINT_JOB_STATUSES)},
      error TEXT,
      error_code TEXT,
      attempts INTEGER NOT NULL DEFAULT 0,
      reprint INTEGER NOT NULL DEFAULT 0,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      printed_at INTEGER,
      profile TEXT NOT NULL DEFAULT 'unrecorded'
    );
    INSERT INTO print_jobs_${n} (id, kind, order_id, report_id, title, payload_json, target_json, target_text, status,
        error, error_code, attempts, reprint, created_at, updated_at, printed_at, profile)
      SELECT id, kind, order_id, report_id, title, payload_json, target_json, target_text, status,
        error, error_code, attempts, reprint, created_at, updated_at, printed_at, profile FROM print_jobs;
    DROP TABLE print_jobs;
    ALTER TABLE print_jobs_${n} RENAME TO print_jobs;
    CREATE INDEX records_print_jobs_order ON print_jobs(order_id, id);
    CREATE INDEX records_print_jobs_report ON print_jobs(report_id, id);
    CREATE INDEX records_print_jobs_status ON print_jobs(status, id);
  `;
}

/** The pickup slip of a sale with concessions is a print job of its own (kind `pickup-slip`). */
const PICKUP_SLIP_JOBS: Migration = {
  name: 'records-006-pickup-slip-jobs',
  sql: printJobsWithKinds('006', [...FIRST_PRINT_JOB_KINDS, 'pickup-slip']),
};

/**
 * The complaint desk's case slip (docs/refunds.md, "The complaint desk") is a print job of its own
 * (kind `case-slip`, no order or report). Its list of kinds is frozen as it was: a later kind widens
 * it in a migration of its own.
 */
const CASE_SLIP_JOBS: Migration = {
  name: 'records-008-case-slip-jobs',
  sql: printJobsWithKinds('008', [...FIRST_PRINT_JOB_KINDS, 'pickup-slip', 'case-slip']),
};

/** A refund slip (docs/refunds.md) is a print job of its own (kind `refund-slip`), of the refund's sale. */
const REFUND_SLIP_JOBS: Migration = {
  name: 'records-009-refund-slip-jobs',
  sql: printJobsWithKinds('009', PRINT_JOB_KINDS),
};

/**
 * The cash drawer of a shift (docs/concessions.md, "The drawer and the tenders"): cash drops to the
 * safe (amount, who, when, an optional note), the counts of the drawer (at close), and cash paid out
 * to customers (cash refunds: written once refunds are, issue 39; read by the drawer now).
 */
const DRAWER: Migration = {
  name: 'records-007-drawer',
  sql: `
    CREATE TABLE shift_drops (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      shift_id INTEGER NOT NULL REFERENCES shifts(id),
      amount_kobo INTEGER NOT NULL CHECK (amount_kobo > 0),
      by_name TEXT NOT NULL,
      at INTEGER NOT NULL,
      note TEXT
    );
    CREATE INDEX records_shift_drops_shift ON shift_drops(shift_id, at);
    CREATE TABLE shift_counts (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      shift_id INTEGER NOT NULL REFERENCES shifts(id),
      counted_kobo INTEGER NOT NULL CHECK (counted_kobo >= 0),
      by_name TEXT NOT NULL,
      at INTEGER NOT NULL
    );
    CREATE INDEX records_shift_counts_shift ON shift_counts(shift_id, at);
    CREATE TABLE drawer_paid_out (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      order_ref TEXT NOT NULL,
      amount_kobo INTEGER NOT NULL CHECK (amount_kobo > 0),
      by_name TEXT NOT NULL,
      at INTEGER NOT NULL,
      note TEXT
    );
    CREATE INDEX records_drawer_paid_out_at ON drawer_paid_out(at);
  `,
};

/** In the order they ran on a file made before the one list (their place in that file's history); new ones at the end. */
export const RECORDS_MIGRATIONS: Migration[] = [
  OWN_TABLES,
  PROFILES,
  ORDER_INDEXES,
  ORDER_TEXT,
  PRINT_JOB_PROFILES_FROM_ORDERS,
  PICKUP_SLIP_JOBS,
  DRAWER,
  CASE_SLIP_JOBS,
  REFUND_SLIP_JOBS,
];
