// The sandbox's bills API over raw HTTP: auth, providers, validation, item-by-item judgement of
// bulk-bills, the INITIAL -> PENDING -> SUCCESS/FAIL life, bulk-status and the callback.
import { describe, expect, it } from 'vitest';
import { billsCallbackSignature, canonicalJson, hmacSha512 } from '../../../protocol/crypto';
import { startSandbox, type Sandbox } from '../../../sandbox';
import {
  IDS,
  billsCall,
  rawRequest,
  startReceiver,
  testConfig,
  waitForEvent,
  type Receiver,
  type Wire,
} from '../../helpers/sandbox-client-helpers';
import { closeAfterEach } from '../../helpers/close-after-each';

let sb: Sandbox | null = null;
let receiver: Receiver | null = null;
const keep = closeAfterEach((x: { close(): Promise<void> }) => x.close());

class FakeClock {
  constructor(public t = 1_790_000_000_000) {}
  now() {
    return this.t;
  }
  advance(ms: number) {
    this.t += ms;
  }
}

const item = (reference: string, provider: string, customerId: string, amount: unknown) => ({
  reference,
  provider,
  customerId,
  amount,
});

describe('bills auth and listings', () => {
  it('lists betting providers with the public key; a provider without bounds has no min/max', async () => {
    sb = keep(await startSandbox(testConfig()));
    const r = await billsCall(sb, 'betting-providers', undefined);
    expect(r.status).toBe(200);
    expect(r.json.code).toBe('00000');
    expect(r.json.data).toEqual([
      {
        provider: 'BET9JA',
        providerLogoUrl: 'https://logo.example/bet9ja.png',
        minAmount: { currency: 'NGN', amount: 10000 },
        maxAmount: { currency: 'NGN', amount: 50000000 },
      },
      { provider: 'NAIRABET', providerLogoUrl: 'https://logo.example/nairabet.png' },
    ]);
  });

  it('refuses a wrong public key, a missing or unknown MerchantId with HTTP 401 and code 00001', async () => {
    sb = keep(await startSandbox(testConfig()));
    for (const r of [
      await billsCall(sb, 'betting-providers', undefined, { auth: { bearer: 'OPAYPUB-wrong' } }),
      await billsCall(sb, 'betting-providers', undefined, { merchantId: null }),
      await billsCall(sb, 'betting-providers', undefined, { merchantId: 'NOPE' }),
      await rawRequest(`${sb.billsBaseUrl}/bills/betting-providers`, { headers: { MerchantId: IDS.billsMerchantId } }),
    ]) {
      expect(r.status).toBe(401);
      expect(r.json).toMatchObject({ code: '00001', data: null });
      expect(r.json.message).toMatch(/MerchantId|public key|Authorization/);
    }
  });

  it('answers the bare form when configured', async () => {
    sb = keep(await startSandbox(testConfig((c) => (c.bills.responseForm = 'bare'))));
    const r = await billsCall(sb, 'betting-providers', undefined);
    expect(Array.isArray(r.json)).toBe(true);
  });

  it('validates a betting customer; unknown customer or provider is refused with 00004', async () => {
    sb = keep(await startSandbox(testConfig()));
    const ok = await billsCall(sb, 'validate', { serviceType: 'betting', provider: 'BET9JA', customerId: '20001' });
    expect(ok.json).toEqual({
      code: '00000',
      message: 'SUCCESSFUL',
      data: {
        provider: 'BET9JA',
        customerId: '20001',
        firstName: 'Chinedu',
        lastName: 'Okafor',
        userName: 'chinedu01',
      },
    });
    const noCustomer = await billsCall(sb, 'validate', {
      serviceType: 'betting',
      provider: 'BET9JA',
      customerId: '99999',
    });
    expect(noCustomer.json).toMatchObject({ code: '00004', data: null });
    expect(noCustomer.json.message).toMatch(/99999.*not found/);
    const noProvider = await billsCall(sb, 'validate', {
      serviceType: 'betting',
      provider: 'ZZBET',
      customerId: '20001',
    });
    expect(noProvider.json.code).toBe('00004');
    expect(noProvider.json.message).toMatch(/ZZBET/);
    const wrongType = await billsCall(sb, 'validate', {
      serviceType: 'airtime',
      provider: 'BET9JA',
      customerId: '20001',
    });
    expect(wrongType.json.code).toBe('00003');
  });
});

