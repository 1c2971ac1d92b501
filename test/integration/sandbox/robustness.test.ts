// Bad input never crashes the sandbox: malformed JSON, wrong content type, oversized bodies,
// unknown paths, wrong methods and garbage on the socket each get a clear answer, and it keeps
// serving. Also the control API's listings and reset.
import { connect } from 'node:net';
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../sandbox';
import { IDS, billsCall, orderParams, posCall, rawRequest, testConfig } from '../../helpers/sandbox-client-helpers';

let sb: Sandbox | null = null;
afterEach(async () => {
  await sb?.close();
  sb = null;
});

async function stillServing(): Promise<void> {
  const r = await billsCall(sb!, 'betting-providers', undefined);
  expect(r.json.code).toBe('00000');
}

const billsHeaders = { Authorization: `Bearer ${IDS.billsPublicKey}`, MerchantId: IDS.billsMerchantId };

describe('bad input', () => {
  it('malformed JSON and non-object bodies get 400 with code 00002', async () => {
    sb = await startSandbox(testConfig());
    const bad = await rawRequest(`${sb.billsBaseUrl}/bills/validate`, {
      headers: { ...billsHeaders, 'Content-Type': 'application/json' },
      body: '{"serviceType": "betting",',
    });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ code: '00002', data: null, message: expect.stringMatching(/not valid JSON/) });
    const arr = await rawRequest(`${sb.billsBaseUrl}/bills/validate`, {
      headers: { ...billsHeaders, 'Content-Type': 'application/json' },
      body: '[1,2]',
    });
    expect(arr.json.message).toMatch(/JSON object/);
    const posBad = await rawRequest(`${sb.posBaseUrl}/openApi/order/checkout/createOrder`, {
      headers: {
        'Content-Type': 'application/json',
        clientAuthKey: IDS.clientAuthKey,
        version: 'V1.0.1',
        bodyFormat: 'JSON',
        timestamp: String(Date.now()),
      },
      body: 'not json',
    });
    expect(posBad.status).toBe(400);
    expect(posBad.json).toMatchObject({ code: '00002', data: null, timestamp: expect.any(String) });
    await stillServing();
  });

  it('a wrong content type gets 415', async () => {
    sb = await startSandbox(testConfig());
    const r = await rawRequest(`${sb.billsBaseUrl}/bills/validate`, {
      headers: { ...billsHeaders, 'Content-Type': 'text/plain' },
      body: '{"serviceType":"betting"}',
    });
    expect(r.status).toBe(415);
    expect(r.json).toMatchObject({ code: '00415', message: expect.stringMatching(/application\/json/) });
    await stillServing();
  });

  it('a declared body over 1 MB gets 413 without being read', async () => {
    sb = await startSandbox(testConfig());
    const r = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        `${sb!.billsBaseUrl}/bills/validate`,
        {
          method: 'POST',
          agent: false,
          headers: { ...billsHeaders, 'Content-Type': 'application/json', 'Content-Length': String(2 * 1024 * 1024) },
        },
        (res) => {
          let body = '';
          res.on('data', (c) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.write('{"x":"'); // the rest never comes: the answer must not wait for it
    });
    expect(r.status).toBe(413);
    expect(JSON.parse(r.body)).toMatchObject({ code: '00413', data: null });
    await stillServing();
  });

  it('a streamed (chunked) body over 1 MB gets 413 once it passes the limit', async () => {
    sb = await startSandbox(testConfig());
    const r = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      let answered = false;
      const req = request(
        `${sb!.billsBaseUrl}/bills/validate`,
        { method: 'POST', agent: false, headers: { ...billsHeaders, 'Content-Type': 'application/json' } },
        (res) => {
          answered = true;
          let body = '';
          res.on('data', (c) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      // Writing may fail once the server has answered and closed: that is expected.
      req.on('error', (e) => (answered ? undefined : reject(e)));
      const chunk = Buffer.alloc(64 * 1024, 'a');
      let sent = 0;
      const pump = () => {
        while (sent < 3 * 1024 * 1024 && !answered) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
        if (!answered) req.end();
      };
      pump();
    });
    expect(r.status).toBe(413);
    await stillServing();
  });

  it('unknown paths get 404, wrong methods 405 with Allow', async () => {
    sb = await startSandbox(testConfig());
    const nf = await rawRequest(`${sb.url}/api/v3/bills/status`, { headers: billsHeaders, body: '' });
    expect(nf.status).toBe(404);
    expect(nf.json).toMatchObject({ code: '00404', message: expect.stringMatching(/no such path/) });
    const get = await rawRequest(`${sb.url}/openApi/order/checkout/createOrder`, { method: 'GET' });
    expect(get.status).toBe(405);
    expect(get.headers.allow).toBe('POST');
    expect(get.json.code).toBe('00405');
    const ctl = await rawRequest(`${sb.url}/_sandbox/nothing`, { method: 'GET' });
    expect(ctl.status).toBe(404);
    const ctlMethod = await rawRequest(`${sb.url}/_sandbox/reset`, { method: 'GET' });
    expect(ctlMethod.status).toBe(405);
    await stillServing();
  });

  it('garbage on the socket gets 400 and the server keeps serving', async () => {
    sb = await startSandbox(testConfig());
    const reply = await new Promise<string>((resolve, reject) => {
      const s = connect(sb!.port, '127.0.0.1', () => s.write('HELLO THERE\r\n\r\n'));
      let data = '';
      s.on('data', (c) => (data += c));
      s.on('end', () => resolve(data));
      s.on('error', reject);
    });
    expect(reply).toMatch(/^HTTP\/1\.1 400/);
    await stillServing();
  });
});

describe('control API listings', () => {
  it('lists orders and top-ups, shows terminal screens, and reset empties them', async () => {
    sb = await startSandbox(testConfig());
    const { data } = await posCall(sb, 'createOrder', orderParams({ outOrderNo: 'L-1', orderExpireTime: 120 }));
    await billsCall(sb, 'bulk-bills', {
      serviceType: 'betting',
      bulkData: [{ reference: 'L-t', provider: 'BET9JA', customerId: '20001', amount: '50000' }],
    });
    const orders = await rawRequest(`${sb.url}/_sandbox/orders`, { method: 'GET' });
    expect(orders.json.data.posOrders).toEqual([
      expect.objectContaining({ orderNo: data.orderNo, outOrderNo: 'L-1', status: 'PENDING', amountKobo: 350000 }),
    ]);
    expect(orders.json.data.topups).toEqual([expect.objectContaining({ reference: 'L-t', amountKobo: 50000 })]);
    const screens = await rawRequest(`${sb.url}/_sandbox/terminals`, { method: 'GET' });
    expect(screens.json.data).toHaveLength(2);
    expect(screens.json.data[0]).toMatchObject({
      sn: IDS.terminalSn,
      state: 'awaiting-card',
      order: { outOrderNo: 'L-1', amount: '3500.00', secondsLeft: expect.any(Number) },
    });
    expect(screens.json.data[0].order.secondsLeft).toBeGreaterThan(100);
    const unknown = await rawRequest(`${sb.url}/_sandbox/terminals/NOPE`, { method: 'GET' });
    expect(unknown.status).toBe(404);
    sb.reset();
    expect(sb.listPosOrders()).toEqual([]);
    expect(sb.listTopups()).toEqual([]);
    expect(sb.pendingTimers()).toBe(0);
    expect(sb.terminalScreen(IDS.terminalSn).state).toBe('idle');
  });
});
