// Checks a POS payment notification, strictly in this order and stopping at the first failure:
// clientAuthKey, timestamp (5 minutes; a relayed one may be older), signature over paramContent + timestamp, and only then
// decryption of paramContent; then the fields. A bad padding answers exactly like a bad signature.
import { rsaDecryptChunked, rsaVerify, safeEqual, privateKeyObject, publicKeyObject, type KeyInput } from '../crypto';
import { describeIssues, parseJson } from '../provider';
import { PosOrderWire, toPosOrderDetails } from '../provider';
import type { ProviderConfig } from '../provider';
import { POS_WEBHOOK_MAX_AGE_MS, PosWebhookBody } from './pos-envelope';
import { webhookDedupeKey } from './webhook-store';
import { WEBHOOK_REFUSAL_CODES as C, type PosNotification, type WebhookVerdict } from './webhook-types';

export { POS_WEBHOOK_MAX_AGE_MS };

const refuse = (httpStatus: number, code: string, reason: string) => ({ ok: false as const, httpStatus, code, reason });
const BAD_SIGNATURE = () => refuse(401, C.badSignature, 'sign does not verify');

export interface PosWebhookCheckOptions {
  /** Injected only by tests that prove what never reaches decryption. */
  decrypt?: (key: KeyInput, base64: string) => string;
  /**
   * How far in the past the signed timestamp may be (default 5 minutes). Only the relay widens it:
   * the Hub checked the 5-minute window when the provider sent it, and the counter may come back
   * days later (docs/provider-protocol.md, "Relayed notifications"). The future side stays 5 minutes.
   */
  maxAgeMs?: number;
}

export function verifyPosWebhook(text: string, cfg: ProviderConfig, now: number, o: PosWebhookCheckOptions = {}): WebhookVerdict<PosNotification> {
  const parsed = parseJson(text);
  if (!parsed.ok) return refuse(400, C.malformed, 'body is not JSON');
  const body = PosWebhookBody.safeParse(parsed.value);
  if (!body.success) return refuse(400, C.badFields, `body fields: ${describeIssues(body.error).join('; ')}`);
  const b = body.data;

  // 1. Whose notification is it?
  const ourKey = cfg.secrets.posClientAuthKey?.trim();
  if (!ourKey) return refuse(503, C.notConfigured, 'POS clientAuthKey is not set in Settings');
  if (!safeEqual(b.clientAuthKey, ourKey)) return refuse(401, C.wrongClientAuthKey, 'clientAuthKey does not match');

  // 2. Is it fresh?
  if (!/^\d{1,16}$/.test(b.timestamp)) return refuse(401, C.staleTimestamp, 'timestamp is not milliseconds since 1970');
  const age = now - Number(b.timestamp);
  if (age > (o.maxAgeMs ?? POS_WEBHOOK_MAX_AGE_MS) || -age > POS_WEBHOOK_MAX_AGE_MS) {
    return refuse(401, C.staleTimestamp, o.maxAgeMs === undefined ? 'timestamp is more than 5 minutes from now' : 'timestamp is too far in the past or more than 5 minutes ahead');
  }

  // 3. Did the provider sign it?
  let providerKey: KeyInput;
  let merchantKey: KeyInput;
  try {
    providerKey = publicKeyObject(cfg.secrets.providerPublicKey?.trim() || '');
    merchantKey = privateKeyObject(cfg.secrets.merchantPrivateKey?.trim() || '');
  } catch {
    return refuse(503, C.notConfigured, 'provider public key or merchant private key is missing or invalid in Settings');
  }
  if (!rsaVerify(providerKey, b.paramContent + b.timestamp, b.sign, cfg.conventions.posSignHash)) return BAD_SIGNATURE();

  // 4. Only now decrypt.
  let plaintext: string;
  try {
    plaintext = (o.decrypt ?? rsaDecryptChunked)(merchantKey, b.paramContent);
  } catch {
    return BAD_SIGNATURE();
  }

  // 5. The notification fields: either {data: {...}} or the fields directly.
  const inner = parseJson(plaintext);
  if (!inner.ok || inner.value === null || typeof inner.value !== 'object') return refuse(400, C.badFields, 'paramContent is not a JSON object');
  const value = inner.value as Record<string, unknown>;
  const fields = value.data !== null && typeof value.data === 'object' ? value.data : value;
  const n = PosOrderWire.safeParse(fields);
  if (!n.success) return refuse(400, C.badFields, `notification fields: ${describeIssues(n.error).join('; ')}`);
  const event = toPosOrderDetails(n.data);
  return { ok: true, event, orderNo: event.orderNo, status: event.status, dedupeKey: webhookDedupeKey('pos', event.orderNo, event.status) };
}
