// The sandbox's POS API over raw HTTP: envelope checks (sign before decrypt, timestamp window),
// createOrder validation per field, duplicates, queries, terminal outcomes and expiry.
import { afterEach, describe, expect, it } from 'vitest';
import { posResponseSignStrings, rsaEncryptChunked, rsaVerify } from '../../../protocol/crypto';
import { SandboxControlError, startSandbox, type Sandbox } from '../../../sandbox';
import {
  IDS,
  orderParams,
  posCall,
  rawRequest,
  testConfig,
  testKeys,
  waitForEvent,
} from '../../helpers/sandbox-client-helpers';

let sb: Sandbox | null = null;
afterEach(async () => {
  await sb?.close();
  sb = null;
});

async function create(patch: Record<string, unknown> = {}) {
  const params = orderParams(patch);
  const r = await posCall(sb!, 'createOrder', params);
  return { params, r, orderNo: r.data?.orderNo as string };
}

describe('POS envelope', () => {
  it('creates an order: data encrypted for the merchant, response signed (sortedKv by default)', async () => {
    sb = await startSandbox(testConfig());
    const { r, orderNo } = await create();
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      code: '00000',
      message: 'SUCCESSFUL',
      timestamp: expect.stringMatching(/^\d{13}$/),
    });
    expect(typeof r.json.data).toBe('string');
    expect(orderNo).toMatch(/^\d{18}$/);
    const forms = posResponseSignStrings(r.json);
    expect(rsaVerify(testKeys().provider.publicKey, forms.sortedKv, r.json.sign)).toBe(true);
    expect(rsaVerify(testKeys().provider.publicKey, forms.dataTimestamp, r.json.sign)).toBe(false);
    expect(sb.listPosOrders()).toHaveLength(1);
  });

  it('signs data + timestamp when responseSignForm is dataTimestamp, and can send data as an object', async () => {
    sb = await startSandbox(testConfig((c) => (c.pos.responseSignForm = 'dataTimestamp')));
    const { r } = await create();
    const forms = posResponseSignStrings(r.json);
    expect(rsaVerify(testKeys().provider.publicKey, forms.dataTimestamp, r.json.sign)).toBe(true);
    expect(rsaVerify(testKeys().provider.publicKey, forms.sortedKv, r.json.sign)).toBe(false);
    await sb.close();
    sb = await startSandbox(testConfig((c) => (c.pos.encryptResponseData = false)));
    const plain = await create();
    expect(plain.r.json.data).toEqual({ orderNo: expect.stringMatching(/^\d{18}$/) });
    expect(plain.r.signValid).toBe(true);
  });

  it('refuses a stale or future timestamp (more than 5 minutes) with an unsigned 10002 and creates nothing', async () => {
    sb = await startSandbox(testConfig());
    for (const offset of [-6 * 60_000, 6 * 60_000]) {
      const r = await posCall(sb, 'createOrder', orderParams(), { timestamp: String(Date.now() + offset) });
      expect(r.status).toBe(200);
      expect(r.json).toMatchObject({ code: '10002', message: 'timestamp expired', data: null });
      expect(r.json.sign).toBeUndefined();
    }
    const bad = await posCall(sb, 'createOrder', orderParams(), { timestamp: 'yesterday' });
    expect(bad.json.code).toBe('10002');
    expect(sb.listPosOrders()).toHaveLength(0);
  });

  it('refuses a tampered sign, a foreign key, an undecryptable paramContent and an unknown clientAuthKey alike', async () => {
    sb = await startSandbox(testConfig());
    const k = testKeys();
    const ts = String(Date.now());
    const garbage = rsaEncryptChunked(k.stranger.publicKey, '{"x":1}'); // encrypted for someone else: will not unpad
    const answers = [
      await posCall(sb, 'createOrder', orderParams(), { sign: 'AAAA' + 'B'.repeat(340) }),
      await posCall(sb, 'createOrder', orderParams(), { signKey: k.stranger.privateKey }),
      await posCall(sb, 'createOrder', orderParams(), { timestamp: ts, paramContent: garbage, sign: undefined }),
    ];
    // A valid sign over a paramContent the provider cannot decrypt: same answer as a bad sign.
    const { rsaSign } = await import('../../../protocol/crypto');
    answers.push(
      await posCall(sb, 'createOrder', orderParams(), {
        timestamp: ts,
        paramContent: garbage,
        sign: rsaSign(k.merchant.privateKey, garbage + ts),
      }),
    );
    for (const r of answers) {
      expect(r.status).toBe(200);
      expect(r.json).toMatchObject({ code: '10004', message: 'sign verification failed', data: null });
      expect(r.json.sign).toBeUndefined();
    }
    const unknown = await posCall(sb, 'createOrder', orderParams(), { clientAuthKey: 'CAK-nope' });
    expect(unknown.json).toMatchObject({ code: '10001', message: 'invalid clientAuthKey' });
    expect(unknown.json.sign).toBeUndefined();
    const version = await posCall(sb, 'createOrder', orderParams(), { headers: { version: 'V1.0.0' } });
    expect(version.status).toBe(400);
    expect(version.json.message).toMatch(/version/);
    expect(sb.listPosOrders()).toHaveLength(0);
  });
});

