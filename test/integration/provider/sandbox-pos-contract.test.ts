// Contract: the POS client against the real sandbox over loopback HTTP, every operation on
// success and on each error path (auth, freshness, tampered answers, dropped connections).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { memoryLogger } from '../../../shared/logger';
import { createPosClient, isAlreadyExists, isOutcomeUnknown } from '../../../core/provider';
import type { Conventions } from '../../../shared/settings';
import { keys } from '../../unit/provider/fixtures';
import { outOrderNo, startDemoSandbox, type DemoSandbox } from './sandbox-harness';
import { rejection } from './test-server';

let demo: DemoSandbox;
beforeAll(async () => {
  demo = await startDemoSandbox();
});
afterAll(async () => {
  await demo.sandbox.close();
});
afterEach(() => {
  demo.sandbox.clearFaults();
});

const CREATE = '/openApi/order/checkout/createOrder';
const QUERY = '/openApi/order/checkout/qryOrderDetail';

function client(conv: Partial<Conventions> = {}, over = {}, clock?: { now(): number }) {
  const logger = memoryLogger();
  return { pos: createPosClient(() => demo.clientConfig(conv, over), { logger, ...(clock ? { clock } : {}) }), logger };
}

const order = (o: Partial<{ outOrderNo: string; amountKobo: number }> = {}) => ({
  outOrderNo: o.outOrderNo ?? outOrderNo(),
  amountKobo: o.amountKobo ?? 350000,
  orderExpireSeconds: 300,
  sn: demo.merchant.terminalSn,
  productInfo: { filmName: 'Lagos Nights', seatNum: 'F7,F8', filmDate: '2026-11-21', filmTime: '19:30' },
  remark: 'Counter 3',
});

