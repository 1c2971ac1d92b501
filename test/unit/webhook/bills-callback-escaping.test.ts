// The bills callback's signed string is built by joining values in quotes, with no escaping. A value
// holding `"` or `,` could make two different payloads sign the same, so such values are refused
// (the provider's ids, amounts, types and statuses never contain them).
import { describe, expect, it } from 'vitest';
import { billsCallbackSignedString, hmacSha3_512Hex } from '../../../protocol/crypto';
import { verifyBillsCallback } from '../../../core/webhook';
import { billsSecretKey, testConfig } from '../provider/fixtures';
import { billsCallbackBody } from './fixtures';

const cfg = testConfig();

/** Signs exactly as the unescaped format would, the way a forger who controls one field would. */
function signedRaw(p: Record<string, string | number>): string {
  const raw = `{orderNo:"${p.orderNo}",merchantOrderNo:"${p.merchantOrderNo}",merchantId:"${p.merchantId}",orderAmount:"${p.orderAmount}",serviceType:"${p.serviceType}",orderStatus:"${p.orderStatus}"}`;
  return hmacSha3_512Hex(billsSecretKey, raw);
}

describe('bills callback values that would change the signed string', () => {
  it.each([
    ['merchantOrderNo', 'ref-0001",orderStatus:"SUCCESS'],
    ['orderNo', '211004140885521681,1'],
    ['serviceType', 'betting"'],
    ['orderStatus', 'SUCCESS,FAIL'],
  ])('%s holding a quote or a comma is refused even when the signature matches', (field, value) => {
    const { payload } = billsCallbackBody();
    const p = { ...payload, [field]: value };
    const verdict = verifyBillsCallback(JSON.stringify({ payload: p, sha512: signedRaw(p) }), cfg);
    expect(verdict).toMatchObject({ ok: false, httpStatus: 400, reason: expect.stringContaining(field) });
  });

  it('the signed string cannot be built from such a value at all', () => {
    const { payload } = billsCallbackBody();
    expect(() => billsCallbackSignedString({ ...payload, merchantOrderNo: 'a"b' } as never)).toThrow(/quote or comma/);
    expect(billsCallbackSignedString(payload as never)).toContain('merchantOrderNo:"ref-0001"');
  });
});
