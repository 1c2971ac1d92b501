// Fault injection over raw HTTP: every kind, for the next N calls or at a seeded rate, by the
// in-process API, the control API and the config; the control API itself is never faulted.
import { describe, expect, it } from 'vitest';
import { billsCallbackSignature, rsaVerify } from '../../../protocol/crypto';
import { startSandbox, type FaultRule, type Sandbox } from '../../../sandbox';
import {
  IDS,
  billsCall,
  orderParams,
  posCall,
  rawRequest,
  startReceiver,
  testConfig,
  testKeys,
  waitForEvent,
  type Receiver,
} from '../../helpers/sandbox-client-helpers';
import { closeAfterEach } from '../../helpers/close-after-each';

let sb: Sandbox | null = null;
let receiver: Receiver | null = null;
const keep = closeAfterEach((x: { close(): Promise<void> }) => x.close());

const CREATE = '/openApi/order/checkout/createOrder';
const PROVIDERS = '/api/v3/bills/betting-providers';

describe('fault kinds', () => {
  it('latency delays the answer', async () => {
    sb = keep(await startSandbox(testConfig()));
    sb.setFaults([{ path: PROVIDERS, kind: 'latency', latencyMs: 150, times: 1 }]);
    const t0 = performance.now();
    const r = await billsCall(sb, 'betting-providers', undefined);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(145);
    expect(r.json.code).toBe('00000');
  });

  it('HTTP 500 / 502 / 503 answer without doing the work', async () => {
    sb = keep(await startSandbox(testConfig()));
    sb.setFaults([
      { path: CREATE, kind: 'http500', times: 1 },
      { path: CREATE, kind: 'http502', times: 1 },
      { path: CREATE, kind: 'http503', times: 1 },
    ]);
    // Rules are consulted in order; each "times" rule is used up by the call it hits.
    const a = await posCall(sb, 'createOrder', orderParams());
    const b = await posCall(sb, 'createOrder', orderParams());
    const c = await posCall(sb, 'createOrder', orderParams());
    expect([a.status, b.status, c.status]).toEqual([500, 502, 503]);
    expect(a.json).toMatchObject({ code: '99999' });
    expect(b.headers['content-type']).toMatch(/text\/html/);
    expect(c.text).toMatch(/503/);
    expect(sb.listPosOrders()).toHaveLength(0);
    expect((await posCall(sb, 'createOrder', orderParams())).json.code).toBe('00000');
    expect(sb.listPosOrders()).toHaveLength(1);
  });

  it('drop destroys the connection without doing the work', async () => {
    sb = keep(await startSandbox(testConfig()));
    sb.setFaults([{ path: CREATE, kind: 'drop', times: 1 }]);
    await expect(posCall(sb, 'createOrder', orderParams())).rejects.toThrow(/socket hang up|ECONNRESET/);
    expect(sb.listPosOrders()).toHaveLength(0);
  });

  it('commitThenDrop does the work, then destroys the connection; the retry finds the order', async () => {
    sb = keep(await startSandbox(testConfig()));
    sb.setFaults([{ path: CREATE, kind: 'commitThenDrop', times: 1 }]);
    const params = orderParams();
    await expect(posCall(sb, 'createOrder', params)).rejects.toThrow(/socket hang up|ECONNRESET/);
    expect(sb.listPosOrders()).toHaveLength(1);
    const retry = await posCall(sb, 'createOrder', params);
    expect(retry.json.code).toBe('00005');
    const q = await posCall(sb, 'qryOrderDetail', {
      headMerchantId: IDS.headMerchantId,
      merchantId: IDS.merchantId,
      outOrderNo: params.outOrderNo,
    });
    expect(q.data.status).toBe('PENDING');
  });

  it('commitThenDrop on bulk-bills creates the top-ups', async () => {
    sb = keep(await startSandbox(testConfig()));
    sb.setFaults([{ path: '/api/v3/bills/bulk-bills', kind: 'commitThenDrop', times: 1 }]);
    await expect(
      billsCall(sb, 'bulk-bills', {
        serviceType: 'betting',
        bulkData: [{ reference: 'cd-1', provider: 'BET9JA', customerId: '20001', amount: '50000' }],
      }),
    ).rejects.toThrow();
    expect(sb.listTopups().map((t) => t.reference)).toEqual(['cd-1']);
  });

  it('tamperSign corrupts the response signature, and the work is done', async () => {
    sb = keep(await startSandbox(testConfig()));
    sb.setFaults([{ path: CREATE, kind: 'tamperSign', times: 1 }]);
    const r = await posCall(sb, 'createOrder', orderParams());
    expect(r.status).toBe(200);
    expect(r.json.code).toBe('00000');
    expect(typeof r.json.sign).toBe('string');
    expect(r.signValid).toBe(false);
    expect(r.data.orderNo).toMatch(/^\d{18}$/);
    expect(sb.listPosOrders()).toHaveLength(1);
    expect((await posCall(sb, 'createOrder', orderParams())).signValid).toBe(true);
  });

  it('tamperSign on webhook:pos and webhook:bills corrupts the outgoing signatures', async () => {
    receiver = keep(await startReceiver());
    sb = keep(await startSandbox(testConfig((c) => (c.pos.merchants![0]!.webhookUrl = receiver!.url))));
    sb.setFaults([
      { path: 'webhook:pos', kind: 'tamperSign', times: 1 },
      { path: 'webhook:bills', kind: 'tamperSign', times: 1 },
    ]);
    await posCall(sb, 'createOrder', orderParams());
    sb.present(IDS.terminalSn, 'SUCCESS');
    const [hook] = await receiver.waitFor(1);
    expect(
      rsaVerify(testKeys().provider.publicKey, hook!.json.paramContent + hook!.json.timestamp, hook!.json.sign),
    ).toBe(false);
    await billsCall(sb, 'bulk-bills', {
      serviceType: 'betting',
      callBackUrl: receiver.url,
      bulkData: [{ reference: 'tw-1', provider: 'BET9JA', customerId: '20001', amount: '50000' }],
    });
    const hooks = await receiver.waitFor(2);
    const cb = hooks[1]!.json;
    expect(cb.sha512).toMatch(/^[0-9a-f]{128}$/);
    expect(cb.sha512).not.toBe(billsCallbackSignature(IDS.billsSecretKey, cb.payload));
  });
});

