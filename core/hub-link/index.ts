// The counter's side of the CounterPay Hub: enrollment, the journal outbox and its sync, and the
// relay stream of the provider's notifications. A counter with no Hub works exactly as without.
export * from './link-types';
export { HUB_LINK_MIGRATIONS } from './link-migrations';
export { HubOutbox, createOutboxSink, type OutboxSinkDeps } from './outbox';
export { createHubClient, HubCallError, type HubClient, type HubCallCode } from './link-client';
export {
  createSyncPusher,
  DEFAULT_SYNC_TUNING,
  type SyncPusher,
  type SyncPusherDeps,
  type SyncState,
  type SyncTuning,
} from './sync-pusher';
export {
  createHubLinkModule,
  hubLinkStatus,
  HUB_SETTINGS_KEY,
  HUB_VAULT_SCOPE,
  type HubLinkModule,
  type HubLinkModuleDeps,
} from './link-module';
export {
  createRelayConsumer,
  DEFAULT_RELAY_BACKOFF,
  HEARTBEAT_GRACE_MS,
  RELAY_LAST_EVENT_ID_KEY,
  type RelayConsumer,
  type RelayConsumerDeps,
} from './relay-consumer';
