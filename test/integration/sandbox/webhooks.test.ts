// The POS settlement webhook as the conventions describe it (headers, signed + encrypted body),
// its retries, redelivery, the deposit-callback query, and close() ending pending retries.
import { describe, expect, it } from 'vitest';
import { rsaDecryptChunked, rsaVerify } from '../../../protocol/crypto';
import { startSandbox, type Sandbox } from '../../../sandbox';
import {
  IDS,
  orderParams,
  posCall,
  rawRequest,
  startReceiver,
  testConfig,
  testKeys,
  waitForEvent,
  type Receiver,
  type Wire,
} from '../../helpers/sandbox-client-helpers';
import { closeAfterEach } from '../../helpers/close-after-each';

let sb: Sandbox | null = null;
let receiver: Receiver | null = null;
const keep = closeAfterEach((x: { close(): Promise<void> }) => x.close());

const OK = { status: 200, body: '{"code":"00000","message":"SUCCESSFUL"}' };

async function paidOrder(): Promise<{ orderNo: string; outOrderNo: string }> {
  const params = orderParams();
  const r = await posCall(sb!, 'createOrder', params);
  sb!.present(IDS.terminalSn, 'SUCCESS');
  return { orderNo: r.data.orderNo, outOrderNo: params.outOrderNo as string };
}

function openWebhook(body: Wire): { signValid: boolean; plain: Wire } {
  const k = testKeys();
  const signValid = rsaVerify(k.provider.publicKey, body.paramContent + body.timestamp, body.sign);
  return {
    signValid,
    plain: signValid ? JSON.parse(rsaDecryptChunked(k.merchant.privateKey, body.paramContent)) : null,
  };
}

const deposit = (by: Record<string, string>) =>
  posCall(sb!, 'depositStatisticAccountCallBack', {
    headMerchantId: IDS.headMerchantId,
    merchantId: IDS.merchantId,
    ...by,
  });

