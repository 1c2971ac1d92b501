// The provider's POS payment notification as both receivers see it: a counter's webhook receiver
// (which then decrypts it with the merchant's key) and the Hub (which never holds that key and
// relays it still encrypted). One envelope check, in this order and stopping at the first failure:
// the body's shape, clientAuthKey (constant time), the timestamp window, and the provider's
// signature over paramContent + timestamp. Also the answers both give.
import { z } from 'zod';
import { rsaVerify, safeEqual, type KeyInput, type SignHash } from './crypto';

const POS_WEBHOOK_MAX_AGE_MS = 5 * 60 * 1000;

export const PosWebhookBody = z.object({
  clientAuthKey: z.string(),
  version: z.string().optional(),
  bodyFormat: z.string().optional(),
  timestamp: z.union([z.string(), z.number()]).transform(String),
  paramContent: z.string().min(1),
  sign: z.string().min(1),
});
export type PosWebhookBody = z.infer<typeof PosWebhookBody>;

export const WEBHOOK_SUCCESS = { code: '00000', message: 'SUCCESSFUL' } as const;

/** The one answer to every authentication failure; the precise reason goes only to the log. */
export const WEBHOOK_NOT_AUTHENTICATED = { code: '40100', message: 'not authenticated' } as const;

/** Our non-success answer codes (never 00000); the 401 ones are for the log only. */
export const WEBHOOK_REFUSAL_CODES = {
  malformed: '40000',
  badFields: '40001',
  wrongClientAuthKey: '40101',
  staleTimestamp: '40102',
  badSignature: '40103',
  wrongMerchant: '40104',
  notFound: '40400',
  methodNotAllowed: '40500',
  tooLarge: '41300',
  internal: '50000',
  notConfigured: '50300',
} as const;
const C = WEBHOOK_REFUSAL_CODES;

export interface WebhookRefusal {
  ok: false;
  httpStatus: number;
  code: string;
  reason: string;
}
export const refuseWebhook = (httpStatus: number, code: string, reason: string): WebhookRefusal => ({
  ok: false,
  httpStatus,
  code,
  reason,
});

/** The first lines of a zod error, for the log ("path: message"). */
export const describeIssues = (error: z.ZodError): string[] =>
  error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);

interface PosEnvelopeKeys {
  /** Unset: the receiver is not configured (503). */
  clientAuthKey: string | undefined;
  signHash: SignHash;
  /** Read only once the timestamp passed; null when a key is missing or invalid (503 with `keysNotConfigured`). */
  providerPublicKey(): KeyInput | null;
  /** The 503 reasons for the log: no clientAuthKey, no usable key. */
  notConfigured: string;
  keysNotConfigured: string;
}

interface EnvelopeOptions {
  /** How far in the past the signed timestamp may be (default 5 minutes); the future side stays 5 minutes. */
  maxAgeMs?: number;
}

export function checkPosEnvelope(
  text: string,
  keys: PosEnvelopeKeys,
  now: number,
  o: EnvelopeOptions = {},
): { ok: true; body: PosWebhookBody } | WebhookRefusal {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return refuseWebhook(400, C.malformed, 'body is not JSON');
  }
  const parsed = PosWebhookBody.safeParse(json);
  if (!parsed.success)
    return refuseWebhook(400, C.badFields, `body fields: ${describeIssues(parsed.error).join('; ')}`);
  const b = parsed.data;

  // 1. Whose notification is it?
  const ourKey = keys.clientAuthKey?.trim();
  if (!ourKey) return refuseWebhook(503, C.notConfigured, keys.notConfigured);
  if (!safeEqual(b.clientAuthKey, ourKey))
    return refuseWebhook(401, C.wrongClientAuthKey, 'clientAuthKey does not match');

  // 2. Is it fresh?
  if (!/^\d{1,16}$/.test(b.timestamp))
    return refuseWebhook(401, C.staleTimestamp, 'timestamp is not milliseconds since 1970');
  const age = now - Number(b.timestamp);
  if (age > (o.maxAgeMs ?? POS_WEBHOOK_MAX_AGE_MS) || -age > POS_WEBHOOK_MAX_AGE_MS) {
    return refuseWebhook(
      401,
      C.staleTimestamp,
      o.maxAgeMs === undefined
        ? 'timestamp is more than 5 minutes from now'
        : 'timestamp is too far in the past or more than 5 minutes ahead',
    );
  }

  // 3. Did the provider sign it?
  const providerKey = keys.providerPublicKey();
  if (!providerKey) return refuseWebhook(503, C.notConfigured, keys.keysNotConfigured);
  if (!rsaVerify(providerKey, b.paramContent + b.timestamp, b.sign, keys.signHash))
    return refuseWebhook(401, C.badSignature, 'sign does not verify');
  return { ok: true, body: b };
}
