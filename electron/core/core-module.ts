// A feature module of the core (top-ups, receipts and shifts, ...): its share of the contract's
// handlers, built from the shared services, with its own start and stop.
import type { CallsSpec, Handlers } from '../../shared/contract-kit';
import type { Clock } from './clock';
import type { Db } from './db';
import type { DemoSandbox } from './demo';
import type { EventHub } from './event-hub';
import type { Logger } from './log';
import type { CheckoutService } from './orders';
import type { BillsClient, PosClient } from './provider';
import type { BillsCallbackEvent } from './webhook';
import type { KeyValueStore } from './settings';
import type { SettingsService } from './settings';

export interface ModuleContext {
  shell: 'electron' | 'browser';
  dataDir: string;
  db: Db;
  store: KeyValueStore;
  settings: SettingsService;
  hub: EventHub;
  logger: Logger;
  clock: Clock;
  pos: PosClient;
  bills: BillsClient;
  checkout: CheckoutService;
  demo: () => DemoSandbox | null;
  /** The public address of our webhook receiver, when it runs (for callBackUrl). */
  webhookUrl: () => string | null;
}

export interface CoreModule<C extends CallsSpec> {
  handlers: Handlers<C>;
  /** After the core is built: resume work left by a crash, etc. */
  start?(): Promise<void> | void;
  stop?(): Promise<void> | void;
  /** A verified bills callback from the webhook receiver (already recorded durably). */
  onBillsCallback?(cb: BillsCallbackEvent): void;
}
