// Cancelling a box office's charge: possible while the sale has not left the counter (queued while
// the provider cannot be reached), and never once it is on the terminal. Real SQLite, the real POS
// client, the integration API over loopback.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openJournalDb } from '../../../core/schema';
import { boxOfficeRules, createIntegrations, type Integrations } from '../../../core/integrations';
import { createCheckoutService, type CheckoutService } from '../../../core/orders/checkout-service';
import { createPosClient } from '../../../core/provider';
import { fileVault } from '../../../core/settings/secret-vault';
import { systemClock } from '../../../shared/clock';
import { memoryLogger } from '../../../shared/logger';
import type { ChargeView } from '../../../shared/integration';
import { api, twoSeats } from '../../helpers/integration-kit';
import { FAST_TUNING, inState, startOrdersSandbox, type OrdersSandbox } from '../../helpers/orders-sandbox';

const open: { checkout: CheckoutService; integrations: Integrations; sb: OrdersSandbox }[] = [];
afterEach(async () => {
  for (const o of open.splice(0)) {
    await o.integrations.stop();
    await o.checkout.stop();
    await o.sb.sandbox.close();
  }
});

describe('cancel a charge', () => {
  it('a queued charge is cancelled and never sent; the box office reads it cancelled', async () => {
    const sb = await startOrdersSandbox();
    const dir = mkdtempSync(join(tmpdir(), 'counterpay-int-cancel-'));
    const db = openJournalDb(join(dir, 'journal.sqlite'));
    // The provider is not reachable: the sale waits in the queue.
    const config = sb.providerConfig({ posBaseUrl: 'http://127.0.0.1:9' });
    const checkout = createCheckoutService({
      db,
      ...boxOfficeRules(db),
      pos: createPosClient(config, { logger: memoryLogger() }),
      clock: systemClock,
      logger: memoryLogger(),
      tuning: { ...FAST_TUNING, backoff: { baseMs: 60_000, maxMs: 60_000 } },
      settings: () => ({
        counterName: 'Cancel',
        headMerchantId: sb.merchant.headMerchantId,
        merchantId: sb.merchant.merchantId,
        orderExpireSeconds: 300,
      }),
    });
    const integrations = createIntegrations({
      db,
      checkout,
      vault: fileVault(join(dir, 'secrets.json')),
      terminalSn: () => sb.merchant.terminalSn,
      now: () => Date.now(),
      logger: memoryLogger(),
    });
    open.push({ checkout, integrations, sb });
    const { key } = integrations.pair('Box office', null);
    const base = (await integrations.serve({ port: 0, lan: false }))!;
    const made = await api<ChargeView>(base, key, 'POST', '/v1/charges', twoSeats('BK-C1'));
    const id = checkout.getByOutOrderNo(made.body.outOrderNo)!.id;
    await inState(checkout, id, 'queued');
    const cancelled = await api<ChargeView>(base, key, 'POST', '/v1/charges/BK-C1/cancel');
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({
      state: 'cancelled',
      final: true,
      reason: expect.stringMatching(/Cancelled by Box office \(booking BK-C1\)/),
    });
    expect((await api<ChargeView>(base, key, 'GET', '/v1/charges/BK-C1')).body.state).toBe('cancelled');
    // A second cancel says it is final already; nothing ever reached the provider.
    expect((await api(base, key, 'POST', '/v1/charges/BK-C1/cancel')).body).toMatchObject({
      error: { code: 'CANNOT_CANCEL', message: 'This sale is already cancelled.' },
    });
    expect(sb.sandbox.listPosOrders()).toHaveLength(0);
  });
});
