// The shapes of the top-up journal's rows: items, batches, the moves written to them, the
// renderer's view of an item, and the filters of the item lists.
import {
  FINAL_TOPUP_STATES,
  OPEN_TOPUP_STATES,
  type BatchState,
  type ServiceType,
  type TopupState,
  type TopupView,
} from '../../shared/topups';
import { camelRow, type Row } from '../lib';
import { sqlList } from '../lib';
import type { TopupStatus } from '../provider';

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

export type { Row };

/** Every column of `topups` but the business day (the journal's own numbering). */
export function toItem(r: Row): TopupRecord {
  return camelRow(r, ['business_day']) as unknown as TopupRecord;
}

export function toBatch(r: Row): BatchRecord {
  const { checkState, checkChecked, checkTotal, checkNotFound, checkUnchecked, ...rest } = camelRow(r);
  return {
    ...rest,
    check: {
      state: checkState,
      checked: checkChecked,
      total: checkTotal,
      notFound: checkNotFound,
      unchecked: checkUnchecked,
    },
  } as unknown as BatchRecord;
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
