// The Orders screen's state: today's orders and the queue (loaded by a call, then kept live from
// order.changed), and the one order opened with its history.
import { create } from 'zustand';
import type { OrderEvent, OrderView } from '../../../shared/orders';
import { lagosDate } from '../../../shared/time';
import { bridge, call } from '../transport/bridge';
import { errorText } from './call-errors';

interface OrdersState {
  today: OrderView[];
  queued: OrderView[];
  loaded: boolean;
  loading: boolean;
  loadError: string | null;
  openId: number | null;
  history: OrderEvent[] | null;
  historyError: string | null;
  actionBusy: boolean;
  actionMessage: string | null;

  load(): Promise<void>;
  open(id: number): Promise<void>;
  close(): void;
  apply(view: OrderView): void;
  /** A new sale with the same tickets; resolves to it so the Sell screen can show its payment. */
  retry(id: number): Promise<OrderView | null>;
  checkNow(id: number): Promise<void>;
}

const newestFirst = (a: OrderView, b: OrderView) => b.createdAt - a.createdAt || b.id - a.id;

function upsert(list: OrderView[], view: OrderView): OrderView[] {
  const i = list.findIndex((o) => o.id === view.id);
  if (i < 0) return [view, ...list].sort(newestFirst);
  const next = list.slice();
  next[i] = view;
  return next;
}

export const useOrders = create<OrdersState>((set, get) => ({
  today: [],
  queued: [],
  loaded: false,
  loading: false,
  loadError: null,
  openId: null,
  history: null,
  historyError: null,
  actionBusy: false,
  actionMessage: null,

  load: async () => {
    set({ loading: true });
    try {
      const [today, queued] = await Promise.all([call('orders.listToday', {}), call('orders.listQueued', {})]);
      set({ today: today.slice().sort(newestFirst), queued: queued.slice().sort(newestFirst), loaded: true, loadError: null });
    } catch (e) {
      set({ loadError: errorText(e) });
    } finally {
      set({ loading: false });
    }
  },

  open: async (id) => {
    set({ openId: id, history: get().openId === id ? get().history : null, historyError: null, actionMessage: null });
    try {
      const [view, history] = await Promise.all([call('orders.get', { id }), call('orders.history', { id })]);
      if (get().openId !== id) return;
      get().apply(view);
      set({ history });
    } catch (e) {
      if (get().openId === id) set({ historyError: errorText(e) });
    }
  },

  close: () => set({ openId: null, history: null, historyError: null, actionMessage: null }),

  apply: (view) => {
    const { today, queued, openId } = get();
    const isToday = today.some((o) => o.id === view.id) || lagosDate(view.createdAt) === lagosDate(Date.now());
    set({
      today: isToday ? upsert(today, view) : today,
      queued: view.state === 'queued' ? upsert(queued, view) : queued.filter((o) => o.id !== view.id),
    });
    // The history grows with every change of the open order.
    if (openId === view.id) {
      void call('orders.history', { id: view.id })
        .then((history) => {
          if (get().openId === view.id) set({ history });
        })
        .catch(() => {});
    }
  },

  retry: async (id) => {
    if (get().actionBusy) return null;
    set({ actionBusy: true, actionMessage: null });
    try {
      const view = await call('orders.retry', { id });
      get().apply(view);
      return view;
    } catch (e) {
      set({ actionMessage: errorText(e) });
      return null;
    } finally {
      set({ actionBusy: false });
    }
  },

  checkNow: async (id) => {
    if (get().actionBusy) return;
    set({ actionBusy: true, actionMessage: null });
    try {
      get().apply(await call('orders.checkNow', { id }));
    } catch (e) {
      set({ actionMessage: errorText(e) });
    } finally {
      set({ actionBusy: false });
    }
  },
}));

bridge?.on('order.changed', (view) => useOrders.getState().apply(view));
