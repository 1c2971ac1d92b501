// What the Hub can check of a POS payment notification without the merchant's private key, in this
// order and stopping at the first failure: the body's shape, clientAuthKey (constant time), the
// 5-minute timestamp window, and the provider's SHA256withRSA signature over paramContent + timestamp.
// paramContent stays encrypted: the counter that owns the order decrypts it.
import { rsaVerify, safeEqual, type KeyInput, type SignHash } from '../../electron/core/crypto';
import { POS_WEBHOOK_MAX_AGE_MS, PosWebhookBody as Body } from '../../electron/core/webhook/pos-envelope';
import { WEBHOOK_REFUSAL_CODES as C } from '../../electron/core/webhook/webhook-types';

export { POS_WEBHOOK_MAX_AGE_MS };

export interface HubMerchantKeys {
  clientAuthKey: string;
  providerPublicKey: KeyInput;
  signHash: SignHash;
}

export type PosCheck = { ok: true } | { ok: false; httpStatus: number; code: string; reason: string };

const refuse = (httpStatus: number, code: string, reason: string): PosCheck => ({ ok: false, httpStatus, code, reason });

export function checkPosWebhook(text: string, keys: HubMerchantKeys, now: number): PosCheck {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return refuse(400, C.malformed, 'body is not JSON');
  }
  const parsed = Body.safeParse(json);
  if (!parsed.success) return refuse(400, C.badFields, `body fields: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ')}`);
  const b = parsed.data;
  if (!safeEqual(b.clientAuthKey, keys.clientAuthKey)) return refuse(401, C.wrongClientAuthKey, 'clientAuthKey does not match');
  if (!/^\d{1,16}$/.test(b.timestamp)) return refuse(401, C.staleTimestamp, 'timestamp is not milliseconds since 1970');
  if (Math.abs(now - Number(b.timestamp)) > POS_WEBHOOK_MAX_AGE_MS) return refuse(401, C.staleTimestamp, 'timestamp is more than 5 minutes from now');
  if (!rsaVerify(keys.providerPublicKey, b.paramContent + b.timestamp, b.sign, keys.signHash)) return refuse(401, C.badSignature, 'sign does not verify');
  return { ok: true };
}

/** The bills callback is passed on unverified (its secret stays on the counter): only its routing keys are read. */
export function billsRoutingKeys(text: string): { orderKeys: string[]; branch: string | null } | null {
  try {
    const j = JSON.parse(text) as { payload?: Record<string, unknown> };
    const p = j?.payload;
    if (!p || typeof p !== 'object') return null;
    const s = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : '');
    return { orderKeys: [s(p.merchantOrderNo), s(p.orderNo)].filter(Boolean), branch: null };
  } catch {
    return null;
  }
}
