// The POS client's requests and answers on the wire, against a small fake provider: headers,
// encryption and signature of paramContent, the request object, and the mapping of answers.
import { afterEach, describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../protocol/crypto';
import { memoryLogger } from '../../../shared/logger';
import { createPosClient, isAlreadyExists } from '../../../core/provider';
import { testConfig } from '../../unit/provider/fixtures';
import { openPosRequest, posAnswer } from './fake-provider';
import { rejection, sendJson, startTestServer, type Handler, type TestServer } from './test-server';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

// The fake provider signs answers with the real time: the client's fixed clock stays within their window.
const NOW = Date.now();
const clock = { now: () => NOW };

async function client(handler: Handler, conv = {}) {
  server = await startTestServer(handler);
  const logger = memoryLogger();
  return {
    pos: createPosClient(() => testConfig({ posBaseUrl: server!.url }, conv), { logger, clock }),
    server,
    logger,
  };
}

const details = {
  outOrderNo: 'CP-1',
  orderNo: '2401',
  payNo: 'P1',
  headMerchantId: '256621000000001',
  merchantId: '256621000000002',
  status: 'SUCCESS',
  senderName: 'ADA',
  senderAccount: '5399****1234',
  recipientName: 'CINEMA',
  recipientAccount: '7000',
  amount: '3500.00',
  fee: '0.00',
  feePattern: 'OUT_DEDUCT',
  currency: 'NGN',
  transactionTime: '1763726400000',
  completedTime: '1763726410000',
  transactionType: 'apiCheckout',
  transactionName: 'Checkout',
  payType: 'POS',
  productInfo: { filmName: 'Lagos Nights' },
  sn: 'PB0123456789',
  remark: 'Counter 3',
};

describe('POS client on the wire', () => {
  it('createOrder: headers, encrypted canonical request, valid signature over paramContent + timestamp', async () => {
    const { pos, server } = await client((req, res) =>
      sendJson(res, 200, posAnswer('00000', 'SUCCESSFUL', { orderNo: '2401' })),
    );
    const r = await pos.createOrder({
      outOrderNo: 'CP-20261121-0001',
      amountKobo: 350000,
      orderExpireSeconds: 300,
      sn: 'PB0123456789',
      remark: 'Counter 3',
      productInfo: {
        filmName: 'Lagos Nights',
        filmTitle: 'Lagos Nights (2D)',
        filmTicketNum: '2',
        seatNum: 'F7,F8',
        filmTicketAmount: '3000.00',
        filmFeeAmount: '500.00',
        filmDate: '2026-11-21',
        filmTime: '19:30',
      },
    });
    expect(r).toEqual({ orderNo: '2401' });
    const req = server.requests[0]!;
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/openApi/order/checkout/createOrder');
    expect(req.headers).toMatchObject({
      clientauthkey: 'client-auth-key-test',
      version: 'V1.0.1',
      bodyformat: 'JSON',
      timestamp: String(NOW),
      'content-type': 'application/json',
    });
    expect(Object.keys(JSON.parse(req.body))).toEqual(['paramContent', 'sign']);
    const opened = openPosRequest(req);
    expect(opened.signatureValid).toBe(true);
    expect(opened.object).toEqual({
      headMerchantId: '256621000000001',
      merchantId: '256621000000002',
      outOrderNo: 'CP-20261121-0001',
      amount: '3500.00',
      currency: 'NGN',
      orderExpireTime: 300,
      sceneEnum: 'CASH_API',
      subSceneEnum: 'FILM',
      sn: 'PB0123456789',
      isSplit: 'N',
      splitInfo: null,
      productInfo: {
        filmName: 'Lagos Nights',
        filmTitle: 'Lagos Nights (2D)',
        filmTicketNum: '2',
        seatNum: 'F7,F8',
        filmTicketAmount: '3000.00',
        filmFeeAmount: '500.00',
        filmDate: '2026-11-21',
        filmTime: '19:30',
      },
      remark: 'Counter 3',
    });
    expect(opened.plaintext).toBe(canonicalJson(opened.object));
  });

  it('uses the configured sub-scene and SHA1 signatures when Settings say so', async () => {
    const { pos, server } = await client(
      (req, res) => sendJson(res, 200, posAnswer('00000', 'SUCCESSFUL', { orderNo: '1' })),
      { posSubScene: 'CINEMA' },
    );
    await pos.createOrder({ outOrderNo: 'a', amountKobo: 1, orderExpireSeconds: 60, sn: 'S' });
    expect(openPosRequest(server.requests[0]!).object).toMatchObject({ subSceneEnum: 'CINEMA', amount: '0.01' });
  });

  it('createOrder "already exists" is a recognisable refusal', async () => {
    const { pos } = await client((_req, res) => sendJson(res, 200, posAnswer('02006', 'Order already exists', null)));
    const e = await rejection(pos.createOrder({ outOrderNo: 'a', amountKobo: 100, orderExpireSeconds: 60, sn: 'S' }));
    expect(e.code).toBe('PROVIDER_REFUSED');
    expect(isAlreadyExists(e)).toBe(true);
  });

  it('queryOrder by exactly one key, mapping details to kobo and ms', async () => {
    const { pos, server } = await client((_req, res) =>
      sendJson(res, 200, posAnswer('00000', 'SUCCESSFUL', details, { form: 'sortedKv' })),
    );
    const d = await pos.queryOrder({ outOrderNo: 'CP-1' });
    expect(d).toMatchObject({
      outOrderNo: 'CP-1',
      orderNo: '2401',
      status: 'SUCCESS',
      amountKobo: 350000,
      feeKobo: 0,
      transactionTime: 1763726400000,
      completedTime: 1763726410000,
      remark: 'Counter 3',
    });
    expect(openPosRequest(server.requests[0]!).object).toEqual({
      headMerchantId: '256621000000001',
      merchantId: '256621000000002',
      outOrderNo: 'CP-1',
    });
    await pos.queryOrder({ orderNo: '2401' });
    expect(openPosRequest(server.requests[1]!).object).toEqual({
      headMerchantId: '256621000000001',
      merchantId: '256621000000002',
      orderNo: '2401',
    });
    await expect(pos.queryOrder({ outOrderNo: 'a', orderNo: 'b' } as never)).rejects.toMatchObject({
      code: 'BAD_ARGUMENTS',
    });
    await expect(pos.queryOrder({} as never)).rejects.toMatchObject({ code: 'BAD_ARGUMENTS' });
    expect(server.requests).toHaveLength(2);
  });

  it('queryOrder: an unsigned "order not exist" answer means null', async () => {
    const { pos } = await client((_req, res) =>
      sendJson(res, 200, { code: '50002', message: 'order not exist', data: null }),
    );
    expect(await pos.queryOrder({ orderNo: 'nope' })).toBeNull();
  });

  it('queryOrder: a signed answer with unexpected fields is a bad response', async () => {
    const { pos } = await client((_req, res) =>
      sendJson(res, 200, posAnswer('00000', 'SUCCESSFUL', { ...details, amount: '12.345' })),
    );
    expect((await rejection(pos.queryOrder({ orderNo: '2401' }))).details).toMatchObject({ reason: 'schema' });
  });

  it('depositCallbackStatus by opayOrderNo or checkoutOrderNo', async () => {
    const { pos, server } = await client((_req, res) =>
      sendJson(res, 200, posAnswer('00000', 'SUCCESSFUL', { headMerchantId: 'H', httpCode: 200, httpMessage: 'OK' })),
    );
    expect(await pos.depositCallbackStatus({ opayOrderNo: '2401' })).toEqual({
      headMerchantId: 'H',
      httpCode: '200',
      httpMessage: 'OK',
    });
    await pos.depositCallbackStatus({ checkoutOrderNo: 'C1' });
    expect(server.requests.map((r) => r.url)).toEqual([
      '/openApi/order/checkout/depositStatisticAccountCallBack',
      '/openApi/order/checkout/depositStatisticAccountCallBack',
    ]);
    expect(openPosRequest(server.requests[1]!).object).toMatchObject({ checkoutOrderNo: 'C1' });
  });

  it('missing keys fail before anything is sent, naming the setting', async () => {
    server = await startTestServer((_req, res) => sendJson(res, 200, {}));
    const cfg = testConfig({ posBaseUrl: server.url });
    const pos = createPosClient(
      { ...cfg, secrets: { ...cfg.secrets, merchantPrivateKey: '' } },
      { logger: memoryLogger() },
    );
    const e = await rejection(pos.createOrder({ outOrderNo: 'a', amountKobo: 100, orderExpireSeconds: 60, sn: 'S' }));
    expect(e).toMatchObject({ code: 'PROVIDER_NOT_CONFIGURED', details: { setting: 'merchantPrivateKey' } });
    const bad = createPosClient(
      { ...cfg, secrets: { ...cfg.secrets, providerPublicKey: 'not a key!' } },
      { logger: memoryLogger() },
    );
    expect(await rejection(bad.queryOrder({ orderNo: '1' }))).toMatchObject({
      code: 'PROVIDER_NOT_CONFIGURED',
      details: { setting: 'providerPublicKey', problem: 'invalid' },
    });
    const badHeader = createPosClient(
      { ...cfg, secrets: { ...cfg.secrets, posClientAuthKey: 'key with\nnewline' } },
      { logger: memoryLogger() },
    );
    expect(await rejection(badHeader.queryOrder({ orderNo: '1' }))).toMatchObject({
      code: 'PROVIDER_NOT_CONFIGURED',
      details: { setting: 'posClientAuthKey', problem: 'invalid' },
    });
    expect(server.requests).toHaveLength(0);
  });
});
