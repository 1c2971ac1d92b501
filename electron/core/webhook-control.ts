// Runs the webhook receiver when the active profile asks for it, restarting it when its address
// changes; in Demo it also points the embedded sandbox's webhook at it.
import type { Db } from './db';
import type { DemoSandbox } from './demo';
import type { Logger } from './log';
import type { Clock } from './clock';
import type { SettingsService } from './settings';
import { startWebhookReceiver, WEBHOOK_PATHS, type BillsCallbackEvent, type PosNotification, type WebhookReceiver } from './webhook';

export interface WebhookControlDeps {
  db: Db;
  settings: SettingsService;
  logger: Logger;
  clock: Clock;
  demo: () => DemoSandbox | null;
  onPosNotification: (n: PosNotification) => void;
  onBillsCallback: (c: BillsCallbackEvent) => void;
}

export function createWebhookControl(deps: WebhookControlDeps) {
  let running: { receiver: WebhookReceiver; key: string } | null = null;
  let chain: Promise<void> = Promise.resolve();

  const pointDemo = () => {
    const d = deps.demo();
    if (!d) return;
    const url = running && deps.settings.activeProfile() === 'demo' ? `${running.receiver.url}${WEBHOOK_PATHS.pos}` : null;
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
          host: w.host, port: w.port, db: deps.db, logger: deps.logger, clock: deps.clock,
          getConfig: () => deps.settings.providerConfig(),
          onPosNotification: deps.onPosNotification,
          onBillsCallback: deps.onBillsCallback,
        });
        running = { receiver, key };
        deps.logger.info('webhook receiver listening', { url: receiver.url });
      } catch (e) {
        deps.logger.error('webhook receiver could not start; payments are still followed by status checks', { host: w.host, port: w.port, error: e instanceof Error ? e.message : String(e) });
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
    async stop() {
      await chain.catch(() => {});
      if (running) await running.receiver.close();
      running = null;
    },
  };
}
