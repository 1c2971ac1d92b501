// The Orders screen's state: a search over every order in the journal (words, states, Lagos days
// and times, paid after closing; today by default), a page at a time, the queue of orders waiting
// for the network, and the one order opened with its history. Kept live from order.changed.
import { create } from 'zustand';
import type { OrderEvent, OrderState, OrderView } from '../../../shared/orders';
import { lagosDate } from '../../../shared/time';
import { call } from '../transport/bridge';
import type { StoreFollower } from './follow';
import { errorText, fieldErrorsOf } from './call-errors';

export const PAGE_SIZE = 50;

export interface OrderQuery {
  text: string;
  states: OrderState[];
  /** yyyy-MM-dd (Lagos), inclusive; '' for no bound. */
  from: string;
  to: string;
  /** Also find Demo sales (a real profile leaves them out; the Demo profile always shows them). */
  includeDemo?: boolean;
  /** Only sales the provider paid after the counter closed them. */
  paidAfterClosing?: boolean;
  /** HH:mm (Lagos) on the day `from` / `to`: a time window; '' or absent for the whole day. */
  fromTime?: string;
  toTime?: string;
}

export function todayQuery(): OrderQuery {
  const today = lagosDate(Date.now());
  return { text: '', states: [], from: today, to: today };
}

interface OrdersState {
  query: OrderQuery;
  rows: OrderView[];
  total: number;
  /** Found orders the provider paid after they were closed (money taken, state still closed). */
  paidAfterClosing: { count: number; amountKobo: number };
  /** What of them is in the card total, as the engine counted it. */
  cardTotal: { count: number; amountKobo: number };
  /** Cursors of the pages before the one shown (for Previous); [] on the first page. */
  back: (string | undefined)[];
  cursor: string | undefined;
  next: string | null;
  queued: OrderView[];
  loaded: boolean;
  loading: boolean;
  loadError: string | null;
  queryErrors: Record<string, string>;
  openId: number | null;
  opened: OrderView | null;
  history: OrderEvent[] | null;
  historyError: string | null;
  actionBusy: boolean;
  actionMessage: string | null;

  /** Runs the search again from its first page (with a changed query if given). */
  search(patch?: Partial<OrderQuery>): Promise<void>;
  nextPage(): Promise<void>;
  prevPage(): Promise<void>;
  load(): Promise<void>;
  /** A new visit of the screen: back to today's orders unless an order is open; true when it reset the query. */
  freshVisit(): boolean;
  open(id: number): Promise<void>;
  close(): void;
  apply(view: OrderView): void;
  /** A new sale with the same tickets; resolves to it so the Sell screen can show its payment. */
  retry(id: number): Promise<OrderView | null>;
  checkNow(id: number): Promise<void>;
}

let seq = 0;

export const useOrders = create<OrdersState>((set, get) => {
  async function fetchPage(cursor: string | undefined, back: (string | undefined)[]): Promise<void> {
    const mine = ++seq;
    const q = get().query;
    set({ loading: true });
    try {
      const [page, queued] = await Promise.all([
        call('orders.search', {
          text: q.text,
          states: q.states,
          ...(q.from ? { from: q.from } : {}),
          ...(q.to ? { to: q.to } : {}),
          ...(cursor ? { cursor } : {}),
          ...(q.includeDemo ? { includeDemo: true } : {}),
          ...(q.paidAfterClosing ? { paidAfterClosing: true } : {}),
          ...(q.fromTime ? { fromTime: q.fromTime } : {}),
          ...(q.toTime ? { toTime: q.toTime } : {}),
          limit: PAGE_SIZE,
        }),
        call('orders.listQueued', {}),
      ]);
      if (mine !== seq) return; // a newer search answered first
      set({
        rows: page.rows,
        total: page.total,
        paidAfterClosing: page.paidAfterClosing,
        cardTotal: page.cardTotal,
        next: page.next,
        cursor,
        back,
        queued,
        loaded: true,
        loadError: null,
        queryErrors: {},
      });
    } catch (e) {
      if (mine !== seq) return;
      const fields = fieldErrorsOf(e);
      set(Object.keys(fields).length ? { queryErrors: fields } : { loadError: errorText(e) });
    } finally {
      if (mine === seq) set({ loading: false });
    }
  }

  return {
    query: todayQuery(),
    rows: [],
    total: 0,
    paidAfterClosing: { count: 0, amountKobo: 0 },
    cardTotal: { count: 0, amountKobo: 0 },
    back: [],
    cursor: undefined,
    next: null,
    queued: [],
    loaded: false,
    loading: false,
    loadError: null,
    queryErrors: {},
    openId: null,
    opened: null,
    history: null,
    historyError: null,
    actionBusy: false,
    actionMessage: null,

    search: (patch) => {
      if (patch) set({ query: { ...get().query, ...patch } });
      return fetchPage(undefined, []);
    },
    nextPage: () => {
      const { next, back, cursor } = get();
      return next ? fetchPage(next, [...back, cursor]) : Promise.resolve();
    },
    prevPage: () => {
      const back = get().back.slice();
      if (back.length === 0) return Promise.resolve();
      const cursor = back.pop();
      return fetchPage(cursor, back);
    },
    load: () => fetchPage(get().cursor, get().back),
    freshVisit: () => {
      if (get().openId !== null) return false;
      set({ query: todayQuery(), cursor: undefined, back: [] });
      return true;
    },

    open: async (id) => {
      const known = get().rows.find((o) => o.id === id) ?? get().queued.find((o) => o.id === id) ?? null;
      set({
        openId: id,
        opened: known,
        history: get().openId === id ? get().history : null,
        historyError: null,
        actionMessage: null,
      });
      try {
        const [view, history] = await Promise.all([call('orders.get', { id }), call('orders.history', { id })]);
        if (get().openId !== id) return;
        get().apply(view);
        set({ history });
      } catch (e) {
        if (get().openId === id) set({ historyError: errorText(e) });
      }
    },

    close: () => set({ openId: null, opened: null, history: null, historyError: null, actionMessage: null }),

    apply: (view) => {
      const { rows, queued, openId } = get();
      const i = rows.findIndex((o) => o.id === view.id);
      set({
        rows: i < 0 ? rows : rows.map((o) => (o.id === view.id ? view : o)),
        queued:
          view.state === 'queued'
            ? [view, ...queued.filter((o) => o.id !== view.id)].sort((a, b) => a.createdAt - b.createdAt)
            : queued.filter((o) => o.id !== view.id),
        ...(openId === view.id ? { opened: view } : {}),
      });
      if (i < 0 || rows[i]?.state !== view.state) scheduleRefresh();
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
  };
});

// New orders and changes of state move totals and rows: the page shown is asked for again, once per burst.
let refreshTimer: ReturnType<typeof setTimeout> | null = null;
function scheduleRefresh(): void {
  if (refreshTimer || !useOrders.getState().loaded) return;
  refreshTimer = setTimeout(() => {
    refreshTimer = null;
    void useOrders.getState().load();
  }, 300);
}

export const ordersFollower: StoreFollower = {
  name: 'orders',
  listen: (bridge) => [bridge.on('order.changed', (view) => useOrders.getState().apply(view))],
  refresh: async () => {
    const s = useOrders.getState();
    await Promise.all([s.loaded ? s.load() : null, s.openId !== null ? s.open(s.openId) : null]);
  },
};
