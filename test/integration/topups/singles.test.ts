// Single top-ups through the real bills client and the sandbox over loopback: airtime and betting
// to SUCCESS and to FAIL, refusals before anything is sent, the customer check, and submits whose
// answer is lost (settled by a status inquiry, never sent twice).
import { describe, expect, it } from 'vitest';
import { isAppError } from '../../../shared/errors';
import { final, proxyAnswer, rigsClosedAfterEach, until } from './harness';

const rig = rigsClosedAfterEach();

async function refusal(p: Promise<unknown>): Promise<{ code: string; fields: Record<string, string> }> {
  try {
    await p;
  } catch (e) {
    if (!isAppError(e)) throw e;
    return { code: e.code, fields: (e.details?.fields as Record<string, string>) ?? {} };
  }
  throw new Error('expected a refusal');
}

describe('single airtime', () => {
  it('goes to SUCCESS: the typed number normalised, kobo on the wire, a readable reference, journaled first', async () => {
    const r = await rig();
    const v = await r.service.submit({
      serviceType: 'airtime',
      provider: 'MTN',
      customerId: '0803 123 4567',
      amount: '1,500',
    });
    expect(v).toMatchObject({
      state: 'sending',
      attempts: 1,
      customerId: '+2348031234567',
      amountKobo: 150_000,
      batchId: null,
    });
    expect(v.reference).toMatch(/^COU1-T\d{6}-\d{4}$/);
    const done = await final(r.service, v.id);
    expect(done).toMatchObject({ state: 'success', providerStatus: 'SUCCESS', errorMsg: '' });
    expect(done.orderNo).toMatch(/^\d{18}$/);
    const [t] = r.sandbox.listTopups();
    expect(t).toMatchObject({
      reference: v.reference,
      serviceType: 'airtime',
      provider: 'MTN',
      customerId: '+2348031234567',
      amountKobo: 150_000,
      status: 'SUCCESS',
    });
    expect(r.bulkBills()).toHaveLength(1);
    expect(r.service.journal.history(v.id).map((h) => h.to)).toEqual(['sending', 'pending', 'success']);
  });

  it('goes to FAIL with the provider’s errorMsg', async () => {
    const r = await rig();
    const v = await r.service.submit({
      serviceType: 'airtime',
      provider: 'GLO',
      customerId: '+234 800 000 0404',
      amount: '200',
    });
    const done = await final(r.service, v.id);
    expect(done).toMatchObject({ state: 'fail', providerStatus: 'FAIL', errorMsg: 'Recipient number is barred' });
  });

  it('refuses a bad number or an amount out of bounds before anything is sent', async () => {
    const r = await rig();
    expect(
      await refusal(
        r.service.submit({ serviceType: 'airtime', provider: 'MTN', customerId: '0803 123 456', amount: '500' }),
      ),
    ).toEqual({
      code: 'VALIDATION',
      fields: { customerId: expect.stringMatching(/Too short/) },
    });
    expect(
      await refusal(
        r.service.submit({ serviceType: 'airtime', provider: 'AIR', customerId: '08031234567', amount: '20' }),
      ),
    ).toEqual({
      code: 'VALIDATION',
      fields: { amount: 'Airtel airtime: the smallest amount is ₦50.00' },
    });
    expect(
      await refusal(
        r.service.submit({ serviceType: 'airtime', provider: 'XYZ', customerId: '08031234567', amount: '100' }),
      ),
    ).toMatchObject({ fields: { provider: expect.any(String) } });
    expect(await refusal(r.service.submit({ serviceType: 'lottery' }))).toMatchObject({ code: 'VALIDATION' });
    expect(r.bulkBills()).toEqual([]);
    expect(r.sandbox.listTopups()).toEqual([]);
    expect(r.service.recent()).toEqual([]);
  });
});

