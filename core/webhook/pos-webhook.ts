// Checks a POS payment notification: the envelope first (protocol/pos-webhook.ts: clientAuthKey,
// timestamp — 5 minutes; a relayed one may be older — and the signature over paramContent +
// timestamp), and only then decryption of paramContent with the merchant's key; then the fields.
// A bad padding answers exactly like a bad signature.
import { rsaDecryptChunked, privateKeyObject, publicKeyObject, type KeyInput } from '../../protocol/crypto';
import {
  checkPosEnvelope,
  describeIssues,
  refuseWebhook as refuse,
  WEBHOOK_REFUSAL_CODES as C,
} from '../../protocol/pos-webhook';
import { PosOrderWire, toPosOrderDetails, type ProviderConfig } from '../provider';
import { webhookDedupeKey } from './webhook-store';
import type { PosNotification, WebhookVerdict } from './webhook-types';

const BAD_SIGNATURE = () => refuse(401, C.badSignature, 'sign does not verify');

interface PosWebhookCheckOptions {
  /** Injected only by tests that prove what never reaches decryption. */
  decrypt?: (key: KeyInput, base64: string) => string;
  /**
   * How far in the past the signed timestamp may be (default 5 minutes). Only the relay widens it:
   * the Hub checked the 5-minute window when the provider sent it, and the counter may come back
   * days later (docs/provider-protocol.md, "Relayed notifications"). The future side stays 5 minutes.
   */
  maxAgeMs?: number;
}

export function verifyPosWebhook(
  text: string,
  cfg: ProviderConfig,
  now: number,
  o: PosWebhookCheckOptions = {},
): WebhookVerdict<PosNotification> {
  let merchantKey: KeyInput | null = null;
  const envelope = checkPosEnvelope(
    text,
    {
      clientAuthKey: cfg.secrets.posClientAuthKey,
      signHash: cfg.conventions.posSignHash,
      notConfigured: 'POS clientAuthKey is not set in Settings',
      keysNotConfigured: 'provider public key or merchant private key is missing or invalid in Settings',
      providerPublicKey: () => {
        try {
          const providerKey = publicKeyObject(cfg.secrets.providerPublicKey?.trim() || '');
          merchantKey = privateKeyObject(cfg.secrets.merchantPrivateKey?.trim() || '');
          return providerKey;
        } catch {
          return null;
        }
      },
    },
    now,
    o.maxAgeMs === undefined ? {} : { maxAgeMs: o.maxAgeMs },
  );
  if (!envelope.ok || !merchantKey) return envelope.ok ? BAD_SIGNATURE() : envelope;

  // Only now decrypt.
  let plaintext: string;
  try {
    plaintext = (o.decrypt ?? rsaDecryptChunked)(merchantKey, envelope.body.paramContent);
  } catch {
    return BAD_SIGNATURE();
  }

  // The notification fields: either {data: {...}} or the fields directly.
  let value: unknown;
  try {
    value = JSON.parse(plaintext);
  } catch {
    value = null;
  }
  if (value === null || typeof value !== 'object') return refuse(400, C.badFields, 'paramContent is not a JSON object');
  const v = value as Record<string, unknown>;
  const fields = v.data !== null && typeof v.data === 'object' ? v.data : v;
  const n = PosOrderWire.safeParse(fields);
  if (!n.success) return refuse(400, C.badFields, `notification fields: ${describeIssues(n.error).join('; ')}`);
  const event = toPosOrderDetails(n.data);
  return {
    ok: true,
    event,
    orderNo: event.orderNo,
    status: event.status,
    dedupeKey: webhookDedupeKey('pos', event.orderNo, event.status),
  };
}
