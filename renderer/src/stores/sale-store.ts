// The Sell screen's state: the form being typed, the defaults from main, and the one order on the
// payment view (followed through order.changed). Main owns the order; this keeps its latest view.
import type { z } from 'zod';
import { create } from 'zustand';
import type { SaleDefaultsSchema } from '../../../shared/contract';
import { isFinalState, type OrderView } from '../../../shared/orders';
import { call } from '../transport/bridge';
import type { StoreFollower } from './follow';
import { errorText, fieldErrorsOf } from './call-errors';
import { checkDraft, draftKeyOf, editDraft, emptyDraft, sameDraft, tidyTime, type DraftKey, type SaleDraft } from './sale-form';

export type SaleDefaults = z.infer<typeof SaleDefaultsSchema>;

interface SaleState {
  defaults: SaleDefaults | null;
  defaultsError: string | null;
  draft: SaleDraft;
  /** Fields the cashier has left once: their client-side messages show from then on. */
  touched: Partial<Record<DraftKey, true>>;
  /** A charge was tried: every message shows. */
  submitted: boolean;
  /** What main said about each field on the last charge (cleared when the field is edited). */
  serverErrors: Partial<Record<DraftKey | 'sn', string>>;
  /** A message that belongs to no field (network, provider, terminal). */
  message: string | null;
  busy: boolean;
  /** The draft Esc cleared, for Undo. */
  cleared: SaleDraft | null;

  /** The order on the payment view (or the last one, when the view is closed). */
  order: OrderView | null;
  paymentOpen: boolean;
  /** Set when the current order is a new try of another one. */
  retriedFrom: string | null;
  actionBusy: boolean;
  actionMessage: string | null;

  loadDefaults(): Promise<void>;
  edit(key: DraftKey, value: string): void;
  touch(key: DraftKey): void;
  /** Checks and sends the sale; resolves to the first field to fix (or null when sent or refused as a whole). */
  charge(sn: string | null): Promise<DraftKey | 'sn' | null>;
  clear(): void;
  undoClear(): void;
  /** Back to a fresh form with fresh defaults (the film just sold is remembered by main). */
  newSale(): void;
  showOrder(view: OrderView): void;
  closePayment(): void;
  reopenPayment(): void;
  /** `quiet`: a background re-read, whose failure the next one repairs, shows no message. */
  refreshOrder(quiet?: boolean): Promise<void>;
  retry(): Promise<void>;
  checkNow(): Promise<void>;
  applyOrder(view: OrderView): void;
}

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
function freshest(view: OrderView): OrderView {
  const seen = lastSeen.get(view.id);
  return seen && isFinalState(seen.state) && !isFinalState(view.state) ? seen : view;
}

export const useSale = create<SaleState>((set, get) => ({
  defaults: null,
  defaultsError: null,
  draft: emptyDraft(),
  touched: {},
  submitted: false,
  serverErrors: {},
  message: null,
  busy: false,
  cleared: null,
  order: null,
  paymentOpen: false,
  retriedFrom: null,
  actionBusy: false,
  actionMessage: null,

  loadDefaults: async () => {
    try {
      const defaults = await call('sale.defaults', {});
      let draft = get().draft;
      // Fill date and time only where the cashier has not typed anything.
      draft = { ...draft, showDate: draft.showDate || defaults.today, showTime: draft.showTime || defaults.nextShowTime };
      // A film typed before the list arrived still gets its price (unless the cashier typed one).
      if (!draft.filmTitle && !draft.price && !draft.fee) draft = editDraft(draft, 'filmName', draft.filmName, defaults.films);
      set({ defaults, defaultsError: null, draft });
    } catch (e) {
      set({ defaultsError: errorText(e) });
    }
  },

  edit: (key, value) => {
    const { draft, defaults, serverErrors } = get();
    const next = editDraft(draft, key, value, defaults?.films ?? []);
    const cleared = { ...serverErrors };
    for (const k of Object.keys(next) as DraftKey[]) if (next[k] !== draft[k]) delete cleared[k];
    set({ draft: next, serverErrors: cleared, message: null, cleared: null });
  },

  touch: (key) => {
    const { draft, touched } = get();
    if (key === 'showTime' && tidyTime(draft.showTime) !== draft.showTime) set({ draft: { ...draft, showTime: tidyTime(draft.showTime) } });
    if (!touched[key]) set({ touched: { ...touched, [key]: true } });
  },

  charge: async (sn) => {
    if (get().busy) return null;
    const typed = get().draft;
    if (tidyTime(typed.showTime) !== typed.showTime) set({ draft: { ...typed, showTime: tidyTime(typed.showTime) } });
    const check = checkDraft(get().draft, sn);
    set({ submitted: true, message: null, cleared: null });
    if (!check.input) {
      const first = (Object.keys(check.errors) as (DraftKey | 'sn')[])[0] ?? null;
      return first;
    }
    set({ busy: true, serverErrors: {} });
    try {
      const answer = await call('sale.charge', check.input);
      // Main emits the sale's first event before it answers, so any event already seen for this
      // order is as new or newer (a refusal can turn it to "Checking the payment" that fast).
      const order = lastSeen.get(answer.id) ?? answer;
      remember(order);
      set({ order, paymentOpen: true, retriedFrom: null, actionMessage: null });
      return null;
    } catch (e) {
      const fields = fieldErrorsOf(e);
      const serverErrors: SaleState['serverErrors'] = {};
      const loose: string[] = [];
      for (const [k, msg] of Object.entries(fields)) {
        const key = draftKeyOf(k);
        if (key) serverErrors[key] ??= msg;
        else loose.push(msg);
      }
      const named = Object.keys(serverErrors).length > 0;
      set({ serverErrors, message: named ? (loose[0] ?? null) : errorText(e) });
      return (Object.keys(serverErrors)[0] as DraftKey | 'sn' | undefined) ?? null;
    } finally {
      set({ busy: false });
    }
  },

  clear: () => {
    const { draft, defaults } = get();
    const fresh = emptyDraft(defaults?.today, defaults?.nextShowTime);
    set({
      draft: fresh,
      cleared: sameDraft(draft, fresh) ? null : draft,
      touched: {},
      submitted: false,
      serverErrors: {},
      message: null,
    });
  },

  undoClear: () => {
    const { cleared } = get();
    if (cleared) set({ draft: cleared, cleared: null });
  },

  newSale: () => {
    set({
      draft: emptyDraft(),
      touched: {},
      submitted: false,
      serverErrors: {},
      message: null,
      cleared: null,
      paymentOpen: false,
      order: null,
      retriedFrom: null,
      actionMessage: null,
    });
    void get().loadDefaults();
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
    const { order } = get();
    if (order && order.id === view.id) set({ order: newer(order, view) });
  },
}));

export const saleFollower: StoreFollower = {
  name: 'sale',
  listen: (bridge) => [bridge.on('order.changed', (view) => useSale.getState().applyOrder(view))],
  refresh: async () => {
    const s = useSale.getState();
    await Promise.all([s.defaults ? s.loadDefaults() : null, s.refreshOrder()]);
  },
};