describe('bulk-bills judges each item on its own', () => {
  it('gives every bad betting item FAIL with a clear errorMsg and leaves the good ones alone', async () => {
    sb = keep(await startSandbox(testConfig()));
    const r = await billsCall(sb, 'bulk-bills', {
      serviceType: 'betting',
      callBackUrl: 'http://127.0.0.1:9/cb',
      bulkData: [
        item('ok-1', 'BET9JA', '20001', '50000'),
        item('frac', 'BET9JA', '20001', '500.5'),
        item('zero', 'BET9JA', '20001', '0'),
        item('num', 'BET9JA', '20001', 50000),
        item('low', 'BET9JA', '20001', '9999'),
        item('high', 'BET9JA', '20001', '50000001'),
        item('noprov', 'ZZBET', '20001', '50000'),
        item('nocust', 'BET9JA', '77777', '50000'),
        item('ok-1', 'BET9JA', '20001', '60000'),
        item('nobound', 'NAIRABET', 'nb-30002', '1'),
        { ...item('cur', 'BET9JA', '20001', '50000'), currency: 'USD' },
      ],
    });
    expect(r.status).toBe(200);
    expect(r.json.code).toBe('00000');
    const by = Object.fromEntries((r.json.data as Wire[]).map((x, i) => [`${i}:${x.reference}`, x]));
    expect(by['0:ok-1']).toMatchObject({ status: 'INITIAL', errorMsg: '' });
    expect(by['0:ok-1'].orderNo).toMatch(/^\d{18}$/);
    const fails: [string, RegExp][] = [
      ['1:frac', /amount.*whole number of kobo/],
      ['2:zero', /amount.*positive whole number/],
      ['3:num', /amount.*string/],
      ['4:low', /below BET9JA's minimum of 10000/],
      ['5:high', /above BET9JA's maximum of 50000000/],
      ['6:noprov', /unknown betting provider "ZZBET"/],
      ['7:nocust', /customer "77777" not found at BET9JA/],
      ['8:ok-1', /reference "ok-1" was already used/],
      ['10:cur', /currency must be NGN/],
    ];
    for (const [k, msg] of fails) {
      expect(by[k], k).toMatchObject({ status: 'FAIL' });
      expect(by[k].errorMsg, k).toMatch(msg);
    }
    expect(by['9:nobound']).toMatchObject({ status: 'INITIAL', errorMsg: '' });
    // The duplicate did not disturb the original.
    const st = await billsCall(sb, 'bulk-status', {
      serviceType: 'betting',
      bulkStatusRequest: [{ reference: 'ok-1' }],
    });
    expect(st.json.data[0]).toMatchObject({ reference: 'ok-1', orderNo: by['0:ok-1'].orderNo });
    expect(st.json.data[0].status).not.toBe('FAIL');
  });

  it('judges airtime: only AIR/MTN/GLO/ETI and +234 mobile numbers starting 7, 8 or 9', async () => {
    sb = keep(await startSandbox(testConfig()));
    const r = await billsCall(sb, 'bulk-bills', {
      serviceType: 'airtime',
      bulkData: [
        item('a1', 'MTN', '+2348012345678', '10000'),
        item('a2', 'AIR', '+2347012345678', '10000'),
        item('a3', 'GLO', '+2349012345678', '10000'),
        item('a4', 'ETI', '08012345678', '10000'),
        item('a5', 'MTN', '+2346012345678', '10000'),
        item('a6', 'MTN', '+23480123456789', '10000'),
        item('a7', 'BET9JA', '+2348012345678', '10000'),
        item('a8', 'MTN', '+2348012345678', 'ten'),
      ],
    });
    const s = (r.json.data as Wire[]).map((x) => x.status);
    expect(s).toEqual(['INITIAL', 'INITIAL', 'INITIAL', 'FAIL', 'FAIL', 'FAIL', 'FAIL', 'FAIL']);
    expect(r.json.data[3].errorMsg).toMatch(/\+234 form/);
    expect(r.json.data[4].errorMsg).toMatch(/Nigerian mobile number/);
    expect(r.json.data[6].errorMsg).toMatch(/not an airtime provider \(AIR, MTN, GLO or ETI\)/);
    expect(r.json.data[7].errorMsg).toMatch(/amount/);
  });

  it('refuses a reference this merchant already used in an earlier request', async () => {
    sb = keep(await startSandbox(testConfig()));
    await billsCall(sb, 'bulk-bills', { serviceType: 'betting', bulkData: [item('r-1', 'BET9JA', '20001', '50000')] });
    const again = await billsCall(sb, 'bulk-bills', {
      serviceType: 'betting',
      bulkData: [item('r-1', 'BET9JA', '20001', '70000'), item('r-2', 'BET9JA', '20001', '70000')],
    });
    expect(again.json.data[0]).toMatchObject({ status: 'FAIL', errorMsg: expect.stringMatching(/already used/) });
    expect(again.json.data[1]).toMatchObject({ status: 'INITIAL' });
    expect(sb.listTopups().filter((t) => t.reference === 'r-1')).toHaveLength(1);
    expect(sb.listTopups().find((t) => t.reference === 'r-1')?.amountKobo).toBe(50000);
  });

  it('refuses an unsupported serviceType and a bad bulkData as a whole', async () => {
    sb = keep(await startSandbox(testConfig()));
    const st = await billsCall(sb, 'bulk-bills', {
      serviceType: 'electricity',
      bulkData: [item('x', 'BET9JA', '20001', '50000')],
    });
    expect(st.json).toMatchObject({
      code: '00003',
      data: null,
      message: expect.stringMatching(/Not support this merchant service type/),
    });
    const empty = await billsCall(sb, 'bulk-bills', { serviceType: 'betting', bulkData: [] });
    expect(empty.json).toMatchObject({ code: '00002', message: expect.stringMatching(/bulkData/) });
    expect(sb.listTopups()).toHaveLength(0);
  });
});

describe('bulk-bills signature', () => {
  it('refuses a bad signature as a whole and creates nothing', async () => {
    sb = keep(await startSandbox(testConfig()));
    const body = { serviceType: 'betting', bulkData: [item('s-1', 'BET9JA', '20001', '50000')] };
    const wrongKey = await billsCall(sb, 'bulk-bills', body, { secretKey: 'OPAYPRV-wrong' });
    const publicKey = await billsCall(sb, 'bulk-bills', body, { auth: 'publicKey' });
    const text = canonicalJson(body);
    const tampered = await billsCall(sb, 'bulk-bills', undefined, {
      rawBody: text.replace('50000', '90000'),
      auth: { bearer: hmacSha512(IDS.billsSecretKey, text) },
    });
    const upper = await billsCall(sb, 'bulk-bills', undefined, {
      rawBody: text,
      auth: { bearer: hmacSha512(IDS.billsSecretKey, text).toUpperCase() },
    });
    const pretty = JSON.stringify(JSON.parse(text), null, 2);
    const notCanonical = await billsCall(sb, 'bulk-bills', undefined, {
      rawBody: pretty,
      auth: { bearer: hmacSha512(IDS.billsSecretKey, pretty) },
    });
    for (const r of [wrongKey, publicKey, tampered, upper, notCanonical]) {
      expect(r.status).toBe(401);
      expect(r.json).toMatchObject({ code: '00001', data: null });
    }
    expect(notCanonical.json.message).toMatch(/canonical/);
    expect(sb.listTopups()).toHaveLength(0);
    const st = await billsCall(sb, 'bulk-status', {
      serviceType: 'betting',
      bulkStatusRequest: [{ reference: 's-1' }],
    });
    expect(st.json.data[0]).toMatchObject({
      reference: 's-1',
      status: null,
      errorMsg: expect.stringMatching(/does not exist/),
    });
    // The same body, signed right, goes through.
    expect((await billsCall(sb, 'bulk-bills', undefined, { rawBody: text })).json.data[0].status).toBe('INITIAL');
  });

  it('bulk-status takes the public key or the signature, or only the one configured', async () => {
    sb = keep(await startSandbox(testConfig()));
    const body = { serviceType: 'betting', bulkStatusRequest: [{ reference: 'nothing' }] };
    expect((await billsCall(sb, 'bulk-status', body, { auth: 'publicKey' })).status).toBe(200);
    expect((await billsCall(sb, 'bulk-status', body, { auth: 'signature' })).status).toBe(200);
    await sb.close();
    sb = keep(await startSandbox(testConfig((c) => (c.bills.bulkStatusAuth = 'signature'))));
    expect((await billsCall(sb, 'bulk-status', body, { auth: 'publicKey' })).status).toBe(401);
    expect((await billsCall(sb, 'bulk-status', body, { auth: 'signature' })).status).toBe(200);
  });
});

describe('top-up life and callback', () => {
  it('goes INITIAL -> PENDING -> SUCCESS over settleAfterMs, read lazily on the clock', async () => {
    const clock = new FakeClock();
    sb = keep(
      await startSandbox(
        testConfig((c) => (c.bills.settleAfterMs = 10_000)),
        { clock },
      ),
    );
    const created = await billsCall(sb, 'bulk-bills', {
      serviceType: 'betting',
      bulkData: [item('life-1', 'BET9JA', '20001', '50000'), item('life-2', 'NAIRABET', 'nb-40404', '50000')],
    });
    expect(created.json.data.map((x: Wire) => x.status)).toEqual(['INITIAL', 'INITIAL']);
    const status = async () =>
      (
        await billsCall(sb!, 'bulk-status', {
          serviceType: 'betting',
          bulkStatusRequest: [{ reference: 'life-1' }, { reference: 'life-2', orderNo: created.json.data[1].orderNo }],
        })
      ).json.data;
    expect((await status()).map((x: Wire) => x.status)).toEqual(['INITIAL', 'INITIAL']);
    clock.advance(6_000);
    expect((await status()).map((x: Wire) => x.status)).toEqual(['PENDING', 'PENDING']);
    clock.advance(4_000);
    const final = await status();
    expect(final[0]).toMatchObject({ status: 'SUCCESS', errorMsg: '' });
    expect(final[1]).toMatchObject({ status: 'FAIL', errorMsg: 'Customer account is suspended' });
  });

  it('settles by timer and posts a signed callback on SUCCESS only', async () => {
    receiver = keep(await startReceiver());
    sb = keep(await startSandbox(testConfig()));
    const settled = waitForEvent(sb.events, 'topup-settled', (t) => t.reference === 'cb-fail');
    const r = await billsCall(sb, 'bulk-bills', {
      serviceType: 'betting',
      callBackUrl: receiver.url,
      bulkData: [item('cb-ok', 'BET9JA', '20001', '50000'), item('cb-fail', 'NAIRABET', 'nb-40404', '20000')],
    });
    const [cb] = await receiver.waitFor(1);
    await settled;
    const p = cb!.json.payload;
    expect(p).toEqual({
      serviceType: 'betting',
      feeAmount: 0,
      orderAmount: 50000,
      orderNo: r.json.data[0].orderNo,
      createTime: expect.stringMatching(/^\d{13}$/),
      merchantId: IDS.billsMerchantId,
      orderStatus: 'SUCCESS',
      currency: 'NGN',
      payChannel: 'BalancePayment',
      merchantOrderNo: 'cb-ok',
      errorMsg: '',
    });
    expect(cb!.json.sha512).toBe(billsCallbackSignature(IDS.billsSecretKey, p));
    expect(typeof cb!.json.type).toBe('string');
    expect(sb.listTopups().find((t) => t.reference === 'cb-fail')?.callback.attempts).toBe(0);
    expect(receiver.received).toHaveLength(1);
  });

  it('answers SUCCESS at once when settleAfterMs is 0; unknown references answer status null', async () => {
    sb = keep(await startSandbox(testConfig((c) => (c.bills.settleAfterMs = 0))));
    const r = await billsCall(sb, 'bulk-bills', {
      serviceType: 'airtime',
      bulkData: [item('now', 'GLO', '+2349011112222', '10000')],
    });
    expect(r.json.data[0]).toMatchObject({ status: 'SUCCESS', errorMsg: '' });
    const st = await billsCall(sb, 'bulk-status', {
      serviceType: 'airtime',
      bulkStatusRequest: [{ reference: 'now' }, { reference: 'ghost', orderNo: '123' }],
    });
    expect(st.json.data[0]).toMatchObject({ status: 'SUCCESS' });
    expect(st.json.data[1]).toEqual({
      orderNo: '123',
      reference: 'ghost',
      status: null,
      errorMsg: 'order does not exist',
    });
    // Asked under the other service type, it does not exist either.
    const other = await billsCall(sb, 'bulk-status', {
      serviceType: 'betting',
      bulkStatusRequest: [{ reference: 'now' }],
    });
    expect(other.json.data[0].status).toBeNull();
  });
});
