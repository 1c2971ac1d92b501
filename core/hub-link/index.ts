// The counter's side of the CounterPay Hub: enrollment, the journal outbox and its sync, and the
// relay stream of the provider's notifications. A counter with no Hub works exactly as without.
export * from './link-types';
export { HUB_LINK_MIGRATIONS } from './link-migrations';
export { HubOutbox, createOutboxSink } from './outbox';
export { createHubClient, HubCallError, type HubClient } from './link-client';
export { createSyncPusher, type SyncPusher, type SyncPusherDeps, type SyncState, type SyncTuning } from './sync-pusher';
export { createHubLinkModule, hubLinkStatus, HUB_SETTINGS_KEY, HUB_VAULT_SCOPE } from './link-module';
export {
  createRelayConsumer,
  RELAY_LAST_EVENT_ID_KEY,
  type RelayConsumer,
  type RelayConsumerDeps,
} from './relay-consumer';
export { approvalWhatText, hubApprovalCodes, type HubApprovalCodes, type HubApprovalWhat } from './link-approvals';