describe('createOrder validation', () => {
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ['headMerchantId missing', { headMerchantId: undefined }, /headMerchantId/],
    ['headMerchantId of another merchant', { headMerchantId: 'HM-9' }, /headMerchantId/],
    ['merchantId unknown', { merchantId: 'BR-77' }, /merchantId/],
    ['outOrderNo empty', { outOrderNo: '' }, /outOrderNo/],
    ['sceneEnum wrong', { sceneEnum: 'CASH' }, /sceneEnum/],
    ['subSceneEnum empty', { subSceneEnum: '' }, /subSceneEnum/],
    ['isSplit wrong', { isSplit: 'yes' }, /isSplit/],
    ['currency wrong', { currency: 'USD' }, /currency/],
    ['amount zero', { amount: '0.00' }, /amount/],
    ['amount three decimals', { amount: '12.345' }, /amount/],
    ['amount negative', { amount: '-5.00' }, /amount/],
    ['amount as a number', { amount: 3500 }, /amount/],
    ['orderExpireTime zero', { orderExpireTime: 0 }, /orderExpireTime/],
    ['orderExpireTime fractional', { orderExpireTime: 1.5 }, /orderExpireTime/],
    ['orderExpireTime as a string', { orderExpireTime: '300' }, /orderExpireTime/],
    ['sn unknown', { sn: 'NOPE' }, /sn/],
    ['sn of another branch', { sn: IDS.otherBranchTerminal }, /sn "TERM-9" is not a terminal of branch BR-1/],
    ['productInfo not an object', { productInfo: 'x' }, /productInfo/],
  ];
  it.each(cases)('refuses %s with a code naming the field', async (_name, patch, message) => {
    sb = await startSandbox(testConfig());
    const r = await posCall(sb, 'createOrder', orderParams(patch));
    expect(r.json.code).not.toBe('00000');
    expect(r.json.code).toBe('00002');
    expect(r.json.message).toMatch(message);
    expect(r.json.data).toBeNull();
    expect(r.signValid).toBe(true);
    expect(sb.listPosOrders()).toHaveLength(0);
  });

  it('never makes a second order for an outOrderNo already used (00005)', async () => {
    sb = await startSandbox(testConfig());
    const first = await create({ outOrderNo: 'DUP-1' });
    const second = await posCall(sb, 'createOrder', orderParams({ outOrderNo: 'DUP-1', amount: '10.00' }));
    expect(second.json).toMatchObject({ code: '00005', data: null });
    expect(second.json.message).toMatch(/order already exists/);
    expect(sb.listPosOrders()).toHaveLength(1);
    expect(sb.listPosOrders()[0]).toMatchObject({ orderNo: first.orderNo, amountKobo: 350000 });
  });
});

