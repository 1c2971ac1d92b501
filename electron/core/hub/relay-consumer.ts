// STUB (helper B replaces the body): follows the Hub's relay stream (server-sent events, resumed
// with Last-Event-ID), hands each notification to the webhook module's ingest (verify, record,
// handle exactly as a direct webhook), acknowledges it, and reports the stream's health.
import type { RelayNotification } from '../../../shared/hub-contract';
import type { Clock } from '../clock';
import type { Db } from '../db';
import type { Timers } from '../lib';
import type { Logger } from '../log';
import type { HubCallError, HubClient } from './hub-client';
import type { HubConnectionSource, RelayHealthSource } from './hub-types';

export interface RelayConsumerDeps {
  db: Db;
  connection: HubConnectionSource;
  client: HubClient;
  clock: Clock;
  timers?: Timers;
  logger: Logger;
  /** Verify, record durably and handle one relayed notification; resolves once it is recorded. */
  ingest: (n: RelayNotification) => Promise<void> | void;
  onRefused?: (e: HubCallError) => void;
  fetch?: typeof fetch;
}

export interface RelayConsumer extends RelayHealthSource {
  start(): void;
  stop(): Promise<void>;
  /** Reconnect at once (settings changed, network back). */
  reconnect(): void;
  /** Forget the stream position (a new enrollment). */
  reset(): void;
}

export function createRelayConsumer(deps: RelayConsumerDeps): RelayConsumer {
  void deps;
  return { start() {}, async stop() {}, reconnect() {}, reset() {}, healthy: () => false, onChange: () => () => {} };
}