describe('fault selection', () => {
  async function pattern(rule: FaultRule, calls: number): Promise<number[]> {
    sb!.setFaults([rule]);
    const out: number[] = [];
    for (let i = 0; i < calls; i++) out.push((await billsCall(sb!, 'betting-providers', undefined)).status);
    return out;
  }

  it('a seeded rate gives the same sequence every time', async () => {
    sb = keep(await startSandbox(testConfig()));
    const rule: FaultRule = { path: PROVIDERS, kind: 'http503', rate: 0.5, seed: 42 };
    const first = await pattern(rule, 20);
    const second = await pattern(rule, 20);
    expect(second).toEqual(first);
    expect(first).toContain(503);
    expect(first).toContain(200);
    const other = await pattern({ ...rule, seed: 7 }, 20);
    expect(other).not.toEqual(first);
  });

  it('"times" hits the next N calls only; "*" covers every API path but not /_sandbox/', async () => {
    sb = keep(await startSandbox(testConfig()));
    expect(await pattern({ path: PROVIDERS, kind: 'http500', times: 2 }, 4)).toEqual([500, 500, 200, 200]);
    sb.setFaults([{ path: '*', kind: 'http502' }]);
    expect((await posCall(sb, 'qryOrderDetail', {})).status).toBe(502);
    expect((await billsCall(sb, 'validate', {})).status).toBe(502);
    expect((await rawRequest(`${sb.url}/_sandbox/health`, { method: 'GET' })).status).toBe(200);
    sb.clearFaults();
    expect((await billsCall(sb, 'betting-providers', undefined)).status).toBe(200);
  });

  it('is set, listed and cleared over the control API; bad rules are refused with the field named', async () => {
    sb = keep(await startSandbox(testConfig()));
    const post = (body: unknown, method = 'POST') =>
      rawRequest(`${sb!.url}/_sandbox/faults`, {
        method,
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    const set = await post({ faults: [{ path: PROVIDERS, kind: 'http503', times: 1 }] });
    expect(set.json.data).toEqual([{ path: PROVIDERS, kind: 'http503', times: 1, remaining: 1, hits: 0 }]);
    expect((await billsCall(sb, 'betting-providers', undefined)).status).toBe(503);
    const listed = await rawRequest(`${sb.url}/_sandbox/faults`, { method: 'GET' });
    expect(listed.json.data[0]).toMatchObject({ remaining: 0, hits: 1 });
    const bad = await post({ faults: [{ path: PROVIDERS, kind: 'latency' }] });
    expect(bad.status).toBe(400);
    expect(bad.json.message).toMatch(/latencyMs/);
    const unknownKind = await post({ faults: [{ path: PROVIDERS, kind: 'explode' }] });
    expect(unknownKind.status).toBe(400);
    expect(unknownKind.json.message).toMatch(/kind/);
    await post({ faults: [{ path: PROVIDERS, kind: 'http500' }] });
    const cleared = await rawRequest(`${sb.url}/_sandbox/faults`, { method: 'DELETE' });
    expect(cleared.json.data).toEqual([]);
    expect((await billsCall(sb, 'betting-providers', undefined)).status).toBe(200);
  });

  it('comes from the config, and reset() restores it', async () => {
    sb = keep(await startSandbox(testConfig((c) => (c.faults = [{ path: PROVIDERS, kind: 'http500', times: 1 }]))));
    const fault = waitForEvent(sb.events, 'fault');
    expect((await billsCall(sb, 'betting-providers', undefined)).status).toBe(500);
    expect(await fault).toEqual({ path: PROVIDERS, kind: 'http500' });
    expect((await billsCall(sb, 'betting-providers', undefined)).status).toBe(200);
    const reset = await rawRequest(`${sb.url}/_sandbox/reset`, {
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(reset.json.code).toBe('00000');
    expect((await billsCall(sb, 'betting-providers', undefined)).status).toBe(500);
  });
});