describe('qryOrderDetail', () => {
  it('finds by outOrderNo or orderNo; both, neither or unknown are refused', async () => {
    sb = await startSandbox(testConfig());
    const { params, orderNo } = await create();
    const byOut = await posCall(sb, 'qryOrderDetail', {
      headMerchantId: IDS.headMerchantId,
      merchantId: IDS.merchantId,
      outOrderNo: params.outOrderNo,
    });
    const byNo = await posCall(sb, 'qryOrderDetail', {
      headMerchantId: IDS.headMerchantId,
      merchantId: IDS.merchantId,
      orderNo,
    });
    for (const r of [byOut, byNo]) {
      expect(r.json.code).toBe('00000');
      expect(r.signValid).toBe(true);
      expect(r.data).toMatchObject({
        orderNo,
        outOrderNo: params.outOrderNo,
        status: 'PENDING',
        amount: '3500.00',
        currency: 'NGN',
        sn: IDS.terminalSn,
      });
    }
    const both = await posCall(sb, 'qryOrderDetail', {
      headMerchantId: IDS.headMerchantId,
      merchantId: IDS.merchantId,
      orderNo,
      outOrderNo: params.outOrderNo,
    });
    const neither = await posCall(sb, 'qryOrderDetail', {
      headMerchantId: IDS.headMerchantId,
      merchantId: IDS.merchantId,
    });
    for (const r of [both, neither])
      expect(r.json).toMatchObject({
        code: '00002',
        message: expect.stringMatching(/exactly one of outOrderNo or orderNo/),
      });
    const unknown = await posCall(sb, 'qryOrderDetail', {
      headMerchantId: IDS.headMerchantId,
      merchantId: IDS.merchantId,
      orderNo: '999',
    });
    expect(unknown.json).toEqual({
      code: '00003',
      message: 'order not exist',
      data: null,
      timestamp: expect.any(String),
    });
    // Another branch of the same merchant does not see this branch's order.
    const otherBranch = await posCall(sb, 'qryOrderDetail', {
      headMerchantId: IDS.headMerchantId,
      merchantId: IDS.otherBranch,
      orderNo,
    });
    expect(otherBranch.json.code).toBe('00003');
    // The two answered queries are on the order's record (what polling cost); refused ones are not.
    const [o] = sb.listPosOrders();
    expect(o!.queriedAt).toHaveLength(2);
    expect(o!.queriedAt[0]).toBeGreaterThanOrEqual(o!.createdAt);
  });
});

