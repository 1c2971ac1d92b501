// Runs the webhook receiver when the active profile asks for it, restarting it when its address
// changes; in Demo it also points the embedded sandbox's webhook at it. Notifications relayed by
// the CounterPay Hub go through the very same ingest (`ingestRelayed`): verified with the active
// profile's keys and the corrected clock, recorded, de-duplicated and handed on as direct ones.
import type { Db } from './db';
import type { DemoSandbox } from './demo';
import type { Logger } from '../shared/logger';
import type { Clock } from '../shared/clock';
import type { SettingsService } from './settings';
import { TypedEmitter } from './lib';
import type { RelayNotification } from '../shared/hub-contract';
import {
  createWebhookIngest,
  relayedIngestInput,
  startWebhookReceiver,
  WEBHOOK_PATHS,
  type BillsCallbackEvent,
  type IngestOutcome,
  type PosNotification,
  type WebhookReceiver,
} from './webhook';

interface WebhookControlDeps {
  db: Db;
  settings: SettingsService;
  logger: Logger;
  clock: Clock;
  demo: () => DemoSandbox | null;
  onPosNotification: (n: PosNotification) => void;
  /** Relayed notifications only: is this POS order one of this counter's? (Others are ignored quietly.) */
  ownsPosOrder?: (n: PosNotification) => boolean;
}

export function createWebhookControl(deps: WebhookControlDeps) {
  let running: { receiver: WebhookReceiver; key: string } | null = null;
  let chain: Promise<void> = Promise.resolve();
  // Bills callbacks go to the top-ups, which are built after the receiver (they need its address).
  const bills = new TypedEmitter<{ callback: [BillsCallbackEvent] }>();
  const onBillsCallback = (c: BillsCallbackEvent) => bills.emit('callback', c);
  const ingest = createWebhookIngest({
    db: deps.db,
    logger: deps.logger,
    clock: deps.clock,
    getConfig: () => deps.settings.providerConfig(),
    onPosNotification: deps.onPosNotification,
    onBillsCallback,
    ...(deps.ownsPosOrder ? { ownsPosOrder: deps.ownsPosOrder } : {}),
  });

  const pointDemo = () => {
    const d = deps.demo();
    if (!d) return;
    const url =
      running && deps.settings.activeProfile() === 'demo' ? `${running.receiver.url}${WEBHOOK_PATHS.pos}` : null;
    d.sandbox.setWebhookUrl(d.merchant.headMerchantId, url);
  };

  async function apply(): Promise<void> {
    const profile = deps.settings.profile(deps.settings.activeProfile());
    const w = profile.webhook;
    const key = w.enabled ? `${w.host}:${w.port}` : '';
    if (running && running.key === key) return pointDemo();
    if (running) {
      await running.receiver.close();
      deps.logger.info('webhook receiver stopped');
      running = null;
    }
    if (w.enabled) {
      try {
        const receiver = await startWebhookReceiver({
          host: w.host,
          port: w.port,
          db: deps.db,
          logger: deps.logger,
          clock: deps.clock,
          getConfig: () => deps.settings.providerConfig(),
          onPosNotification: deps.onPosNotification,
          onBillsCallback,
          ingest,
        });
        running = { receiver, key };
        deps.logger.info('webhook receiver listening', { url: receiver.url });
      } catch (e) {
        deps.logger.error('webhook receiver could not start; payments are still followed by status checks', {
          host: w.host,
          port: w.port,
          error: e instanceof Error ? e.message : String(e),
        });
      }
    }
    pointDemo();
  }

  return {
    /** Serialised: a burst of settings changes applies in order. */
    refresh(): Promise<void> {
      chain = chain.then(apply, apply);
      return chain;
    },
    url: () => running?.receiver.url ?? null,
    /** Verified bills callbacks (already recorded durably) go to `listener`. */
    onBillsCallback: (listener: (c: BillsCallbackEvent) => void) => bills.on('callback', listener),
    /**
     * A notification relayed by the Hub: the provider's raw body, checked exactly as a direct one
     * (a compromised Hub cannot forge a payment), only allowed to be older (RELAY_MAX_AGE_MS).
     * Resolves once it is durably recorded (or known to be a repeat, refused or not ours);
     * rejects when it could not be recorded (the database), so the relay does not acknowledge it.
     */
    async ingestRelayed(n: RelayNotification): Promise<IngestOutcome> {
      const r = ingest(relayedIngestInput(n, deps.settings.providerConfig().conventions.webhookTranIdHeader));
      if (r.outcome === 'refused')
        deps.logger.warn("relayed notification refused: it does not verify with this counter's keys", {
          eventId: n.eventId,
          kind: n.kind,
          code: r.code,
          reason: r.reason,
        });
      return r.outcome;
    },
    async stop() {
      await chain.catch(() => {});
      if (running) await running.receiver.close();
      running = null;
    },
  };
}
