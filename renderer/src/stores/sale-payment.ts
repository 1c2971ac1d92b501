// The Sell screen's payment view: the one order on it (followed through order.changed, never
// taken back from a final state by a late answer), its retry and "Check now", and every order main
// has not finished with. Main owns the orders; this keeps their latest views.
import { isFinalState, ON_TERMINAL_STATES, type OrderView } from '../../../shared/orders';
import { call } from '../transport/bridge';
import { isAppError } from '../../../shared/errors';
import { errorText, formErrorsOf } from './call-errors';
import type { SaleGet, SalePaymentSlice, SaleSet, SaleState } from './sale-state';

/** A view that arrives late (a call's answer after the event) must not undo a final state. */
export function newer(current: OrderView | null, incoming: OrderView): OrderView {
  if (!current || current.id !== incoming.id) return incoming;
  if (isFinalState(current.state) && !isFinalState(incoming.state)) return current;
  return incoming;
}

// Events can beat the answer of the call that caused them; keep the latest view per order id.
const lastSeen = new Map<number, OrderView>();
function remember(view: OrderView): void {
  lastSeen.delete(view.id);
  lastSeen.set(view.id, view);
  if (lastSeen.size > 100) lastSeen.delete(lastSeen.keys().next().value!);
}
/** The payment view opened on the order a charge call answered. Main emits the sale's first event
 * before it answers, so any event already seen for this order is as new or newer (a refusal can
 * turn it to "Checking the payment" that fast). */
export function openedOrder(
  answer: OrderView,
): Pick<SaleState, 'order' | 'paymentOpen' | 'retriedFrom' | 'actionMessage'> {
  const order = lastSeen.get(answer.id) ?? answer;
  remember(order);
  return { order, paymentOpen: true, retriedFrom: null, actionMessage: null };
}
function freshest(view: OrderView): OrderView {
  const seen = lastSeen.get(view.id);
  return seen && isFinalState(seen.state) && !isFinalState(view.state) ? seen : view;
}

/**
 * A charge the engine refused, for either Sell form: the errors by field (and the first field, for
 * the focus) and the message; a busy terminal's open orders are read again, so the cashier sees
 * which sale is in the way.
 */
export function chargeRefused<K extends string>(
  e: unknown,
  keyOf: (field: string) => K | null,
  get: SaleGet,
): { errors: Partial<Record<K, string>>; message: string | null; first: K | null } {
  const refused = formErrorsOf(e, keyOf);
  if (isAppError(e) && e.code === 'TERMINAL_BUSY')
    void get()
      .loadOpen()
      .catch(() => {});
  return refused;
}

export function createPaymentSlice(set: SaleSet, get: SaleGet): SalePaymentSlice {
  return {
    order: null,
    paymentOpen: false,
    retriedFrom: null,
    actionBusy: false,
    actionMessage: null,
    open: [],

    loadOpen: async () => {
      const open = await call('orders.listOpen', {});
      for (const o of open) remember(o);
      set({ open: open.map(freshest).filter((o) => !isFinalState(o.state)) });
      // After a reload (or a restart) nothing is on the view: the newest order still on a terminal comes back on it.
      const { order, paymentOpen } = get();
      if (order === null && !paymentOpen) {
        const onTerminal = get().open.filter((o) => ON_TERMINAL_STATES.has(o.state));
        const newest = onTerminal[onTerminal.length - 1];
        if (newest) set({ order: newest, paymentOpen: true, retriedFrom: null, actionMessage: null });
      }
    },

    customerLeft: () => {
      const { order } = get();
      if (!order || isFinalState(order.state)) return;
      get().newSale();
    },

    showOrder: (view) => {
      remember(view);
      set({ order: freshest(view), paymentOpen: true, retriedFrom: null, actionMessage: null });
    },

    closePayment: () => {
      const { order } = get();
      // A paid sale's form must not be charged twice: closing it starts a clean sale.
      if (order?.state === 'paid') get().newSale();
      else set({ paymentOpen: false, actionMessage: null });
    },

    reopenPayment: () => {
      if (get().order) set({ paymentOpen: true });
    },

    refreshOrder: async (quiet = false) => {
      const { order } = get();
      if (!order) return;
      try {
        const view = await call('orders.get', { id: order.id });
        remember(view);
        // The cashier may have moved on to another sale while this was asked.
        if (get().order?.id === view.id) set({ order: newer(get().order, view) });
      } catch (e) {
        if (!quiet) set({ actionMessage: errorText(e) });
      }
    },

    retry: async () => {
      const { order, actionBusy } = get();
      if (!order || actionBusy) return;
      set({ actionBusy: true, actionMessage: null });
      try {
        const view = freshest(await call('orders.retry', { id: order.id }));
        remember(view);
        set({ order: view, retriedFrom: order.outOrderNo, paymentOpen: true });
      } catch (e) {
        set({ actionMessage: errorText(e) });
      } finally {
        set({ actionBusy: false });
      }
    },

    checkNow: async () => {
      const { order, actionBusy } = get();
      if (!order || actionBusy) return;
      set({ actionBusy: true, actionMessage: null });
      try {
        const view = await call('orders.checkNow', { id: order.id });
        remember(view);
        set({ order: newer(get().order, view) });
      } catch (e) {
        set({ actionMessage: errorText(e) });
      } finally {
        set({ actionBusy: false });
      }
    },

    applyOrder: (view) => {
      remember(view);
      const { order, open } = get();
      if (order && order.id === view.id) set({ order: newer(order, view) });
      const rest = open.filter((o) => o.id !== view.id);
      const next = isFinalState(view.state) ? rest : [...rest, view].sort((a, b) => a.id - b.id);
      if (next.length !== open.length || !isFinalState(view.state)) set({ open: next });
    },
  };
}
