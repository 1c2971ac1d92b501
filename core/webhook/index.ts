// The webhook module's public face: the receiver, its event types, and the durable event store.
export {
  startWebhookReceiver,
  DEFAULT_MAX_WEBHOOK_BODY,
  type WebhookReceiver,
  type WebhookReceiverOptions,
} from './webhook-receiver';
export * from './webhook-types';
export {
  WEBHOOK_MIGRATIONS,
  listUnhandledWebhookEvents,
  listWebhookEvents,
  markWebhookEventHandled,
  webhookDedupeKey,
  type StoredWebhookEvent,
  type WebhookKind,
} from './webhook-store';
export { verifyPosWebhook } from './pos-webhook';
export { verifyBillsCallback } from './bills-callback';
export {
  createWebhookIngest,
  relayedIngestInput,
  RELAY_MAX_AGE_MS,
  type WebhookIngestInput,
  type IngestOutcome,
  type WebhookIngestResult,
  type WebhookIngest,
  type WebhookIngestDeps,
} from './webhook-ingest';
