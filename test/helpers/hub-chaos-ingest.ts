// The Hub chaos counter's hand-off of a relayed notification to the webhook module: verify exactly
// as a direct webhook, record durably (de-duplicated), then hand the order's news to the checkout.
// PLACEHOLDER until the webhook module's shared ingest (`ingestRelayed`) lands: then this file
// only calls it.
import type { Clock } from '../../electron/core/clock';
import type { Db } from '../../electron/core/db';
import type { Logger } from '../../electron/core/log';
import type { createCheckoutService } from '../../electron/core/orders/checkout-service';
import type { ProviderConfig } from '../../electron/core/provider/types';
import { verifyPosWebhook } from '../../electron/core/webhook';
import { markWebhookEventHandled, recordWebhookEvent } from '../../electron/core/webhook/webhook-store';
import type { RelayNotification } from '../../shared/hub-contract';

export function createRelayedIngest(deps: { db: Db; logger: Logger; clock: Clock; provider: ProviderConfig; checkout: ReturnType<typeof createCheckoutService> }) {
  return async (n: RelayNotification): Promise<'recorded' | 'repeat' | 'refused' | 'ignored'> => {
    if (n.kind !== 'pos') return 'ignored';
    const v = verifyPosWebhook(n.body, deps.provider, deps.clock.now());
    if (!v.ok) {
      deps.logger.warn('relayed notification refused', { code: v.code, reason: v.reason });
      return 'refused';
    }
    const id = recordWebhookEvent(deps.db, { kind: 'pos', dedupeKey: v.dedupeKey, orderNo: v.orderNo, status: v.status, payload: v.event, receivedAt: deps.clock.now() });
    if (id === null) return 'repeat';
    deps.checkout.onWebhook(v.event);
    markWebhookEventHandled(deps.db, id, deps.clock.now());
    return 'recorded';
  };
}
