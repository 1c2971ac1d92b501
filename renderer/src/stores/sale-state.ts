// The Sell screen's state, as types only: the form typed by hand (sale-form-state.ts), the show
// picked from the programme (sale-pick.ts) and the order on the payment view (sale-payment.ts) are
// slices of the one store sale-store.ts puts together.
import type { z } from 'zod';
import type { BasketInput } from '../../../shared/basket';
import type { SaleDefaultsSchema } from '../../../shared/contract';
import type { OrderView } from '../../../shared/orders';
import type { SeatCheckResult, ShowView } from '../../../shared/programme';
import type { DraftKey, SaleDraft } from './sale-form';

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

/** The form typed by hand, and the defaults from main. */
export interface SaleFormSlice {
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

  loadDefaults(): Promise<void>;
  edit(key: DraftKey, value: string): void;
  touch(key: DraftKey): void;
  /** Checks and sends the sale; resolves to the first field to fix (or null when sent or refused as a whole). */
  charge(sn: string | null, besideWaiting?: string): Promise<DraftKey | 'sn' | null>;
  clear(): void;
  undoClear(): void;
  /** Back to a fresh form with fresh defaults (the film just sold is remembered by main). */
  newSale(): void;
}

/** A show picked from the programme, and its charge. */
export interface SalePickSlice {
  mode: SaleMode;
  pick: ShowPick | null;
  /** A basket of concessions only, no show (F4 on the list of shows). */
  concessionsOnly: boolean;
  pickErrors: Partial<Record<PickField, string>>;
  /** What the seat check said about the seats typed (null before any check). */
  seatCheck: SeatCheckResult | null;
  /** The seats the cashier chose to sell despite the warning (the "Sell … anyway" button, never Enter). */
  seatsAcknowledged: string | null;

  setMode(mode: SaleMode): void;
  pickShow(show: ShowView): void;
  /** Sells concessions only (no show picked). */
  sellConcessions(): void;
  unpick(): void;
  setSeats(seats: string): void;
  setTicketType(name: string): void;
  stepTicketType(step: 1 | -1): void;
  /** Checks the seats across counters (a warning, never a block) and charges the picked show. Resolves to the field to fix, or null.
   * `besideWaiting`: the sale number the cashier decided to leave waiting on the terminal. */
  chargeShow(sn: string | null, besideWaiting?: string): Promise<PickField | null>;
  /** The same for a basket (several ticket types, concessions, cash or split): the seat check, then `sale.sellBasket`.
   * `sn` may be null for a basket paid wholly in cash. */
  chargeBasket(basket: BasketInput, sn: string | null, besideWaiting?: string): Promise<PickField | null>;
  /** The cashier's deliberate choice to sell the seats the check warned about (a button naming them). */
  acknowledgeSeats(): void;
}

/** The order on the payment view, and every order main has not finished with. */
export interface SalePaymentSlice {
  /** The order on the payment view (or the last one, when the view is closed). */
  order: OrderView | null;
  paymentOpen: boolean;
  /** Set when the current order is a new try of another one. */
  retriedFrom: string | null;
  actionBusy: boolean;
  actionMessage: string | null;
  /** Every order main has not finished with (any screen, any reload), oldest first. */
  open: OrderView[];

  /** Reads every unfinished order from main; on a fresh screen the newest on a terminal opens the payment view. */
  loadOpen(): Promise<void>;
  /** The customer walked away: the payment view closes for the next sale; main keeps checking the order. */
  customerLeft(): void;

  showOrder(view: OrderView): void;
  closePayment(): void;
  reopenPayment(): void;
  /** `quiet`: a background re-read, whose failure the next one repairs, shows no message. */
  refreshOrder(quiet?: boolean): Promise<void>;
  retry(): Promise<void>;
  checkNow(): Promise<void>;
  applyOrder(view: OrderView): void;
}

export type SaleState = SaleFormSlice & SalePickSlice & SalePaymentSlice;
/** Zustand's setter and getter over the whole Sell store, as each slice receives them. */
export type SaleSet = (partial: Partial<SaleState>) => void;
export type SaleGet = () => SaleState;
