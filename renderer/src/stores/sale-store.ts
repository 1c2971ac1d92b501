// The Sell screen's state: the form being typed, the defaults from main, and the one order on the
// payment view (followed through order.changed). Main owns the order; this keeps its latest view.
import type { z } from 'zod';
import { create } from 'zustand';
import type { SaleDefaultsSchema } from '../../../shared/contract';
import { isAppError } from '../../../shared/errors';
import { isFinalState, ON_TERMINAL_STATES, type OrderView } from '../../../shared/orders';
import { tidySeats, type SeatCheckResult, type ShowView } from '../../../shared/programme';
import { call } from '../transport/bridge';
import type { StoreFollower } from './follow';
import { errorText, formErrorsOf } from './call-errors';
import {
  checkDraft,
  draftKeyOf,
  editDraft,
  emptyDraft,
  fillFromProgramme,
  sameDraft,
  tidyTime,
  type DraftKey,
  type SaleDraft,
} from './sale-form';
import { useProgramme } from './programme-store';
import { stepTicketType } from './show-pick';

/** Selling from the programme (pick a show) or typing the show by hand. */
export type SaleMode = 'programme' | 'hand';
/** A show picked from the programme, with what the cashier chose for it. */
export interface ShowPick {
  show: ShowView;
  ticketType: string;
  seats: string;
}
/** Fields of the programme sale that main may name. */
export type PickField = 'seats' | 'ticketType' | 'sn';

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
  /** Every order main has not finished with (any screen, any reload), oldest first. */
  open: OrderView[];

  mode: SaleMode;
  pick: ShowPick | null;
  pickErrors: Partial<Record<PickField, string>>;
  /** What the seat check said about the seats typed (null before any check). */
  seatCheck: SeatCheckResult | null;
  /** The seats the cashier chose to sell despite the warning (the "Sell … anyway" button, never Enter). */
  seatsAcknowledged: string | null;

  setMode(mode: SaleMode): void;
  pickShow(show: ShowView): void;
  unpick(): void;
  setSeats(seats: string): void;
  setTicketType(name: string): void;
  stepTicketType(step: 1 | -1): void;
  /** Checks the seats across counters (a warning, never a block) and charges the picked show. Resolves to the field to fix, or null.
   * `besideWaiting`: the sale number the cashier decided to leave waiting on the terminal. */
  chargeShow(sn: string | null, besideWaiting?: string): Promise<PickField | null>;
  /** The cashier's deliberate choice to sell the seats the check warned about (a button naming them). */
  acknowledgeSeats(): void;
  /** Reads every unfinished order from main; on a fresh screen the newest on a terminal opens the payment view. */
  loadOpen(): Promise<void>;
  /** The customer walked away: the payment view closes for the next sale; main keeps checking the order. */
  customerLeft(): void;

  loadDefaults(): Promise<void>;
  edit(key: DraftKey, value: string): void;
  touch(key: DraftKey): void;
  /** Checks and sends the sale; resolves to the first field to fix (or null when sent or refused as a whole). */
  charge(sn: string | null, besideWaiting?: string): Promise<DraftKey | 'sn' | null>;
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
/** The payment view opened on the order a charge call answered. Main emits the sale's first event
 * before it answers, so any event already seen for this order is as new or newer (a refusal can
 * turn it to "Checking the payment" that fast). */
