// After the sale, on the order detail (docs/refunds.md): the open sale's refunds and links
// (exchanged from / to, cancelled seats), the Cancel and Exchange panels' calls and their answers,
// and recording how a card refund owed was returned. Main owns the truth: `refunds.changed` and the
// sale's `order.changed` bring every change; the engine's field messages are shown at their field.
import { create } from 'zustand';
import type { OrderView } from '../../../shared/orders';
import type { CancelRequest, ExchangeRequest, RefundView, ReturnHow, SaleLinks } from '../../../shared/refunds';
import { call } from '../transport/bridge';
import { isAppError } from '../../../shared/errors';
import { errorText, formErrorsOf } from './call-errors';
import type { StoreFollower } from './follow';
import { useOrders } from './orders-store';

/** The form fields an engine message can belong to (a path such as `approval.pin` goes to `approval`). */
export type UndoField =
  'seats' | 'reason' | 'note' | 'approval' | 'cashier' | 'to' | 'toSeats' | 'tender' | 'how' | 'reference' | 'by';
const UNDO_FIELDS: readonly UndoField[] = [
  'seats',
  'reason',
  'note',
  'approval',
  'cashier',
  'to',
  'tender',
  'how',
  'reference',
  'by',
];

const APPROVAL_REFUSALS = new Set(['PIN_WRONG', 'PIN_LOCKED', 'PIN_NOT_SET']);
/** An approval code's refusals: used, lapsed or unknown (the Hub's words), too many tries, no Hub to ask. */
const CODE_REFUSALS = new Set(['HUB_REFUSED', 'HUB_UNREACHABLE', 'HUB_CODE_INVALID', 'NOT_READY']);

export function undoFieldOf(path: string): UndoField | null {
  // An exchange's new seats (`to.seats`, `to.seats.1.seat`) are the seat box's; the rest of `to` the show's.
  if (/^to\.seats\b/.test(path)) return 'toSeats';
  const head = path.split(/[.[]/)[0] ?? '';
  if (head === 'concessions') return 'seats';
  if (head === 'pin' || head === 'code') return 'approval';
  return (UNDO_FIELDS as readonly string[]).includes(head) ? (head as UndoField) : null;
}

/** What the last cancel or exchange did: the refunds it made and the new sale of an exchange. */
export interface UndoAnswer {
  kind: 'cancel' | 'exchange';
  refunds: RefundView[];
  to: OrderView | null;
}

interface RefundsState {
  orderId: number | null;
  refunds: RefundView[];
  links: SaleLinks | null;
  loadError: string | null;
  panel: 'cancel' | 'exchange' | null;
  busy: 'cancel' | 'exchange' | 'returned' | null;
  errors: Partial<Record<UndoField, string>>;
  /** A sentence about the whole request (the engine's refusal), shown above the panel's buttons. */
  message: string | null;
  answer: UndoAnswer | null;
  /** The refund whose "Record returned…" form is open. */
  returning: number | null;

  load(orderId: number): Promise<void>;
  openPanel(panel: 'cancel' | 'exchange' | null): void;
  clearError(field: UndoField): void;
  cancel(req: CancelRequest): Promise<boolean>;
  exchange(req: ExchangeRequest): Promise<boolean>;
  openReturned(refundId: number | null): void;
  markReturned(refundId: number, how: ReturnHow, reference: string, by: string): Promise<boolean>;
}

export const useRefunds = create<RefundsState>((set, get) => {
  const failed = (e: unknown, byCode = false) => {
    // A refused approval (a wrong or locked PIN, a used or unknown code, codes without a Hub) is the approval field's.
    if (isAppError(e) && (APPROVAL_REFUSALS.has(e.code) || (byCode && CODE_REFUSALS.has(e.code)))) {
      set({ errors: { approval: errorText(e) }, message: null });
      return false;
    }
    const f = formErrorsOf(e, undoFieldOf);
    set({ errors: f.errors, message: f.message });
    return false;
  };
  return {
    orderId: null,
    refunds: [],
    links: null,
    loadError: null,
    panel: null,
    busy: null,
    errors: {},
    message: null,
    answer: null,
    returning: null,

    load: async (orderId) => {
      if (get().orderId !== orderId)
        set({
          orderId,
          refunds: [],
          links: null,
          panel: null,
          answer: null,
          errors: {},
          message: null,
          returning: null,
        });
      try {
        const r = await call('refunds.ofOrder', { orderId });
        if (get().orderId === orderId) set({ refunds: r.refunds, links: r.links, loadError: null });
      } catch (e) {
        if (get().orderId === orderId) set({ loadError: e instanceof Error ? e.message : String(e) });
      }
    },
    openPanel: (panel) => set({ panel, errors: {}, message: null, ...(panel ? { answer: null } : {}) }),
    clearError: (field) => {
      const errors = { ...get().errors };
      delete errors[field];
      set({ errors });
    },

    cancel: async (req) => {
      if (get().busy) return false;
      set({ busy: 'cancel', errors: {}, message: null });
      try {
        const r = await call('refunds.cancel', req);
        useOrders.getState().apply(r.order);
        set({ answer: { kind: 'cancel', refunds: r.refunds, to: null }, panel: null });
        await get().load(r.order.id);
        return true;
      } catch (e) {
        return failed(e, 'code' in req.approval);
      } finally {
        set({ busy: null });
      }
    },

    exchange: async (req) => {
      if (get().busy) return false;
      set({ busy: 'exchange', errors: {}, message: null });
      try {
        const r = await call('refunds.exchange', req);
        useOrders.getState().apply(r.from);
        useOrders.getState().apply(r.to);
        set({ answer: { kind: 'exchange', refunds: r.refunds, to: r.to }, panel: null });
        await get().load(r.from.id);
        return true;
      } catch (e) {
        return failed(e, 'code' in req.approval);
      } finally {
        set({ busy: null });
      }
    },

    openReturned: (returning) => set({ returning, errors: {}, message: null }),

    markReturned: async (refundId, how, reference, by) => {
      if (get().busy) return false;
      set({ busy: 'returned', errors: {}, message: null });
      try {
        const v = await call('refunds.markReturned', { refundId, how, reference, by });
        set({ refunds: get().refunds.map((r) => (r.id === v.id ? v : r)), returning: null });
        set({
          answer: get().answer
            ? { ...get().answer!, refunds: get().answer!.refunds.map((r) => (r.id === v.id ? v : r)) }
            : null,
        });
        return true;
      } catch (e) {
        return failed(e);
      } finally {
        set({ busy: null });
      }
    },
  };
});

export const refundsFollower: StoreFollower = {
  name: 'refunds',
  listen: (bridge) => [
    bridge.on('refunds.changed', () => {
      const id = useRefunds.getState().orderId;
      if (id !== null && useOrders.getState().openId === id) void useRefunds.getState().load(id);
    }),
  ],
  refresh: () => {
    const id = useRefunds.getState().orderId;
    return id !== null ? useRefunds.getState().load(id) : undefined;
  },
};
