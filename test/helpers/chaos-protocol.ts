// What the chaos driver and its app-under-test child say to each other over the IPC channel.
import type { CheckoutSettings, CheckoutTuningInput } from '../../core/orders/checkout-service';
import type { ProviderConfig } from '../../core/provider/types';
import type { OrderState, SaleInput } from '../../shared/orders';
import type { BasketSaleInput } from '../../shared/basket-sale';
import type { z } from 'zod';
import type { BasketTicketsSchema, Tender } from '../../shared/basket';

type BasketTickets = z.input<typeof BasketTicketsSchema>;

/** The admin PIN of the chaos app (its hash is made at start): the driver's cancels are approved with it. */
export const CHAOS_PIN = '4821';

/** Written to a JSON file whose path is the child's only argument. */
export interface ChaosAppArgs {
  dbFile: string;
  /** Log lines (JSON) are appended here, synchronously, so they survive a SIGKILL. */
  logFile: string;
  provider: ProviderConfig;
  settings: CheckoutSettings;
  tuning: CheckoutTuningInput;
  /** Seeds the checkout's backoff jitter. */
  seed: number;
}

/** The Hub counter of the Hub chaos run (test/helpers/hub-chaos-counter.ts): the same, plus its way to the Hub. */
export interface HubCounterArgs extends ChaosAppArgs {
  hub: {
    /** The Hub as this counter reaches it (through its own cut-able proxy). */
    url: string;
    counterName: string;
    /** The POS branch (merchantId) the counter enrolls for. */
    branch: string;
    /** A one-time code from the Hub's admin API, used on the first start only. */
    enrollCode: string;
    /** Where the counter keeps its credential between runs (the app keeps it in its vault). */
    connectionFile: string;
  };
}

export interface OrderSnapshot {
  id: number;
  outOrderNo: string;
  state: OrderState;
  /** The late outcome recorded on the order (paid-after-closing, reported-otherwise), if any. */
  late?: string | null;
}

export type DriverMessage =
  | { type: 'sell'; reqId: number; sale: SaleInput | BasketSaleInput }
  /** Chaos app only: cancel these seats of a paid sale with the admin PIN (CHAOS_PIN); answered `cancelled` or `refused`. */
  | { type: 'cancel'; reqId: number; orderId: number; seats: string[] }
  /** Chaos app only: exchange these seats of a paid sale for `to` (a cash difference paid with `tender`); answered `exchanged` or `refused`. */
  | { type: 'exchange'; reqId: number; orderId: number; seats: string[]; to: BasketTickets; tender?: Tender }
  /** Hub counter only: stop the checkout (no new journal events), keep syncing and relaying; answered `quiesced`. */
  | { type: 'quiesce' }
  | { type: 'stop' };

export type AppMessage =
  /** Every order in the journal at start, so the driver's view survives what a kill swallowed. */
  | { type: 'ready'; webhookUrl: string; orders: OrderSnapshot[]; hub?: HubReport; recordedOrderNos?: string[] }
  /** Sent only after the sale is in the journal. */
  | { type: 'ack'; reqId: number; id: number; outOrderNo: string }
  | { type: 'refused'; reqId: number; code: string; message: string }
  /** Sent only after the cancel, its refunds owed and its 'order.cancelled' event are in the journal. */
  | { type: 'cancelled'; reqId: number; refundNos: string[] }
  /** Sent only after the exchange's new sale is in the journal (and, paid, the old seats moved with it). */
  | {
      type: 'exchanged';
      reqId: number;
      newOrderId: number;
      newOutOrderNo: string;
      newState: OrderState;
      refundNos: string[];
    }
  | { type: 'order'; id: number; outOrderNo: string; state: OrderState; late?: string | null }
  | { type: 'stopped' }
  | { type: 'quiesced' }
  /** Hub counter only: its outbox against the Hub, sent on every change (after the order event that caused it). */
  | ({ type: 'hub' } & HubReport)
  /** Hub counter only: a notification came over the relay; `recorded` says whether webhook_events now holds its order. */
  | { type: 'relay'; orderNo: string; recorded: boolean };

export interface HubReport {
  /** Events in the outbox not yet held by the Hub. */
  queueLength: number;
  /** The outbox's last sequence number (0 when empty). */
  outboxSeq: number;
  syncState: string;
  relayHealthy: boolean;
}
