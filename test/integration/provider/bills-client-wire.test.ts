// The bills client's requests and answers on the wire: headers, canonical bytes, the HMAC over
// exactly those bytes, bulk-status auth per Settings, and answers in both forms.
import { afterEach, describe, expect, it } from 'vitest';
import { canonicalJson, hmacSha512 } from '../../../protocol/crypto';
import { memoryLogger } from '../../../shared/logger';
import { createBillsClient } from '../../../core/provider';
import type { Conventions } from '../../../shared/settings';
import { billsSecretKey, testConfig } from '../../unit/provider/fixtures';
import { rejection, sendJson, startTestServer, type Handler, type TestServer } from './test-server';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function client(handler: Handler, conv: Partial<Conventions> = {}) {
  server = await startTestServer(handler);
  return {
    bills: createBillsClient(testConfig({ billsBaseUrl: `${server.url}/api/v3` }, conv), { logger: memoryLogger() }),
    server,
  };
}

const items = [
  { reference: 'ref-0001', provider: 'BET9JA', customerId: '20001', amountKobo: 50000 },
  { reference: 'ref-0002', provider: 'NAIRABET', customerId: 'nb-30002', amountKobo: 150000 },
];

describe('bills client on the wire', () => {
  it('bulk-bills: canonical body, Bearer HMAC-SHA512 hex of exactly the sent bytes, MerchantId', async () => {
    const { bills, server } = await client((_req, res) =>
      sendJson(res, 200, {
        code: '00000',
        message: 'SUCCESSFUL',
        data: [
          { orderNo: '1', reference: 'ref-0001', status: 'SUCCESS', errorMsg: '' },
          { orderNo: '2', reference: 'ref-0002', status: 'FAIL', errorMsg: 'Invalid customer' },
        ],
      }),
    );
    const r = await bills.bulkBills({
      serviceType: 'betting',
      callBackUrl: 'https://merchant.example/callback',
      items,
    });
    expect(r).toEqual([
      { orderNo: '1', reference: 'ref-0001', status: 'SUCCESS', errorMsg: '' },
      { orderNo: '2', reference: 'ref-0002', status: 'FAIL', errorMsg: 'Invalid customer' },
    ]);
    const req = server.requests[0]!;
    expect(req.url).toBe('/api/v3/bills/bulk-bills');
    expect(req.headers.merchantid).toBe('256621000000001');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.body).toBe(canonicalJson(JSON.parse(req.body)));
    expect(req.headers.authorization).toBe(`Bearer ${hmacSha512(billsSecretKey, req.body)}`);
    expect(JSON.parse(req.body).bulkData[0]).toEqual({
      amount: '50000',
      country: 'NG',
      currency: 'NGN',
      customerId: '20001',
      provider: 'BET9JA',
      reference: 'ref-0001',
    });
  });

  it('base64 signatures when Settings say so', async () => {
    const { bills, server } = await client((_req, res) => sendJson(res, 200, []), { billsSignatureEncoding: 'base64' });
    await bills.bulkBills({
      serviceType: 'airtime',
      callBackUrl: 'https://m/cb',
      items: [{ reference: 'a1', provider: 'MTN', customerId: '+2348012345678', amountKobo: 10000 }],
    });
    expect(server.requests[0]!.headers.authorization).toBe(
      `Bearer ${hmacSha512(billsSecretKey, server.requests[0]!.body, 'base64')}`,
    );
  });

  it('betting-providers and validate use the public key', async () => {
    const { bills, server } = await client((req, res) => {
      if (req.url.endsWith('/betting-providers'))
        sendJson(res, 200, [
          { provider: 'BET9JA', providerLogoUrl: 'https://l', minAmount: { currency: 'NGN', amount: 10000 } },
        ]);
      else
        sendJson(res, 200, {
          code: '00000',
          message: 'SUCCESSFUL',
          data: { provider: 'BET9JA', customerId: '20001', firstName: 'Ada', lastName: 'Obi', userName: 'ada' },
        });
    });
    expect(await bills.bettingProviders()).toEqual([
      { provider: 'BET9JA', providerLogoUrl: 'https://l', minAmountKobo: 10000, maxAmountKobo: null },
    ]);
    expect(await bills.validate({ provider: 'BET9JA', customerId: '20001' })).toEqual({
      provider: 'BET9JA',
      customerId: '20001',
      firstName: 'Ada',
      lastName: 'Obi',
      userName: 'ada',
    });
    expect(server.requests.map((r) => r.headers.authorization)).toEqual([
      'Bearer OPAYPUB-test-public',
      'Bearer OPAYPUB-test-public',
    ]);
    expect(server.requests[0]!.body).toBe('');
    expect(server.requests[1]!.body).toBe('{"customerId":"20001","provider":"BET9JA","serviceType":"betting"}');
  });

  it('bulk-status auth follows Settings (public key by default, or signature)', async () => {
    const answer: Handler = (_req, res) =>
      sendJson(res, 200, [{ orderNo: null, reference: 'x', status: null, errorMsg: 'order does not exist' }]);
    const a = await client(answer);
    expect(await a.bills.bulkStatus({ serviceType: 'betting', items: [{ reference: 'x' }] })).toEqual([
      { orderNo: null, reference: 'x', status: null, errorMsg: 'order does not exist' },
    ]);
    expect(a.server.requests[0]!.headers.authorization).toBe('Bearer OPAYPUB-test-public');
    expect(a.server.requests[0]!.body).toBe('{"bulkStatusRequest":[{"reference":"x"}],"serviceType":"betting"}');
    await a.server.close();
    const b = await client(answer, { bulkStatusAuth: 'signature' });
    await b.bills.bulkStatus({ serviceType: 'betting', items: [{ reference: 'x', orderNo: '9' }] });
    expect(b.server.requests[0]!.headers.authorization).toBe(
      `Bearer ${hmacSha512(billsSecretKey, b.server.requests[0]!.body)}`,
    );
  });

  it('a refusal in the envelope becomes PROVIDER_REFUSED with the provider code', async () => {
    const { bills } = await client((_req, res) =>
      sendJson(res, 200, {
        code: '00003',
        message: 'Not support this merchant service type. [A.A.I.00003]',
        data: null,
      }),
    );
    expect(await rejection(bills.bettingProviders())).toMatchObject({
      code: 'PROVIDER_REFUSED',
      details: { providerCode: '00003' },
    });
  });

  it('HTTP 401 is PROVIDER_AUTH', async () => {
    const { bills } = await client((_req, res) => sendJson(res, 401, { code: '00001', message: 'Unauthorized' }));
    expect((await rejection(bills.validate({ provider: 'B', customerId: '1' }))).code).toBe('PROVIDER_AUTH');
  });

  it('missing secret key: PROVIDER_NOT_CONFIGURED before sending', async () => {
    server = await startTestServer((_req, res) => sendJson(res, 200, []));
    const cfg = testConfig({ billsBaseUrl: `${server.url}/api/v3` });
    const bills = createBillsClient(
      { ...cfg, secrets: { ...cfg.secrets, billsSecretKey: undefined } },
      { logger: memoryLogger() },
    );
    expect(
      await rejection(bills.bulkBills({ serviceType: 'betting', callBackUrl: 'https://m/cb', items })),
    ).toMatchObject({ code: 'PROVIDER_NOT_CONFIGURED', details: { setting: 'billsSecretKey' } });
    expect(server.requests).toHaveLength(0);
  });
});
