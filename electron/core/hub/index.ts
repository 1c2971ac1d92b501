// The counter's side of the CounterPay Hub: enrollment, the journal outbox and its sync, and the
// relay stream of the provider's notifications. A counter with no Hub works exactly as without.
export * from './hub-types';
export { createHubClient, HubCallError, type HubClient, type HubCallCode } from './hub-client';
export { createSyncPusher, type SyncPusher, type SyncPusherDeps, type SyncState } from './sync-pusher';
export { createRelayConsumer, DEFAULT_RELAY_BACKOFF, HEARTBEAT_GRACE_MS, RELAY_LAST_EVENT_ID_KEY, type RelayConsumer, type RelayConsumerDeps } from './relay-consumer';
