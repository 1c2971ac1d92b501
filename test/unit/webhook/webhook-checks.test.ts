// The order of checks on incoming webhooks, without HTTP: first failure wins, and nothing
// unauthenticated ever reaches decryption.
import { describe, expect, it, vi } from 'vitest';
import { rsaDecryptChunked, type KeyInput } from '../../../protocol/crypto';
import { verifyBillsCallback, verifyPosWebhook } from '../../../core/webhook';
import { keys, testConfig } from '../provider/fixtures';
import { billsCallbackBody, notification, posWebhookBody } from './fixtures';

const NOW = 1763726500000;
const cfg = testConfig();
const spy = () => vi.fn((k: KeyInput, b: string) => rsaDecryptChunked(k, b));
const check = (body: unknown, decrypt = spy()) => ({
  verdict: verifyPosWebhook(JSON.stringify(body), cfg, NOW, { decrypt }),
  decrypt,
});

describe('verifyPosWebhook', () => {
  it('accepts a valid notification, wrapped in {data} or direct', () => {
    for (const wrap of [true, false]) {
      const { verdict } = check(posWebhookBody({ timestamp: NOW - 1000, wrap }));
      expect(verdict).toMatchObject({
        ok: true,
        dedupeKey: 'pos:240101000000000001:SUCCESS',
        event: { outOrderNo: 'CP-20261121-0001', amountKobo: 350000, feeKobo: 0, completedTime: 1763726412000 },
      });
    }
  });

  it('checks clientAuthKey first (even when everything else is wrong too)', () => {
    const { verdict, decrypt } = check(
      posWebhookBody({ timestamp: 1, clientAuthKey: 'someone-else', signWith: keys.merchantPrivateKey }),
    );
    expect(verdict).toMatchObject({ ok: false, httpStatus: 401, reason: 'clientAuthKey does not match' });
    expect(decrypt).not.toHaveBeenCalled();
  });

  it('then the timestamp: more than 5 minutes either way is refused', () => {
    for (const ts of [NOW - 5 * 60 * 1000 - 1, NOW + 5 * 60 * 1000 + 1]) {
      const { verdict, decrypt } = check(posWebhookBody({ timestamp: ts, signWith: keys.merchantPrivateKey }));
      expect(verdict).toMatchObject({ ok: false, httpStatus: 401, reason: expect.stringMatching(/5 minutes/) });
      expect(decrypt).not.toHaveBeenCalled();
    }
    expect(check(posWebhookBody({ timestamp: NOW - 5 * 60 * 1000 })).verdict.ok).toBe(true);
  });

  it('then the signature, and a bad one never reaches decryption', () => {
    const { verdict, decrypt } = check(posWebhookBody({ timestamp: NOW, signWith: keys.merchantPrivateKey }));
    expect(verdict).toMatchObject({ ok: false, httpStatus: 401, reason: 'sign does not verify' });
    expect(decrypt).not.toHaveBeenCalled();
    const body = posWebhookBody({ timestamp: NOW });
    const { verdict: v2, decrypt: d2 } = check({ ...body, timestamp: String(NOW - 1) });
    expect(v2).toMatchObject({ ok: false, reason: 'sign does not verify' });
    expect(d2).not.toHaveBeenCalled();
  });

  it('a bad padding answers exactly like a bad signature', () => {
    const badSig = check(posWebhookBody({ timestamp: NOW, signWith: keys.merchantPrivateKey })).verdict;
    const badPad = check(posWebhookBody({ timestamp: NOW, encryptFor: keys.providerPublicKey })).verdict;
    expect(badPad).toEqual(badSig);
  });

  it('malformed bodies and bad fields are 400', () => {
    expect(verifyPosWebhook('{nope', cfg, NOW)).toMatchObject({ ok: false, httpStatus: 400 });
    expect(check({ clientAuthKey: 'x' }).verdict).toMatchObject({ ok: false, httpStatus: 400 });
    expect(check(posWebhookBody({ timestamp: NOW, data: { ...notification, amount: 'lots' } })).verdict).toMatchObject({
      ok: false,
      httpStatus: 400,
      reason: expect.stringMatching(/amount/),
    });
  });

  it('not configured: 503 so the provider retries later', () => {
    const c = testConfig();
    const v = verifyPosWebhook(
      JSON.stringify(posWebhookBody({ timestamp: NOW })),
      { ...c, secrets: { ...c.secrets, posClientAuthKey: '' } },
      NOW,
    );
    expect(v).toMatchObject({ ok: false, httpStatus: 503 });
  });
});

describe('verifyBillsCallback', () => {
  it('accepts a valid callback and maps it', () => {
    expect(verifyBillsCallback(JSON.stringify(billsCallbackBody()), cfg)).toEqual({
      ok: true,
      orderNo: '211004140885521681',
      status: 'SUCCESS',
      dedupeKey: 'bills:211004140885521681:SUCCESS',
      event: {
        reference: 'ref-0001',
        orderNo: '211004140885521681',
        status: 'SUCCESS',
        errorMsg: '',
        serviceType: 'betting',
        amountKobo: 50000,
      },
    });
  });
  it('matches the known-answer vector (HMAC-SHA3-512)', () => {
    const body = billsCallbackBody();
    expect(body.sha512).toBe(
      '79196ea8ce2fcddbdb5c02e2e5758a9882b1d70b511e793acb3d464b875beab1287ff60f3a12be5345b776db8e5d47e6c2211baeefd5f1ef021cc1d9a61b069d',
    );
  });
  it('refuses a wrong signature, a tampered field and another merchant', () => {
    expect(verifyBillsCallback(JSON.stringify(billsCallbackBody({ secret: 'other' })), cfg)).toMatchObject({
      ok: false,
      httpStatus: 401,
      reason: 'sha512 does not verify',
    });
    const b = billsCallbackBody();
    expect(
      verifyBillsCallback(JSON.stringify({ ...b, payload: { ...b.payload, orderStatus: 'FAIL' } }), cfg),
    ).toMatchObject({ ok: false, httpStatus: 401 });
    expect(verifyBillsCallback(JSON.stringify(billsCallbackBody({ merchantId: '999' })), cfg)).toMatchObject({
      ok: false,
      httpStatus: 401,
      reason: 'merchantId is not ours',
    });
    expect(verifyBillsCallback('[', cfg)).toMatchObject({ ok: false, httpStatus: 400 });
  });
});
