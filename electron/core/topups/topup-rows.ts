// The shapes of the top-up journal's rows: items, batches, the moves written to them, the
// renderer's view of an item, and the filters of the item lists.
import { FINAL_TOPUP_STATES, OPEN_TOPUP_STATES, type BatchState, type ServiceType, type TopupState, type TopupView } from '../../../shared/topups';
import { sqlList } from '../db/sql';
import type { TopupStatus } from '../provider/types';

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
  open: `state IN (${sqlList(['draft', ...OPEN_TOPUP_STATES])})`,
  failed: `state IN (${sqlList(FINAL_TOPUP_STATES.filter((s) => s !== 'success'))})`,
  success: "state = 'success'",
};
