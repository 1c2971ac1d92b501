// Contract: the bills client against the real sandbox over loopback HTTP: every operation on
// success, refusals, tampered signatures, and each injected transport fault.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { memoryLogger } from '../../../shared/logger';
import { createBillsClient, isOutcomeUnknown } from '../../../core/provider';
import type { Conventions } from '../../../shared/settings';
import { startDemoSandbox, type DemoSandbox } from './sandbox-harness';
import { rejection } from './test-server';

let demo: DemoSandbox;
beforeAll(async () => {
  demo = await startDemoSandbox((c) => {
    c.bills.settleAfterMs = 0;
  });
});
afterAll(async () => {
  await demo.sandbox.close();
});
afterEach(() => {
  demo.sandbox.clearFaults();
});

const BULK = '/api/v3/bills/bulk-bills';
let n = 0;
const ref = () => `ref-${process.pid}-${Date.now()}-${++n}`;

function client(conv: Partial<Conventions> = {}, over = {}) {
  return createBillsClient(() => demo.clientConfig(conv, over), { logger: memoryLogger() });
}

describe('bills client against the sandbox', () => {
  it('betting providers in kobo, absent limits null', async () => {
    const list = await client().bettingProviders();
    expect(list).toContainEqual({
      provider: 'BET9JA',
      providerLogoUrl: expect.any(String),
      minAmountKobo: 10_000,
      maxAmountKobo: 50_000_000,
    });
    expect(list).toContainEqual({
      provider: 'NAIRABET',
      providerLogoUrl: expect.any(String),
      minAmountKobo: null,
      maxAmountKobo: null,
    });
  });

  it('validate: known customer, unknown customer refused', async () => {
    expect(await client().validate({ provider: 'BET9JA', customerId: '20001' })).toEqual({
      provider: 'BET9JA',
      customerId: '20001',
      firstName: 'Chinedu',
      lastName: 'Okafor',
      userName: 'chinedu01',
    });
    const e = await rejection(client().validate({ provider: 'BET9JA', customerId: 'nobody' }));
    expect(e).toMatchObject({ code: 'PROVIDER_REFUSED', details: { providerCode: '00004' } });
  });

  it('bulk-bills judges each item; bulk-status reports them, and unknown ones as null', async () => {
    const bills = client();
    const [ok, suspended, tooSmall] = [ref(), ref(), ref()];
    const results = await bills.bulkBills({
      serviceType: 'betting',
      callBackUrl: 'http://127.0.0.1:9/cb',
      items: [
        { reference: ok, provider: 'BET9JA', customerId: '20001', amountKobo: 50_000 },
        { reference: suspended, provider: 'NAIRABET', customerId: 'nb-40404', amountKobo: 50_000 },
        { reference: tooSmall, provider: 'BET9JA', customerId: '20002', amountKobo: 100 },
      ],
    });
    expect(results.map((r) => [r.reference, r.status])).toEqual([
      [ok, 'SUCCESS'],
      [suspended, 'FAIL'],
      [tooSmall, 'FAIL'],
    ]);
    expect(results[2]!.errorMsg).toMatch(/minimum/);
    const status = await bills.bulkStatus({
      serviceType: 'betting',
      items: [{ reference: ok, orderNo: results[0]!.orderNo! }, { reference: 'never-sent' }],
    });
    expect(status[0]).toMatchObject({ reference: ok, status: 'SUCCESS', orderNo: results[0]!.orderNo });
    expect(status[1]).toMatchObject({ reference: 'never-sent', status: null, errorMsg: 'order does not exist' });
  });

  it('airtime top-ups, and bulk-status signed when Settings say so', async () => {
    const r = ref();
    const [item] = await client().bulkBills({
      serviceType: 'airtime',
      callBackUrl: 'http://127.0.0.1:9/cb',
      items: [{ reference: r, provider: 'MTN', customerId: '+2348012345678', amountKobo: 10_000 }],
    });
    expect(item).toMatchObject({ reference: r, status: 'SUCCESS' });
    const [s] = await client({ bulkStatusAuth: 'signature' }).bulkStatus({
      serviceType: 'airtime',
      items: [{ reference: r }],
    });
    expect(s).toMatchObject({ reference: r, status: 'SUCCESS' });
  });

  it('a signature made with the wrong secret is refused by the sandbox: PROVIDER_AUTH', async () => {
    const bad = client({}, { secrets: { ...demo.clientConfig().secrets, billsSecretKey: 'OPAYPRV-wrong' } });
    const e = await rejection(
      bad.bulkBills({
        serviceType: 'betting',
        callBackUrl: 'http://127.0.0.1:9/cb',
        items: [{ reference: ref(), provider: 'BET9JA', customerId: '20001', amountKobo: 50_000 }],
      }),
    );
    expect(e).toMatchObject({ code: 'PROVIDER_AUTH', details: { httpStatus: 401, outcomeUnknown: false } });
  });

  it('base64 signatures are refused by a provider that wants hex', async () => {
    const e = await rejection(
      client({ billsSignatureEncoding: 'base64' }).bulkBills({
        serviceType: 'betting',
        callBackUrl: 'http://127.0.0.1:9/cb',
        items: [{ reference: ref(), provider: 'BET9JA', customerId: '20001', amountKobo: 50_000 }],
      }),
    );
    expect(e.code).toBe('PROVIDER_AUTH');
  });

  it('a wrong public key is PROVIDER_AUTH', async () => {
    expect(
      (
        await rejection(
          client(
            {},
            { secrets: { ...demo.clientConfig().secrets, billsPublicKey: 'OPAYPUB-nope' } },
          ).bettingProviders(),
        )
      ).code,
    ).toBe('PROVIDER_AUTH');
  });

  it('commit-then-drop on bulk-bills: outcome unknown, and bulk-status finds the top-up', async () => {
    demo.sandbox.setFaults([{ path: BULK, kind: 'commitThenDrop', times: 1 }]);
    const r = ref();
    const e = await rejection(
      client().bulkBills({
        serviceType: 'betting',
        callBackUrl: 'http://127.0.0.1:9/cb',
        items: [{ reference: r, provider: 'BET9JA', customerId: '20001', amountKobo: 50_000 }],
      }),
    );
    expect(e.code).toBe('PROVIDER_TIMEOUT');
    expect(isOutcomeUnknown(e)).toBe(true);
    const [s] = await client().bulkStatus({ serviceType: 'betting', items: [{ reference: r }] });
    expect(s).toMatchObject({ reference: r, status: 'SUCCESS' });
  });

  it('http500, http503 and drop faults map to HTTP / TIMEOUT, each sent once', async () => {
    const items = () => [{ reference: ref(), provider: 'BET9JA', customerId: '20001', amountKobo: 50_000 }];
    demo.sandbox.setFaults([{ path: BULK, kind: 'http500', times: 1 }]);
    expect(
      await rejection(
        client().bulkBills({ serviceType: 'betting', callBackUrl: 'http://127.0.0.1:9/cb', items: items() }),
      ),
    ).toMatchObject({ code: 'PROVIDER_HTTP', details: { httpStatus: 500, outcomeUnknown: true } });
    demo.sandbox.setFaults([{ path: BULK, kind: 'http503', times: 1 }]);
    expect(
      await rejection(
        client().bulkBills({ serviceType: 'betting', callBackUrl: 'http://127.0.0.1:9/cb', items: items() }),
      ),
    ).toMatchObject({ code: 'PROVIDER_HTTP', details: { httpStatus: 503 } });
    demo.sandbox.setFaults([{ path: BULK, kind: 'drop', times: 1 }]);
    expect(
      (
        await rejection(
          client().bulkBills({ serviceType: 'betting', callBackUrl: 'http://127.0.0.1:9/cb', items: items() }),
        )
      ).code,
    ).toBe('PROVIDER_TIMEOUT');
    expect(demo.sandbox.listFaults()[0]).toMatchObject({ hits: 1, remaining: 0 });
  });
});

describe('bills client against a sandbox answering the bare form', () => {
  let bare: DemoSandbox;
  beforeAll(async () => {
    bare = await startDemoSandbox((c) => {
      c.bills.responseForm = 'bare';
      c.bills.settleAfterMs = 0;
    });
  });
  afterAll(async () => {
    await bare.sandbox.close();
  });

  it('reads bare arrays and objects the same way', async () => {
    const bills = createBillsClient(bare.clientConfig(), { logger: memoryLogger() });
    expect((await bills.bettingProviders()).length).toBe(3);
    expect((await bills.validate({ provider: 'NAIRABET', customerId: 'nb-30002' })).firstName).toBe('Ngozi');
    const [r] = await bills.bulkBills({
      serviceType: 'betting',
      callBackUrl: 'http://127.0.0.1:9/cb',
      items: [{ reference: ref(), provider: 'BET9JA', customerId: '20001', amountKobo: 50_000 }],
    });
    expect(r!.status).toBe('SUCCESS');
  });
});