describe('single betting', () => {
  it('checks the customer, then pays to SUCCESS with the name kept', async () => {
    const r = await rig();
    const c = await r.service.checkCustomer({ provider: 'bet9ja', customerId: ' 20001 ' });
    expect(c).toEqual({
      provider: 'BET9JA',
      customerId: '20001',
      firstName: 'Chinedu',
      lastName: 'Okafor',
      userName: 'chinedu01',
    });
    const v = await r.service.submit({
      serviceType: 'betting',
      provider: 'BET9JA',
      customerId: '20001',
      amount: '2500',
    });
    expect(v.customerName).toBe('Chinedu Okafor (chinedu01)');
    expect(await final(r.service, v.id)).toMatchObject({ state: 'success', amountKobo: 250_000 });
  });

  it('goes to FAIL with the provider’s errorMsg', async () => {
    const r = await rig();
    const v = await r.service.submit({
      serviceType: 'betting',
      provider: 'NAIRABET',
      customerId: 'nb-40404',
      amount: '1000',
    });
    expect(await final(r.service, v.id)).toMatchObject({
      state: 'fail',
      errorMsg: 'Customer account is suspended at the provider',
    });
  });

  it('says when the provider does not know the customer, next to the field', async () => {
    const r = await rig();
    expect(await refusal(r.service.checkCustomer({ provider: 'BET9JA', customerId: '99999' }))).toEqual({
      code: 'VALIDATION',
      fields: {
        customerId: expect.stringMatching(
          /^BET9JA does not know this customer id \(customer "99999" not found at BET9JA\)$/,
        ),
      },
    });
    expect(await refusal(r.service.checkCustomer({ provider: 'NOPE', customerId: '1' }))).toMatchObject({
      fields: { provider: expect.any(String) },
    });
  });

  it('refuses an amount outside the provider’s bounds before sending', async () => {
    const r = await rig();
    expect(
      await refusal(
        r.service.submit({ serviceType: 'betting', provider: 'BET9JA', customerId: '20001', amount: '99' }),
      ),
    ).toEqual({
      code: 'VALIDATION',
      fields: { amount: 'BET9JA: the smallest amount is ₦100.00' },
    });
    expect(
      await refusal(
        r.service.submit({
          serviceType: 'betting',
          provider: 'SPORTYBET',
          customerId: '8030000001',
          amount: '200,001',
        }),
      ),
    ).toEqual({
      code: 'VALIDATION',
      fields: { amount: 'SPORTYBET: the largest amount is ₦200,000.00' },
    });
    expect(r.bulkBills()).toEqual([]);
  });

  it('keeps the providers list with its fetch time, and shows it when the provider is unreachable', async () => {
    const r = await rig();
    expect(r.service.providers()).toEqual({ providers: [], fetchedAt: null, refreshError: null });
    const fresh = await r.service.refreshProviders();
    expect(fresh.providers.map((p) => [p.provider, p.minAmountKobo, p.maxAmountKobo])).toEqual([
      ['BET9JA', 10_000, 50_000_000],
      ['NAIRABET', null, null],
      ['SPORTYBET', 5_000, 20_000_000],
    ]);
    expect(fresh.fetchedAt).toBeGreaterThan(0);
    r.config = { ...r.config, billsBaseUrl: 'http://127.0.0.1:9/api/v3' };
    const offline = await r.service.refreshProviders();
    expect(offline.providers).toHaveLength(3);
    expect(offline.fetchedAt).toBe(fresh.fetchedAt);
    expect(offline.refreshError).toMatch(/Could not connect/);
  });
});

describe('a submit whose answer is lost', () => {
  it('commit-then-drop: the reference is asked about and settled, never sent again', async () => {
    const r = await rig();
    r.sandbox.setFaults([{ path: '/api/v3/bills/bulk-bills', kind: 'commitThenDrop', times: 1 }]);
    const v = await r.service.submit({
      serviceType: 'airtime',
      provider: 'MTN',
      customerId: '08031234567',
      amount: '500',
    });
    await until(r.service, () => r.service.get(v.id).state === 'unknown', 'unknown');
    const done = await final(r.service, v.id);
    expect(done).toMatchObject({ state: 'success', attempts: 1 });
    expect(r.bulkBills()).toHaveLength(1);
    expect(r.sandbox.listTopups()).toHaveLength(1);
  });

  it('HTTP 500 before the provider recorded it: the inquiry says it does not exist, so the same reference goes again', async () => {
    const r = await rig();
    r.sandbox.setFaults([{ path: '/api/v3/bills/bulk-bills', kind: 'http500', times: 1 }]);
    const v = await r.service.submit({
      serviceType: 'airtime',
      provider: 'MTN',
      customerId: '08031234567',
      amount: '500',
    });
    const done = await final(r.service, v.id);
    expect(done).toMatchObject({ state: 'success', attempts: 2 });
    const sends = r.bulkBills();
    expect(sends.map((s) => [s.refs, s.status])).toEqual([
      [[v.reference], 500],
      [[v.reference], 200],
    ]);
    // The inquiry came between the two sends.
    expect(r.proxy.seen.map((s) => s.path.split('/').pop())).toEqual([
      'bulk-bills',
      'bulk-status',
      'bulk-bills',
      ...r.proxy.seen.slice(3).map(() => 'bulk-status'),
    ]);
    expect(r.sandbox.listTopups()).toHaveLength(1);
  });

  it('a timeout is settled by inquiry: one record at the provider whatever arrives first', async () => {
    const r = await rig({ config: { requestTimeoutMs: 1000 } });
    r.sandbox.setFaults([{ path: '/api/v3/bills/bulk-bills', kind: 'latency', latencyMs: 1500, times: 1 }]);
    const v = await r.service.submit({
      serviceType: 'airtime',
      provider: 'MTN',
      customerId: '08031234567',
      amount: '500',
    });
    await until(r.service, () => r.service.get(v.id).state === 'unknown', 'unknown');
    const done = await final(r.service, v.id);
    expect(done.state).toBe('success');
    // The delayed original reaches the sandbox too: it must not make a second record.
    const first = r.proxy.seen.find((s) => s.path.endsWith('/bulk-bills'))!;
    const late = await proxyAnswer(r, (s) => s === first);
    expect(late.answer).toMatch(/already used/);
    expect(r.sandbox.listTopups().filter((t) => t.reference === v.reference)).toHaveLength(1);
    expect(r.sandbox.listTopups()).toHaveLength(1);
  });

  it('a provider that cannot be reached: not sent, saying so, nothing recorded', async () => {
    const r = await rig();
    r.config = { ...r.config, billsBaseUrl: 'http://127.0.0.1:9/api/v3' };
    const v = await r.service.submit({
      serviceType: 'airtime',
      provider: 'MTN',
      customerId: '08031234567',
      amount: '500',
    });
    const done = await final(r.service, v.id);
    expect(done.state).toBe('not_sent');
    expect(done.errorMsg).toMatch(/^Not sent: Could not connect to the payment provider/);
    expect(r.sandbox.listTopups()).toEqual([]);
  });
});
