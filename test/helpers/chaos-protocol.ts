// What the chaos driver and its app-under-test child say to each other over the IPC channel.
import type { CheckoutSettings, CheckoutTuningInput } from '../../electron/core/orders/checkout-service';
import type { ProviderConfig } from '../../electron/core/provider/types';
import type { OrderState, SaleInput } from '../../shared/orders';

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

export interface OrderSnapshot {
  id: number;
  outOrderNo: string;
  state: OrderState;
}

export type DriverMessage =
  | { type: 'sell'; reqId: number; sale: SaleInput }
  | { type: 'stop' };

export type AppMessage =
  /** Every order in the journal at start, so the driver's view survives what a kill swallowed. */
  | { type: 'ready'; webhookUrl: string; orders: OrderSnapshot[] }
  /** Sent only after the sale is in the journal. */
  | { type: 'ack'; reqId: number; id: number; outOrderNo: string }
  | { type: 'refused'; reqId: number; code: string; message: string }
  | { type: 'order'; id: number; outOrderNo: string; state: OrderState }
  | { type: 'stopped' };
