// The webhook module's public face: the receiver, its event types, and the durable event store.
export { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver';
export * from './webhook-types';
export {
  WEBHOOK_MIGRATIONS,
  listUnhandledWebhookEvents,
  listWebhookEvents,
  markWebhookEventHandled,
  webhookDedupeKey,
  type WebhookKind,
} from './webhook-store';
export { verifyPosWebhook } from './pos-webhook';
export { verifyBillsCallback } from './bills-callback';
export {
  createWebhookIngest,
  relayedIngestInput,
  RELAY_MAX_AGE_MS,
  type IngestOutcome,
  type WebhookIngest,
} from './webhook-ingest';