describe('POS client against the sandbox', () => {
  it('createOrder, queryOrder (both keys), settle, and depositCallbackStatus', async () => {
    const { pos } = client();
    const input = order();
    const { orderNo } = await pos.createOrder(input);
    expect(orderNo).toMatch(/^\d+$/);
    const pending = await pos.queryOrder({ outOrderNo: input.outOrderNo });
    expect(pending).toMatchObject({
      orderNo,
      outOrderNo: input.outOrderNo,
      status: 'PENDING',
      amountKobo: 350000,
      sn: demo.merchant.terminalSn,
      productInfo: { filmName: 'Lagos Nights' },
    });

    demo.sandbox.present(demo.merchant.terminalSn, 'SUCCESS', { senderName: 'ADA OBI', cardPan: '5399831234561234' });
    const paid = await pos.queryOrder({ orderNo });
    expect(paid).toMatchObject({
      orderNo,
      status: 'SUCCESS',
      amountKobo: 350000,
      senderName: 'ADA OBI',
      senderAccount: '539983******1234',
      currency: 'NGN',
    });
    expect(paid!.feeKobo).toBeGreaterThan(0);
    expect(typeof paid!.completedTime).toBe('number');

    const dep = await pos.depositCallbackStatus({ opayOrderNo: orderNo });
    expect(dep).toMatchObject({ headMerchantId: demo.merchant.headMerchantId, httpCode: '' });
    expect((await pos.depositCallbackStatus({ checkoutOrderNo: input.outOrderNo })).headMerchantId).toBe(
      demo.merchant.headMerchantId,
    );
  });

  it('an unknown order is null (the unsigned "order not exist" answer)', async () => {
    const { pos } = client();
    expect(await pos.queryOrder({ outOrderNo: 'never-created' })).toBeNull();
    expect(await pos.queryOrder({ orderNo: '000000000000000000' })).toBeNull();
  });

  it('a reused outOrderNo is an "already exists" refusal', async () => {
    const { pos } = client();
    const input = order();
    await pos.createOrder(input);
    const e = await rejection(pos.createOrder(input));
    expect(e.code).toBe('PROVIDER_REFUSED');
    expect(isAlreadyExists(e)).toBe(true);
    expect(isOutcomeUnknown(e)).toBe(false);
  });

  it('a field the provider refuses is PROVIDER_REFUSED with its message', async () => {
    const { pos } = client();
    const e = await rejection(pos.createOrder({ ...order(), sn: 'NOT-OUR-TERMINAL' }));
    expect(e.code).toBe('PROVIDER_REFUSED');
    expect(e.details?.providerMessage).toMatch(/sn/);
  });

  it('a request signed with the wrong key is refused by the sandbox (unsigned 10004): PROVIDER_AUTH, outcome unknown', async () => {
    const { pos } = client(
      {},
      { secrets: { ...demo.clientConfig().secrets, merchantPrivateKey: keys.merchantPrivateKey } },
    );
    const e = await rejection(pos.createOrder(order()));
    expect(e).toMatchObject({
      code: 'PROVIDER_AUTH',
      details: { providerCode: '10004', cause: 'signature', verified: false, outcomeUnknown: true },
    });
  });

  it('a wrong clientAuthKey is PROVIDER_AUTH', async () => {
    const { pos } = client({}, { secrets: { ...demo.clientConfig().secrets, posClientAuthKey: 'CAK-not-ours' } });
    expect(await rejection(pos.queryOrder({ orderNo: '1' }))).toMatchObject({
      code: 'PROVIDER_AUTH',
      details: { providerCode: '10001', cause: 'credentials' },
    });
  });

  it('a stale timestamp (client clock 10 minutes behind) is refused, with a clock hint', async () => {
    const { pos } = client({}, {}, { now: () => Date.now() - 10 * 60 * 1000 });
    const input = order();
    const e = await rejection(pos.createOrder(input));
    expect(e.code).toBe('PROVIDER_AUTH');
    expect(e.message).toMatch(/too old \(code 10002 "timestamp expired"\).*date, time and time zone/);
    expect(e.details).toMatchObject({ cause: 'clock', outcomeUnknown: true });
    expect(demo.sandbox.listPosOrders().some((o) => o.outOrderNo === input.outOrderNo)).toBe(false);
  });

  it('verify: an answer with a tampered signature is refused by the client', async () => {
    demo.sandbox.setFaults([{ path: QUERY, kind: 'tamperSign', times: 1 }]);
    const { pos } = client();
    const created = await pos.createOrder(order());
    const e = await rejection(pos.queryOrder({ orderNo: created.orderNo }));
    expect(e).toMatchObject({ code: 'PROVIDER_BAD_RESPONSE', details: { reason: 'unauthenticated' } });
  });

  it('warn and off: the same tampered answer is still not decrypted (its data did not verify)', async () => {
    const { pos: p0 } = client();
    const created = await p0.createOrder(order());
    demo.sandbox.setFaults([{ path: QUERY, kind: 'tamperSign', times: 2 }]);
    for (const mode of ['warn', 'off'] as const) {
      const c = client({ posResponseVerify: mode });
      expect(await rejection(c.pos.queryOrder({ orderNo: created.orderNo }))).toMatchObject({
        code: 'PROVIDER_BAD_RESPONSE',
        details: { reason: 'unauthenticated', outcomeUnknown: true },
      });
    }
  });

  it('only the configured signature form: dataTimestamp is refused when the sandbox signs sortedKv', async () => {
    const { pos } = client({ posResponseSignForm: 'dataTimestamp' });
    expect((await rejection(pos.createOrder(order()))).details).toMatchObject({ reason: 'unauthenticated' });
  });

  it('commit-then-drop on createOrder: PROVIDER_TIMEOUT, outcome unknown, and the order does exist', async () => {
    demo.sandbox.setFaults([{ path: CREATE, kind: 'commitThenDrop', times: 1 }]);
    const { pos } = client();
    const input = order();
    const e = await rejection(pos.createOrder(input));
    expect(e.code).toBe('PROVIDER_TIMEOUT');
    expect(e.message).toMatch(/may or may not have reached the provider/);
    expect(isOutcomeUnknown(e)).toBe(true);
    // Settling the unknown outcome by a query finds the committed order.
    expect(await pos.queryOrder({ outOrderNo: input.outOrderNo })).toMatchObject({
      outOrderNo: input.outOrderNo,
      status: 'PENDING',
    });
  });

  it('dropped before processing: also outcome unknown (the client cannot tell), and the query says null', async () => {
    demo.sandbox.setFaults([{ path: CREATE, kind: 'drop', times: 1 }]);
    const { pos } = client();
    const input = order();
    const e = await rejection(pos.createOrder(input));
    expect(e.code).toBe('PROVIDER_TIMEOUT');
    expect(await pos.queryOrder({ outOrderNo: input.outOrderNo })).toBeNull();
  });

  it('HTTP 500 / 502 from the provider side: PROVIDER_HTTP, outcome unknown', async () => {
    const { pos } = client();
    demo.sandbox.setFaults([{ path: CREATE, kind: 'http500', times: 1 }]);
    expect(await rejection(pos.createOrder(order()))).toMatchObject({
      code: 'PROVIDER_HTTP',
      details: { httpStatus: 500, outcomeUnknown: true },
    });
    demo.sandbox.setFaults([{ path: CREATE, kind: 'http502', times: 1 }]);
    expect(await rejection(pos.createOrder(order()))).toMatchObject({
      code: 'PROVIDER_HTTP',
      details: { httpStatus: 502 },
    });
  });

  it('latency past the timeout: PROVIDER_TIMEOUT', async () => {
    demo.sandbox.setFaults([{ path: QUERY, kind: 'latency', latencyMs: 3000, times: 1 }]);
    const { pos } = client({}, { requestTimeoutMs: 300 });
    expect(await rejection(pos.queryOrder({ orderNo: '1' }))).toMatchObject({
      code: 'PROVIDER_TIMEOUT',
      details: { reason: 'timeout' },
    });
  });
});

describe('POS client against a sandbox with the other published conventions', () => {
  let other: DemoSandbox;
  beforeAll(async () => {
    other = await startDemoSandbox((c) => {
      c.pos.responseSignForm = 'dataTimestamp';
      c.pos.encryptResponseData = false;
      c.pos.signNotFound = true;
      c.pos.notFoundCode = '50002';
    });
  });
  afterAll(async () => {
    await other.sandbox.close();
  });

  it('dataTimestamp signatures, plain-object data, signed 50002 not-found', async () => {
    const pos = createPosClient(other.clientConfig(), { logger: memoryLogger() });
    const input = {
      outOrderNo: outOrderNo(),
      amountKobo: 12345,
      orderExpireSeconds: 120,
      sn: other.merchant.terminalSn,
    };
    const { orderNo } = await pos.createOrder(input);
    expect(await pos.queryOrder({ orderNo })).toMatchObject({ orderNo, amountKobo: 12345, status: 'PENDING' });
    expect(await pos.queryOrder({ outOrderNo: 'missing' })).toBeNull();
  });
});
