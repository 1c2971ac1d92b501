// What the counter's side of the CounterPay Hub shares between its parts: the connection (address
// and credential, once enrolled) and what every part is built from. The journal sink it implements
// is the root's (core/journal-sink.ts); the relay's health is what the orders' poller follows
// (RelayHealthSource, declared by orders).
import type { Clock } from '../../shared/clock';
import type { Db } from '../db';
import type { Timers } from '../lib';
import type { Logger } from '../../shared/logger';
import type { HubCallError, HubClient, HubConnection } from './link-client';

export type { HubConnection } from './link-client';

/** Where the connection comes from (the hub module, which keeps it in settings and the vault). */
export type HubConnectionSource = () => HubConnection | null;

/** What every part of the Hub link (sync pusher, relay consumer) is built from. */
export interface HubPartDeps {
  db: Db;
  connection: HubConnectionSource;
  client: HubClient;
  clock: Clock;
  timers?: Timers;
  logger: Logger;
  /** The Hub refused our credential for good (revoked or unknown): stop and tell the cashier. */
  onRefused?: (e: HubCallError) => void;
}
