// The provider changing its mind after a POS order settled, as the sandbox plays it: the control
// call takes the payment after the order was closed (expired, cancelled, failed) or reports a paid
// order otherwise; the "settle:pos" faults do the same by themselves. Either way the query answers
// the new status and a new, valid settlement webhook goes out.
import { afterEach, describe, expect, it } from 'vitest';
import { rsaDecryptChunked } from '../../../protocol/crypto';
import { startSandbox, type Sandbox } from '../../../sandbox';
import type { SandboxPosOrder } from '../../../sandbox/types';
import {
  IDS,
  orderParams,
  posCall,
  rawRequest,
  startReceiver,
  testConfig,
  testKeys,
  type Receiver,
} from '../../helpers/sandbox-client-helpers';

let sb: Sandbox | null = null;
let receiver: Receiver | null = null;
afterEach(async () => {
  await sb?.close();
  await receiver?.close();
  sb = null;
  receiver = null;
});

async function start(faults: Parameters<Sandbox['setFaults']>[0] = []) {
  receiver = await startReceiver();
  sb = await startSandbox(testConfig((c) => (c.pos.merchants![0]!.webhookUrl = receiver!.url)));
  sb.setFaults(faults);
  return sb;
}

async function order(s: Sandbox, expireSeconds = 300) {
  const params = orderParams({ orderExpireTime: expireSeconds });
  const r = await posCall(s, 'createOrder', params);
  return { orderNo: r.data.orderNo as string, outOrderNo: params.outOrderNo as string };
}

const query = async (s: Sandbox, orderNo: string) =>
  (await posCall(s, 'qryOrderDetail', { headMerchantId: IDS.headMerchantId, merchantId: IDS.merchantId, orderNo }))
    .data;
const hookData = (json: Record<string, string>) =>
  JSON.parse(rsaDecryptChunked(testKeys().merchant.privateKey, json.paramContent!)).data;
/** The next 'pos-order-late' event: the order as it is now, and what the provider had said before. */
const nextLate = (s: Sandbox) =>
  new Promise<[SandboxPosOrder, string]>((resolve) => s.events.once('pos-order-late', (o, was) => resolve([o, was])));
const control = (s: Sandbox, path: string, body: unknown) =>
  rawRequest(`${s.url}/_sandbox/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('a payment taken after the order was closed', () => {
  it.each(['CANCEL', 'FAIL'] as const)(
    'after %s: the control call takes it; the query and a new webhook say SUCCESS with a payment number',
    async (first) => {
      const s = await start();
      const { orderNo } = await order(s);
      s.present(IDS.terminalSn, first);
      await receiver!.waitFor(1);
      const late = nextLate(s);
      const r = await control(s, `orders/${orderNo}/late`, { status: 'SUCCESS', cardPan: '5399830000001234' });
      expect(r.status).toBe(200);
      const [o, was] = await late;
      expect(was).toBe(first);
      expect(o).toMatchObject({
        orderNo,
        status: 'SUCCESS',
        payNo: expect.any(String),
        senderAccount: '539983******1234',
      });
      expect(await query(s, orderNo)).toMatchObject({ status: 'SUCCESS', payNo: o.payNo, amount: '3500.00' });
      const hooks = await receiver!.waitFor(2);
      expect(hookData(hooks[0]!.json)).toMatchObject({ orderNo, status: first });
      expect(hookData(hooks[1]!.json)).toMatchObject({ orderNo, status: 'SUCCESS', senderAccount: '539983******1234' });
    },
  );

  it('after expiry, by the lateSuccess fault: SUCCESS a set time after the order closed, with its webhook', async () => {
    const s = await start([{ path: 'settle:pos', kind: 'lateSuccess', latencyMs: 50, times: 1 }]);
    const { orderNo } = await order(s, 1);
    const late = nextLate(s);
    const [o, was] = await late; // the order expires (CLOSE) after a second, then is paid 50 ms later
    expect(was).toBe('CLOSE');
    expect(o).toMatchObject({ orderNo, status: 'SUCCESS' });
    expect(o.settledAt! - o.expiresAt).toBeGreaterThanOrEqual(50);
    expect((await receiver!.waitFor(2)).map((h) => hookData(h.json).status)).toEqual(['CLOSE', 'SUCCESS']);
    expect(s.listFaults()[0]).toMatchObject({ hits: 1, remaining: 0 });
  });

  it('a paid order reported otherwise later: the lateReversal fault and the control call', async () => {
    const s = await start([{ path: 'settle:pos', kind: 'lateReversal', times: 1 }]);
    const a = await order(s);
    const late = nextLate(s);
    s.present(IDS.terminalSn, 'SUCCESS');
    const [o, was] = await late;
    expect([was, o.status]).toEqual(['SUCCESS', 'FAIL']);
    expect(await query(s, a.orderNo)).toMatchObject({ status: 'FAIL' });
    const b = await order(s);
    s.present(IDS.terminalSn, 'SUCCESS');
    expect((await control(s, `orders/${b.orderNo}/late`, { status: 'CLOSE' })).status).toBe(200);
    expect(await query(s, b.orderNo)).toMatchObject({ status: 'CLOSE' });
  });

  it('refuses what cannot be: a pending order, the same status, an unknown order, a status that is not one', async () => {
    const s = await start();
    const { orderNo } = await order(s);
    expect((await control(s, `orders/${orderNo}/late`, { status: 'SUCCESS' })).status).toBe(409);
    s.present(IDS.terminalSn, 'CANCEL');
    expect((await control(s, `orders/${orderNo}/late`, { status: 'CANCEL' })).status).toBe(409);
    expect((await control(s, 'orders/NOPE/late', { status: 'SUCCESS' })).status).toBe(404);
    const bad = await control(s, `orders/${orderNo}/late`, { status: 'PAID' });
    expect([bad.status, bad.json.message]).toEqual([400, 'status must be SUCCESS, FAIL, CANCEL or CLOSE']);
  });
});
