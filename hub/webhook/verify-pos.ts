// What the Hub can check of a POS payment notification without the merchant's private key: the
// envelope (protocol/pos-webhook.ts). paramContent stays encrypted: the counter that owns the order
// decrypts it. The bills callback is passed on unverified (its secret stays on the counter).
import type { KeyInput, SignHash } from '../../protocol/crypto';
import { checkPosEnvelope, type WebhookRefusal } from '../../protocol/pos-webhook';

export interface HubMerchantKeys {
  clientAuthKey: string;
  providerPublicKey: KeyInput;
  signHash: SignHash;
}

export type PosCheck = { ok: true } | WebhookRefusal;

export function checkPosWebhook(text: string, keys: HubMerchantKeys, now: number): PosCheck {
  const r = checkPosEnvelope(
    text,
    { clientAuthKey: keys.clientAuthKey, signHash: keys.signHash, providerPublicKey: () => keys.providerPublicKey, notConfigured: 'merchant clientAuthKey is not set', keysNotConfigured: 'provider public key is not set' },
    now,
  );
  return r.ok ? { ok: true } : r;
}

/** Only the routing keys of a bills callback are read. */
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
