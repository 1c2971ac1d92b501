// What the Hub can check of a POS payment notification without the merchant's private key: the
// envelope (protocol/pos-webhook.ts). paramContent stays encrypted: the counter that owns the order
// decrypts it. The bills callback is passed on unverified (its secret stays on the counter).
import {
  billsCallbackSignedString,
  billsCallbackUnsafeField,
  BILLS_CALLBACK_SIGNED_FIELDS,
  type BillsCallbackPayload,
  type KeyInput,
  type SignHash,
} from '../../protocol/crypto';
import { checkPosEnvelope, type WebhookRefusal } from '../../protocol/pos-webhook';

export interface HubMerchantKeys {
  clientAuthKey: string;
  providerPublicKey: KeyInput;
  signHash: SignHash;
}

/**
 * `contentKey` is what the provider signed (paramContent + timestamp): a repeat is recognised by it,
 * whatever else was changed around it (whitespace of the body, the unsigned routing headers).
 */
type PosCheck = { ok: true; contentKey: string } | WebhookRefusal;

export function checkPosWebhook(text: string, keys: HubMerchantKeys, now: number): PosCheck {
  const r = checkPosEnvelope(
    text,
    {
      clientAuthKey: keys.clientAuthKey,
      signHash: keys.signHash,
      providerPublicKey: () => keys.providerPublicKey,
      notConfigured: 'merchant clientAuthKey is not set',
      keysNotConfigured: 'provider public key is not set',
    },
    now,
  );
  return r.ok ? { ok: true, contentKey: `pos\n${r.body.paramContent}\n${r.body.timestamp}` } : r;
}

/**
 * What the Hub reads of a bills callback: its routing keys (our reference first, then the provider's
 * order number) and its content key, the string its sha512 is computed over plus that sha512, so a
 * repeat with other whitespace or other unsigned fields is a repeat. Null: not a bills callback
 * (a signed field missing or unsignable, or no sha512); the counter would refuse it anyway.
 */
export function readBillsCallback(text: string): { orderKeys: string[]; contentKey: string } | null {
  try {
    const j = JSON.parse(text) as { payload?: Record<string, unknown>; sha512?: unknown };
    const p = j?.payload;
    if (!p || typeof p !== 'object' || typeof j.sha512 !== 'string' || !/^[0-9a-fA-F]{1,256}$/.test(j.sha512))
      return null;
    const fields: Record<string, string> = {};
    for (const k of BILLS_CALLBACK_SIGNED_FIELDS) {
      const v = p[k];
      if (typeof v !== 'string' && typeof v !== 'number') return null;
      fields[k] = String(v);
    }
    const signed = fields as unknown as BillsCallbackPayload;
    if (billsCallbackUnsafeField(signed)) return null;
    return {
      orderKeys: [signed.merchantOrderNo, signed.orderNo].filter(Boolean),
      contentKey: `bills\n${billsCallbackSignedString(signed)}\n${j.sha512.toLowerCase()}`,
    };
  } catch {
    return null;
  }
}
