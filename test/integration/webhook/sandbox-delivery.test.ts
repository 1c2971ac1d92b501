// The receiver against the sandbox's real deliveries: a paid POS order's webhook and a bills
// callback arrive, verify, are recorded and handed on once; redeliveries and tampered or late
// ones are answered as they should be, and the provider sees our answer.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openJournalDb } from '../../../core/schema';
import { type Db } from '../../../core/db';
import { memoryLogger } from '../../../shared/logger';
import { createBillsClient, createPosClient } from '../../../core/provider';
import {
  listWebhookEvents,
  startWebhookReceiver,
  WEBHOOK_PATHS,
  type BillsCallbackEvent,
  type PosNotification,
  type WebhookReceiver,
} from '../../../core/webhook';
import type { WebhookAttempt } from '../../../sandbox';
import { nextEvent, outOrderNo, startDemoSandbox, type DemoSandbox } from '../provider/sandbox-harness';

let demo: DemoSandbox;
let receiver: WebhookReceiver;
let db: Db;
let dir: string;
const pos: PosNotification[] = [];
const bills: BillsCallbackEvent[] = [];

beforeAll(async () => {
  demo = await startDemoSandbox((c) => {
    c.bills.settleAfterMs = 0;
    c.webhooks = { retryScheduleMs: [], timeoutMs: 5000 };
  });
  dir = mkdtempSync(join(tmpdir(), 'cp-webhook-sb-'));
  db = openJournalDb(join(dir, 'app.db'));
  receiver = await startWebhookReceiver({
    host: '127.0.0.1',
    port: 0,
    db,
    logger: memoryLogger(),
    getConfig: () => demo.clientConfig(),
    onPosNotification: (n) => pos.push(n),
    onBillsCallback: (c) => bills.push(c),
  });
  demo.sandbox.setWebhookUrl(demo.merchant.headMerchantId, `${receiver.url}${WEBHOOK_PATHS.pos}`);
});
afterAll(async () => {
  await demo.sandbox.close();
  await receiver.close();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const attempt = (kind: 'pos' | 'bills', orderNo: string) =>
  nextEvent<WebhookAttempt>(demo.sandbox.events, 'webhook-attempt', (a) => a.kind === kind && a.orderNo === orderNo);

describe('deliveries from the sandbox', () => {
  it('a paid order: the webhook verifies, is recorded and handed on; the provider sees success', async () => {
    const client = createPosClient(demo.clientConfig(), { logger: memoryLogger() });
    const input = {
      outOrderNo: outOrderNo('WH'),
      amountKobo: 350000,
      orderExpireSeconds: 300,
      sn: demo.merchant.terminalSn,
    };
    const { orderNo } = await client.createOrder(input);
    const delivered = attempt('pos', orderNo);
    demo.sandbox.present(demo.merchant.terminalSn, 'SUCCESS');
    const a = await delivered;
    expect(a).toMatchObject({ ok: true, httpCode: '200' });
    expect(pos.filter((n) => n.orderNo === orderNo)).toEqual([
      expect.objectContaining({ orderNo, outOrderNo: input.outOrderNo, status: 'SUCCESS', amountKobo: 350000 }),
    ]);
    expect(listWebhookEvents(db, 'pos').filter((e) => e.orderNo === orderNo)).toHaveLength(1);
    // What the provider recorded about our answer.
    const dep = await client.depositCallbackStatus({ opayOrderNo: orderNo });
    expect(dep.httpCode).toBe('200');
    expect(JSON.parse(dep.httpMessage)).toEqual({ code: '00000', message: 'SUCCESSFUL' });

    // A redelivery is acknowledged but not handed on again.
    const again = await demo.sandbox.redeliverWebhook(orderNo);
    expect(again.ok).toBe(true);
    expect(pos.filter((n) => n.orderNo === orderNo)).toHaveLength(1);

    // A late one (timestamp 10 minutes old) is refused.
    const late = await demo.sandbox.redeliverWebhook(orderNo, { timestampOffsetMs: -10 * 60 * 1000 });
    expect(late).toMatchObject({ ok: false, httpCode: '401' });
    expect(JSON.parse(late.httpMessage).code).not.toBe('00000');
  });

  it('a webhook with a tampered sign is refused and nothing is recorded', async () => {
    const client = createPosClient(demo.clientConfig(), { logger: memoryLogger() });
    const { orderNo } = await client.createOrder({
      outOrderNo: outOrderNo('WH'),
      amountKobo: 1000,
      orderExpireSeconds: 300,
      sn: demo.merchant.terminalSn,
    });
    demo.sandbox.setFaults([{ path: 'webhook:pos', kind: 'tamperSign', times: 1 }]);
    const delivered = attempt('pos', orderNo);
    demo.sandbox.present(demo.merchant.terminalSn, 'FAIL');
    expect(await delivered).toMatchObject({ ok: false, httpCode: '401' });
    expect(listWebhookEvents(db, 'pos').filter((e) => e.orderNo === orderNo)).toHaveLength(0);
    demo.sandbox.clearFaults();
    // The provider's next try (here a redelivery) goes through.
    expect((await demo.sandbox.redeliverWebhook(orderNo)).ok).toBe(true);
    expect(pos.filter((n) => n.orderNo === orderNo).map((n) => n.status)).toEqual(['FAIL']);
  });

  it('a bills callback from a settled top-up verifies and is handed on once', async () => {
    const client = createBillsClient(demo.clientConfig(), { logger: memoryLogger() });
    const reference = `ref-${process.pid}-${Date.now()}`;
    const callbackSeen = nextEvent<WebhookAttempt>(demo.sandbox.events, 'webhook-attempt', (a) => a.kind === 'bills');
    const [r] = await client.bulkBills({
      serviceType: 'betting',
      callBackUrl: `${receiver.url}${WEBHOOK_PATHS.bills}`,
      items: [{ reference, provider: 'BET9JA', customerId: '20001', amountKobo: 50_000 }],
    });
    expect(r!.status).toBe('SUCCESS');
    expect(await callbackSeen).toMatchObject({ ok: true, orderNo: r!.orderNo });
    expect(bills).toEqual([
      { reference, orderNo: r!.orderNo, status: 'SUCCESS', errorMsg: '', serviceType: 'betting', amountKobo: 50_000 },
    ]);
  });
});
