// The top-up journal's tables (SQLite migrations) and the shapes of its rows: items, batches,
// the moves written to them, and the renderer's view of an item.
import { TOPUP_STATES, type BatchState, type ServiceType, type TopupState, type TopupView } from '../../../shared/topups';
import type { TopupStatus } from '../provider';

const STATES = TOPUP_STATES.map((s) => `'${s}'`).join(',');

export const TOPUP_MIGRATIONS = [
  {
    name: 'topups-001-journal',
    sql: `
      CREATE TABLE topup_batches (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        profile TEXT NOT NULL,
        bills_merchant_id TEXT NOT NULL,
        file_name TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('draft','running','paused','done','discarded')),
        chunk_size INTEGER NOT NULL,
        total_rows INTEGER NOT NULL,
        bad_rows INTEGER NOT NULL,
        notice TEXT,
        check_state TEXT NOT NULL DEFAULT 'none' CHECK (check_state IN ('none','running','done')),
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
        service_type TEXT NOT NULL CHECK (service_type IN ('airtime','betting')),
        provider TEXT NOT NULL,
        customer_id TEXT NOT NULL,
        customer_name TEXT,
        amount_kobo INTEGER NOT NULL CHECK (amount_kobo > 0),
        state TEXT NOT NULL CHECK (state IN (${STATES})),
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

/** Who the items belong to: they are only ever sent or asked about with the same merchant's keys. */
export interface Owner {
  profile: string;
  billsMerchantId: string;
}

export interface TopupRecord extends TopupView, Owner {
  sentAt: number | null;
  finishedAt: number | null;
}

export interface NewItem {
  serviceType: ServiceType;
  provider: string;
  customerId: string;
  customerName?: string | null;
  amountKobo: number;
  /** From the batch file; generated when absent. */
  reference?: string;
  line?: number;
}

/** Changes written with a move (undefined keeps a column). */
export interface ItemPatch {
  providerStatus?: TopupStatus | null;
  orderNo?: string | null;
  errorMsg?: string;
  customerName?: string | null;
  /** A send is about to start: attempts + 1 and sent_at = now. */
  sending?: boolean;
}

export interface Move {
  id: number;
  to: TopupState;
  note: string;
  patch?: ItemPatch;
  /** Only from these states (else nothing changes). */
  from?: readonly TopupState[];
}

export interface BatchRecord extends Owner {
  id: number;
  fileName: string;
  state: BatchState;
  chunkSize: number;
  totalRows: number;
  badRows: number;
  notice: string | null;
  check: { state: 'none' | 'running' | 'done'; checked: number; total: number; notFound: number; unchecked: number };
  createdAt: number;
  updatedAt: number;
  finishedAt: number | null;
}

export interface BatchTotals {
  counts: Record<TopupState, number>;
  amounts: Record<TopupState, number>;
  items: number;
  sent: number;
  totalKobo: number;
  successKobo: number;
  bettingRows: number;
}

export type Row = Record<string, unknown>;

export function toItem(r: Row): TopupRecord {
  return {
    id: r.id as number,
    reference: r.reference as string,
    profile: r.profile as string,
    billsMerchantId: r.bills_merchant_id as string,
    batchId: (r.batch_id as number | null) ?? null,
    line: (r.line as number | null) ?? null,
    serviceType: r.service_type as ServiceType,
    provider: r.provider as string,
    customerId: r.customer_id as string,
    customerName: (r.customer_name as string | null) ?? null,
    amountKobo: r.amount_kobo as number,
    state: r.state as TopupState,
    providerStatus: (r.provider_status as TopupStatus | null) ?? null,
    orderNo: (r.order_no as string | null) ?? null,
    errorMsg: r.error_msg as string,
    attempts: r.attempts as number,
    sentAt: (r.sent_at as number | null) ?? null,
    createdAt: r.created_at as number,
    updatedAt: r.updated_at as number,
    finishedAt: (r.finished_at as number | null) ?? null,
  };
}

export function toBatch(r: Row): BatchRecord {
  return {
    id: r.id as number,
    profile: r.profile as string,
    billsMerchantId: r.bills_merchant_id as string,
    fileName: r.file_name as string,
    state: r.state as BatchState,
    chunkSize: r.chunk_size as number,
    totalRows: r.total_rows as number,
    badRows: r.bad_rows as number,
    notice: (r.notice as string | null) ?? null,
    check: {
      state: r.check_state as BatchRecord['check']['state'],
      checked: r.check_checked as number,
      total: r.check_total as number,
      notFound: r.check_not_found as number,
      unchecked: r.check_unchecked as number,
    },
    createdAt: r.created_at as number,
    updatedAt: r.updated_at as number,
    finishedAt: (r.finished_at as number | null) ?? null,
  };
}

/** The renderer's view of an item (no owner, no internal times). */
export function toView(rec: TopupRecord): TopupView {
  const { profile: _p, billsMerchantId: _m, sentAt: _s, finishedAt: _f, ...view } = rec;
  return view;
}

export const ITEM_FILTERS: Record<'all' | 'open' | 'failed' | 'success', string> = {
  all: '1 = 1',
  open: "state IN ('draft','queued','sending','unknown','pending')",
  failed: "state IN ('fail','not_sent','cancelled')",
  success: "state = 'success'",
};