describe('POS settlement webhook', () => {
  it('is delivered with the documented headers, a valid sign and a decryptable paramContent', async () => {
    receiver = keep(await startReceiver(() => OK));
    sb = keep(await startSandbox(testConfig((c) => (c.pos.merchants![0]!.webhookUrl = receiver!.url))));
    const delivered = waitForEvent(sb.events, 'webhook-delivered');
    const { orderNo, outOrderNo } = await paidOrder();
    const [hook] = await receiver.waitFor(1);
    expect((await delivered).orderNo).toBe(orderNo);
    expect(hook!.headers['x-opay-tranid']).toBe(orderNo);
    expect(hook!.headers.merchantid).toBe(IDS.merchantId);
    expect(hook!.headers['content-type']).toBe('application/json');
    expect(Object.keys(hook!.json).sort()).toEqual([
      'bodyFormat',
      'clientAuthKey',
      'paramContent',
      'sign',
      'timestamp',
      'version',
    ]);
    expect(hook!.json).toMatchObject({ clientAuthKey: IDS.clientAuthKey, version: 'V1.0.1', bodyFormat: 'JSON' });
    expect(Math.abs(Number(hook!.json.timestamp) - Date.now())).toBeLessThan(60_000);
    const { signValid, plain } = openWebhook(hook!.json);
    expect(signValid).toBe(true);
    expect(Object.keys(plain)).toEqual(['data']);
    const d = plain.data;
    expect(Object.keys(d).sort()).toEqual([
      'amount',
      'completedTime',
      'currency',
      'fee',
      'feePattern',
      'orderNo',
      'outOrderNo',
      'payType',
      'recipientAccount',
      'recipientName',
      'remark',
      'senderAccount',
      'senderName',
      'sn',
      'status',
      'transactionName',
      'transactionTime',
      'transactionType',
    ]);
    for (const v of Object.values(d)) expect(typeof v).toBe('string');
    expect(d).toMatchObject({
      orderNo,
      outOrderNo,
      status: 'SUCCESS',
      amount: '3500.00',
      fee: '17.50',
      currency: 'NGN',
      sn: IDS.terminalSn,
    });
    const dep = await deposit({ opayOrderNo: orderNo });
    expect(dep.data).toEqual({ headMerchantId: IDS.headMerchantId, httpCode: '200', httpMessage: OK.body });
  });

  it('is retried with fresh signatures until the receiver answers {"code":"00000"}', async () => {
    receiver = keep(
      await startReceiver((i) =>
        i === 0
          ? { status: 200, body: '{"code":"10001","message":"busy"}' }
          : i === 1
            ? { status: 500, body: 'oops' }
            : OK,
      ),
    );
    sb = keep(await startSandbox(testConfig((c) => (c.pos.merchants![0]!.webhookUrl = receiver!.url))));
    const delivered = waitForEvent(sb.events, 'webhook-delivered');
    const { orderNo, outOrderNo } = await paidOrder();
    const hooks = await receiver.waitFor(3);
    expect((await delivered).attempt).toBe(3);
    for (const h of hooks) {
      const { signValid, plain } = openWebhook(h.json);
      expect(signValid).toBe(true);
      expect(plain.data.orderNo).toBe(orderNo);
    }
    expect(sb.listPosOrders()[0]!.webhook).toMatchObject({ attempts: 3, delivered: true, httpCode: '200' });
    // checkoutOrderNo finds it by the merchant's number too.
    expect((await deposit({ checkoutOrderNo: outOrderNo })).data.httpCode).toBe('200');
  });

  it('gives up after the schedule and reports the last HTTP code; no URL is reported too', async () => {
    receiver = keep(await startReceiver(() => ({ status: 503, body: 'down for maintenance' })));
    sb = keep(await startSandbox(testConfig((c) => (c.webhooks = { retryScheduleMs: [10, 10], timeoutMs: 2000 }))));
    const first = await paidOrder();
    expect((await deposit({ opayOrderNo: first.orderNo })).data).toMatchObject({
      httpCode: '',
      httpMessage: 'no webhook URL registered',
    });
    const set = await rawRequest(`${sb.url}/_sandbox/merchants/${IDS.headMerchantId}/webhook`, {
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ url: receiver.url }),
    });
    expect(set.json.code).toBe('00000');
    const gaveUp = waitForEvent(sb.events, 'webhook-gave-up');
    const { orderNo } = await paidOrder();
    expect((await gaveUp).orderNo).toBe(orderNo);
    expect(receiver.received).toHaveLength(3);
    expect((await deposit({ opayOrderNo: orderNo })).data).toEqual({
      headMerchantId: IDS.headMerchantId,
      httpCode: '503',
      httpMessage: 'down for maintenance',
    });
    const both = await deposit({ opayOrderNo: orderNo, checkoutOrderNo: 'x' });
    expect(both.json.code).toBe('00002');
    const unknown = await deposit({ opayOrderNo: '1' });
    expect(unknown.json).toMatchObject({ code: '00003', message: 'order not exist' });
  });

  it('sends CLOSE, CANCEL and FAIL settlements too', async () => {
    receiver = keep(await startReceiver(() => OK));
    sb = keep(await startSandbox(testConfig((c) => (c.pos.merchants![0]!.webhookUrl = receiver!.url))));
    await posCall(sb, 'createOrder', orderParams());
    sb.present(IDS.terminalSn, 'CANCEL');
    const [hook] = await receiver.waitFor(1);
    expect(openWebhook(hook!.json).plain.data).toMatchObject({ status: 'CANCEL', senderAccount: '', fee: '0.00' });
  });

  it('redelivers a settled order on demand, optionally with an old timestamp', async () => {
    receiver = keep(await startReceiver(() => OK));
    sb = keep(await startSandbox(testConfig((c) => (c.pos.merchants![0]!.webhookUrl = receiver!.url))));
    const { orderNo } = await paidOrder();
    await receiver.waitFor(1);
    const again = await sb.redeliverWebhook(orderNo);
    expect(again).toMatchObject({ ok: true, redelivery: true, orderNo });
    const late = await rawRequest(`${sb.url}/_sandbox/webhooks/redeliver`, {
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ orderNo, timestampOffsetMs: -10 * 60_000 }),
    });
    expect(late.json.data).toMatchObject({ ok: true, redelivery: true });
    const hooks = await receiver.waitFor(3);
    expect(openWebhook(hooks[1]!.json).plain).toEqual(openWebhook(hooks[0]!.json).plain);
    expect(Date.now() - Number(hooks[2]!.json.timestamp)).toBeGreaterThan(9 * 60_000);
    expect(openWebhook(hooks[2]!.json).signValid).toBe(true);
    await posCall(sb, 'createOrder', orderParams());
    const pending = sb.listPosOrders().find((o) => o.status === 'PENDING')!;
    await expect(sb.redeliverWebhook(pending.orderNo)).rejects.toThrow(/PENDING/);
    const missing = await rawRequest(`${sb.url}/_sandbox/webhooks/redeliver`, {
      headers: { 'Content-Type': 'application/json' },
      body: '{"orderNo":"404"}',
    });
    expect(missing.status).toBe(404);
  });

  it('sends the bare notification fields when webhookPayloadForm is bare', async () => {
    receiver = keep(await startReceiver(() => OK));
    sb = keep(
      await startSandbox(
        testConfig((c) => {
          c.pos.merchants![0]!.webhookUrl = receiver!.url;
          c.pos.webhookPayloadForm = 'bare';
        }),
      ),
    );
    const { orderNo } = await paidOrder();
    const [hook] = await receiver.waitFor(1);
    expect(openWebhook(hook!.json).plain).toMatchObject({ orderNo, status: 'SUCCESS' });
  });

  it('close() ends pending retries and their timers', async () => {
    receiver = keep(await startReceiver(() => ({ status: 500, body: 'no' })));
    sb = keep(
      await startSandbox(
        testConfig((c) => {
          c.pos.merchants![0]!.webhookUrl = receiver!.url;
          c.webhooks = { retryScheduleMs: [60_000], timeoutMs: 2000 };
        }),
      ),
    );
    const attempted = waitForEvent(sb.events, 'webhook-attempt');
    await paidOrder();
    await attempted;
    await Promise.resolve();
    const retry = sb.listPosOrders()[0]!.webhook;
    expect(retry).toMatchObject({ attempts: 1, delivered: false, gaveUp: false });
    expect(sb.pendingTimers()).toBeGreaterThan(0);
    const s = sb;
    await s.close();
    sb = null;
    expect(s.pendingTimers()).toBe(0);
    await expect(rawRequest(`${s.url}/_sandbox/health`, { method: 'GET' })).rejects.toThrow();
    expect(receiver.received).toHaveLength(1);
  });

  it('close() aborts a delivery that is still waiting for its answer', async () => {
    const { createServer } = await import('node:http');
    let arrived!: () => void;
    const arrival = new Promise<void>((r) => (arrived = r));
    let socketClosed!: () => void;
    const closedByPeer = new Promise<void>((r) => (socketClosed = r));
    const hang = createServer((req) => {
      req.socket.on('close', () => socketClosed());
      arrived();
    });
    await new Promise<void>((r) => hang.listen(0, '127.0.0.1', r));
    try {
      const port = (hang.address() as { port: number }).port;
      sb = keep(
        await startSandbox(testConfig((c) => (c.pos.merchants![0]!.webhookUrl = `http://127.0.0.1:${port}/hook`))),
      );
      await paidOrder();
      await arrival;
      await sb.close();
      await closedByPeer;
      expect(sb.listPosOrders()[0]!.webhook.attempts).toBe(0);
    } finally {
      hang.closeAllConnections();
      await new Promise<void>((r) => hang.close(() => r()));
    }
  });
});
