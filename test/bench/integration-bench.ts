// The box-office integration's speed: `acceptP95Ms`, from the box office's POST /v1/charges to the
// order on the terminal (the sandbox on loopback), and `callbackP95Ms`, from the moment the
// counter learns the provider's outcome to the box office's callback acknowledged. Real parts:
// the sandbox, the POS client, the journal on disk, the integration API and a callback receiver
// over loopback HTTP.
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { openJournalDb } from '../../core/schema';
import { boxOfficeRules, createIntegrations } from '../../core/integrations';
import { createCheckoutService } from '../../core/orders/checkout-service';
import { createPosClient } from '../../core/provider';
import { fileVault } from '../../core/settings/secret-vault';
import { systemClock } from '../../shared/clock';
import { silentLogger } from '../../shared/logger';
import { api, startCallbackReceiver, twoSeats } from '../helpers/integration-kit';
import { FAST_TUNING, startOrdersSandbox } from '../helpers/orders-sandbox';
import { percentile, round } from './bench-stats';

export interface IntegrationFigures {
  charges: number;
  acceptP50Ms: number;
  acceptP95Ms: number;
  callbackP50Ms: number;
  callbackP95Ms: number;
}

export async function runIntegrationBench(o: { charges: number; baseDir: string }): Promise<IntegrationFigures> {
  const dir = mkdtempSync(join(o.baseDir, 'counterpay-int-bench-'));
  const sb = await startOrdersSandbox();
  let key = '';
  const receiver = await startCallbackReceiver(() => key);
  const db = openJournalDb(join(dir, 'journal.sqlite'));
  const checkout = createCheckoutService({
    db,
    ...boxOfficeRules(db),
    pos: createPosClient(sb.providerConfig(), { logger: silentLogger }),
    clock: systemClock,
    logger: silentLogger,
    tuning: FAST_TUNING,
    settings: () => ({
      counterName: 'Bench',
      headMerchantId: sb.merchant.headMerchantId,
      merchantId: sb.merchant.merchantId,
      orderExpireSeconds: 300,
    }),
  });
  const paidAt = new Map<string, number>();
  const waitingAt = new Map<string, number>();
  checkout.on('order', (v) => {
    if (v.state === 'paid' && !paidAt.has(v.outOrderNo)) paidAt.set(v.outOrderNo, performance.now());
    if (v.state === 'waiting' && !waitingAt.has(v.outOrderNo)) waitingAt.set(v.outOrderNo, performance.now());
  });
  const integrations = createIntegrations({
    db,
    checkout,
    vault: fileVault(join(dir, 'secrets.json')),
    terminalSn: () => sb.merchant.terminalSn,
    now: () => Date.now(),
    logger: silentLogger,
  });
  key = integrations.pair('Bench box office', receiver.url).key;
  const base = (await integrations.serve({ port: 0, lan: false }))!;
  const accept: number[] = [];
  const callback: number[] = [];
  try {
    for (let i = 0; i < o.charges; i++) {
      const reference = `BENCH-${i}`;
      const onTerminal = new Promise<string>((ok) => {
        const off = checkout.on('order', (v) => {
          if (v.state === 'waiting') {
            off();
            ok(v.outOrderNo);
          }
        });
      });
      const t0 = performance.now();
      await api(base, key, 'POST', '/v1/charges', twoSeats(reference));
      const outOrderNo = await onTerminal;
      accept.push(waitingAt.get(outOrderNo)! - t0);
      const told = receiver.until((r) => r.body.charge.reference === reference && r.body.event.to === 'paid');
      sb.sandbox.present(sb.merchant.terminalSn, 'SUCCESS');
      await told;
      callback.push(performance.now() - paidAt.get(outOrderNo)!);
    }
  } finally {
    await integrations.stop();
    await checkout.stop();
    db.close();
    await receiver.close();
    await sb.sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return {
    charges: o.charges,
    acceptP50Ms: round(percentile(accept, 50)),
    acceptP95Ms: round(percentile(accept, 95)),
    callbackP50Ms: round(percentile(callback, 50)),
    callbackP95Ms: round(percentile(callback, 95)),
  };
}