function openedOrder(answer: OrderView): Pick<SaleState, 'order' | 'paymentOpen' | 'retriedFrom' | 'actionMessage'> {
  const order = lastSeen.get(answer.id) ?? answer;
  remember(order);
  return { order, paymentOpen: true, retriedFrom: null, actionMessage: null };
}
/** The programme-sale field a message of main names (by the head of its key), or null. */
function pickFieldOf(errorKey: string): PickField | null {
  const key = errorKey.split('.')[0];
  return key === 'seats' || key === 'ticketType' || key === 'sn' ? key : null;
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
  open: [],
  mode: 'programme',
  pick: null,
  pickErrors: {},
  seatCheck: null,
  seatsAcknowledged: null,

  setMode: (mode) => set({ mode, message: null }),
  pickShow: (show) =>
    set({
      pick: { show, ticketType: show.defaultTicketType, seats: '' },
      pickErrors: {},
      seatCheck: null,
      seatsAcknowledged: null,
      message: null,
    }),
  unpick: () => set({ pick: null, pickErrors: {}, seatCheck: null, seatsAcknowledged: null, message: null }),
  setSeats: (seats) => {
    const { pick } = get();
    if (pick)
      set({ pick: { ...pick, seats }, pickErrors: {}, seatCheck: null, seatsAcknowledged: null, message: null });
  },
  setTicketType: (ticketType) => {
    const { pick, pickErrors } = get();
    if (pick)
      set({ pick: { ...pick, ticketType }, pickErrors: { ...pickErrors, ticketType: undefined }, message: null });
  },
  stepTicketType: (step) => {
    const { pick } = get();
    if (pick && pick.show.ticketTypes.length > 1) get().setTicketType(stepTicketType(pick.show, pick.ticketType, step));
  },

  acknowledgeSeats: () => {
    const { pick } = get();
    if (pick) set({ seatsAcknowledged: tidySeats(pick.seats) });
  },

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

  chargeShow: async (sn, besideWaiting) => {
    const { pick, busy } = get();
    if (!pick || busy) return null;
    const seats = tidySeats(pick.seats);
    if (seats === '') {
      set({ pickErrors: { seats: 'Type the seats, for example F7,F8 (or F7 F8)' } });
      return 'seats';
    }
    if (!sn) {
      set({
        pickErrors: {
          sn: 'No terminal yet: choose the serial port or type the terminal serial number (SN) under Terminal',
        },
      });
      return 'sn';
    }
    set({ busy: true, message: null, pickErrors: {} });
    try {
      const seatCheck = await call('programme.checkSeats', { showId: pick.show.id, seats });
      set({ seatCheck });
      if (seatCheck.kind === 'checked' && seatCheck.conflicts.length > 0 && get().seatsAcknowledged !== seats) {
        // A warning, not a block: only the button that names the seats sells them anyway (Enter never does).
        return 'seats';
      }
      const answer = await call('programme.charge', {
        showId: pick.show.id,
        ticketType: pick.ticketType,
        seats,
        sn,
        ...(besideWaiting ? { besideWaiting } : {}),
      });
      set(openedOrder(answer));
      return null;
    } catch (e) {
      const { errors, message, first } = formErrorsOf(e, pickFieldOf);
      set({ pickErrors: errors, message });
      if (isAppError(e) && e.code === 'TERMINAL_BUSY')
        void get()
          .loadOpen()
          .catch(() => {});
      return first;
    } finally {
      set({ busy: false });
    }
  },

  loadDefaults: async () => {
    try {
      const defaults = await call('sale.defaults', {});
      let draft = get().draft;
      // Fill date and time only where the cashier has not typed anything.
      draft = {
        ...draft,
        showDate: draft.showDate || defaults.today,
        showTime: draft.showTime || defaults.nextShowTime,
      };
      // A film typed before the list arrived still gets its price (unless the cashier typed one).
      if (!draft.filmTitle && !draft.price && !draft.fee)
        draft = editDraft(draft, 'filmName', draft.filmName, defaults.films);
      set({ defaults, defaultsError: null, draft });
    } catch (e) {
      set({ defaultsError: errorText(e) });
    }
  },

  edit: (key, value) => {
    const { draft, defaults, serverErrors } = get();
    let next = editDraft(draft, key, value, defaults?.films ?? []);
    // Film, date, time or tickets that name a show of the programme: its prices, not an older sale's.
    if (key !== 'price' && key !== 'fee' && key !== 'filmTitle')
      next = fillFromProgramme(next, useProgramme.getState().next?.shows ?? []);
    const cleared = { ...serverErrors };
    for (const k of Object.keys(next) as DraftKey[]) if (next[k] !== draft[k]) delete cleared[k];
    set({ draft: next, serverErrors: cleared, message: null, cleared: null });
  },

  touch: (key) => {
    const { draft, touched } = get();
    if (key === 'showTime' && tidyTime(draft.showTime) !== draft.showTime)
      set({
        draft: fillFromProgramme(
          { ...draft, showTime: tidyTime(draft.showTime) },
          useProgramme.getState().next?.shows ?? [],
        ),
      });
    if (!touched[key]) set({ touched: { ...touched, [key]: true } });
  },

  charge: async (sn, besideWaiting) => {
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
      const answer = await call('sale.charge', besideWaiting ? { ...check.input, besideWaiting } : check.input);
      set(openedOrder(answer));
      return null;
    } catch (e) {
      const { errors, message, first } = formErrorsOf(e, draftKeyOf);
      set({ serverErrors: errors, message });
      if (isAppError(e) && e.code === 'TERMINAL_BUSY')
        void get()
          .loadOpen()
          .catch(() => {});
      return first;
    } finally {
      set({ busy: false });
    }
  },

  clear: () => {
    if (get().mode === 'programme' && get().pick) {
      get().unpick();
      return;
    }
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
      pick: null,
      pickErrors: {},
      seatCheck: null,
      seatsAcknowledged: null,
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
    const { order, open } = get();
    if (order && order.id === view.id) set({ order: newer(order, view) });
    const rest = open.filter((o) => o.id !== view.id);
    const next = isFinalState(view.state) ? rest : [...rest, view].sort((a, b) => a.id - b.id);
    if (next.length !== open.length || !isFinalState(view.state)) set({ open: next });
  },
}));

export const saleFollower: StoreFollower = {
  name: 'sale',
  listen: (bridge) => [bridge.on('order.changed', (view) => useSale.getState().applyOrder(view))],
  refresh: async () => {
    const s = useSale.getState();
    await Promise.all([s.defaults ? s.loadDefaults() : null, s.refreshOrder(), s.loadOpen()]);
  },
};
