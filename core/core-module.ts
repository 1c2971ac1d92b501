// A module of the core (orders, terminal, settings, top-ups, receipts and shifts, ...): its share
// of the contract's handlers, built from the shared services, with its own start and stop. The
// composition root (app-core.ts) builds the shared services and the modules, and only wires.
import type { CallsSpec, Handlers } from '../shared/contract-kit';
import type { FieldErrors } from '../shared/errors';
import type { Clock } from '../shared/clock';
import type { Db } from './db';
import type { DemoSandbox } from './demo';
import type { EventBus } from './events';
import type { JournalSink } from './hub-link';
import type { Logger } from '../shared/logger';
import type { CheckoutService } from './orders';
import type { BillsClient, PosClient } from './provider';
import type { BillsCallbackEvent } from './webhook';
import type { KeyValueStore } from './settings';
import type { SecretVault, SettingsService } from './settings';
import type { TerminalLink } from './terminal';

export interface ModuleContext {
  shell: 'electron' | 'browser';
  dataDir: string;
  db: Db;
  store: KeyValueStore;
  settings: SettingsService;
  /** Where secrets live (keys per profile, the Hub credential): never logged, never in a view. */
  vault: SecretVault;
  events: EventBus;
  logger: Logger;
  clock: Clock;
  pos: PosClient;
  bills: BillsClient;
  checkout: CheckoutService;
  /**
   * The Hub's journal outbox: the journal owners (orders, top-ups, shifts) append their events to
   * it inside the transaction that writes them. Written always, Hub or not.
   */
  journalSink: JournalSink;
  /** The counter's terminal link (its serial number goes on every order). */
  terminal: TerminalLink;
  demo: () => DemoSandbox | null;
  /** The public address of our webhook receiver, when it runs (for callBackUrl). */
  webhookUrl: () => string | null;
}

export interface CoreModule<C extends CallsSpec> {
  handlers: Handlers<C>;
  /** After the core is built: resume work left by a crash, etc. */
  start?(): Promise<void> | void;
  stop?(): Promise<void> | void;
  /** Checks of this module's form calls that only main can make, shown with the schema's (see DispatchOptions.moreFieldErrors). */
  fieldChecks?: { [K in keyof C]?: (args: unknown) => FieldErrors };
  /** A verified bills callback from the webhook receiver (already recorded durably). */
  onBillsCallback?(cb: BillsCallbackEvent): void;
}