describe('terminal outcomes and expiry', () => {
  it('present SUCCESS settles the oldest pending order with full details', async () => {
    sb = await startSandbox(testConfig());
    const a = await create({ amount: '3500.00' });
    const b = await create({ amount: '100.00' });
    const screen = sb.terminalScreen(IDS.terminalSn);
    expect(screen).toMatchObject({
      state: 'awaiting-card',
      queued: 2,
      order: { outOrderNo: a.params.outOrderNo, amount: '3500.00', amountKobo: 350000 },
    });
    const settled = waitForEvent(sb.events, 'pos-order-settled');
    sb.present(IDS.terminalSn, 'SUCCESS');
    expect((await settled).orderNo).toBe(a.orderNo);
    const q = await posCall(sb, 'qryOrderDetail', {
      headMerchantId: IDS.headMerchantId,
      merchantId: IDS.merchantId,
      orderNo: a.orderNo,
    });
    expect(q.data).toEqual({
      outOrderNo: a.params.outOrderNo,
      orderNo: a.orderNo,
      payNo: expect.stringMatching(/^\d{18}$/),
      headMerchantId: IDS.headMerchantId,
      merchantId: IDS.merchantId,
      status: 'SUCCESS',
      senderName: expect.stringMatching(/\S/),
      senderAccount: expect.stringMatching(/^\d{6}\*{6,9}\d{4}$/),
      recipientName: expect.any(String),
      recipientAccount: expect.any(String),
      amount: '3500.00',
      fee: '17.50',
      feePattern: 'IN_DEDUCT',
      currency: 'NGN',
      transactionTime: expect.stringMatching(/^\d{13}$/),
      completedTime: expect.stringMatching(/^\d{13}$/),
      transactionType: 'apiCheckout',
      transactionName: expect.any(String),
      payType: 'POS',
      productInfo: a.params.productInfo,
      sn: IDS.terminalSn,
      remark: 'Counter 3',
    });
    expect(sb.terminalScreen(IDS.terminalSn)).toMatchObject({
      state: 'awaiting-card',
      queued: 1,
      order: { orderNo: b.orderNo },
    });
    sb.present(IDS.terminalSn, 'FAIL', { senderName: 'JANE DOE', cardPan: '5399831234561234' });
    const fb = sb.listPosOrders().find((o) => o.orderNo === b.orderNo);
    expect(fb).toMatchObject({ status: 'FAIL', senderName: 'JANE DOE', senderAccount: '539983******1234', feeKobo: 0 });
    expect(sb.terminalScreen(IDS.terminalSn)).toMatchObject({ state: 'idle' });
    expect(() => sb!.present(IDS.terminalSn, 'SUCCESS')).toThrow(SandboxControlError);
    expect(() => sb!.present('NOPE', 'SUCCESS')).toThrow(/no terminal/);
  });

  it('present works over the control API; CANCEL leaves no card details', async () => {
    sb = await startSandbox(testConfig());
    const a = await create();
    const r = await rawRequest(`${sb.url}/_sandbox/terminals/${IDS.terminalSn}/present`, {
      headers: { 'Content-Type': 'application/json' },
      body: '{"outcome":"CANCEL"}',
    });
    expect(r.json).toMatchObject({
      code: '00000',
      data: { orderNo: a.orderNo, status: 'CANCEL', payNo: '', senderAccount: '' },
    });
    const idle = await rawRequest(`${sb.url}/_sandbox/terminals/${IDS.terminalSn}/present`, {
      headers: { 'Content-Type': 'application/json' },
      body: '{"outcome":"SUCCESS"}',
    });
    expect(idle.status).toBe(409);
    expect(idle.json.message).toMatch(/no pending order/);
    const bad = await rawRequest(`${sb.url}/_sandbox/terminals/${IDS.terminalSn}/present`, {
      headers: { 'Content-Type': 'application/json' },
      body: '{"outcome":"MAYBE"}',
    });
    expect(bad.status).toBe(400);
    const screen = await rawRequest(`${sb.url}/_sandbox/terminals/${IDS.terminalSn}`, { method: 'GET' });
    expect(screen.json.data).toMatchObject({ sn: IDS.terminalSn, state: 'idle' });
  });

  it('closes an order when orderExpireTime passes (timer), and the query says CLOSE', async () => {
    sb = await startSandbox(testConfig());
    const closed = waitForEvent(sb.events, 'pos-order-settled', (o) => o.status === 'CLOSE');
    const { orderNo } = await create({ orderExpireTime: 1 });
    expect((await closed).orderNo).toBe(orderNo);
    const q = await posCall(sb, 'qryOrderDetail', {
      headMerchantId: IDS.headMerchantId,
      merchantId: IDS.merchantId,
      orderNo,
    });
    expect(q.data).toMatchObject({ status: 'CLOSE', payNo: '', fee: '0.00' });
    expect(sb.terminalScreen(IDS.terminalSn).state).toBe('idle');
  });

  it('applies expiry lazily on every read (fake clock)', async () => {
    const clock = {
      t: Date.now(),
      now() {
        return this.t;
      },
    };
    sb = await startSandbox(testConfig(), { clock });
    const { orderNo } = await create({ orderExpireTime: 60 });
    clock.t += 61_000;
    const q = await posCall(
      sb,
      'qryOrderDetail',
      { headMerchantId: IDS.headMerchantId, merchantId: IDS.merchantId, orderNo },
      { timestamp: String(clock.t) },
    );
    expect(q.data.status).toBe('CLOSE');
  });

  it('a terminal with autoOutcome settles each new order by itself', async () => {
    sb = await startSandbox(
      testConfig((c) =>
        c.pos.terminals!.push({ sn: 'AUTO-1', merchantId: IDS.merchantId, autoOutcome: 'FAIL', autoAfterMs: 20 }),
      ),
    );
    const settled = waitForEvent(sb.events, 'pos-order-settled');
    const { orderNo } = await create({ sn: 'AUTO-1' });
    expect(await settled).toMatchObject({ orderNo, status: 'FAIL' });
  });
});
