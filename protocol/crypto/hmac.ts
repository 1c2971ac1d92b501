// HMAC primitives of the bills API: HMAC-SHA512 of the canonical body (requests) and
// HMAC-SHA3-512 of a fixed-format string (bills callbacks).
import { createHmac, timingSafeEqual } from 'node:crypto';

export function hmacSha512(secretKey: string, message: string, encoding: 'hex' | 'base64' = 'hex'): string {
  return createHmac('sha512', secretKey).update(message, 'utf8').digest(encoding);
}

/** @internal for tests */
export function hmacSha3_512Hex(secretKey: string, message: string): string {
  return createHmac('sha3-512', secretKey).update(message, 'utf8').digest('hex');
}

/** Constant-time comparison of two signature strings. */
export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a, 'utf8');
  const bb = Buffer.from(b, 'utf8');
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}

export interface BillsCallbackPayload {
  orderNo: string;
  merchantOrderNo: string;
  merchantId: string;
  orderAmount: number | string;
  serviceType: string;
  orderStatus: string;
}

export const BILLS_CALLBACK_SIGNED_FIELDS = [
  'orderNo',
  'merchantOrderNo',
  'merchantId',
  'orderAmount',
  'serviceType',
  'orderStatus',
] as const;

/** The first signed field whose value holds `"` or `,`, which the unescaped format cannot carry. */
export function billsCallbackUnsafeField(
  p: BillsCallbackPayload,
): (typeof BILLS_CALLBACK_SIGNED_FIELDS)[number] | null {
  return BILLS_CALLBACK_SIGNED_FIELDS.find((k) => /[",]/.test(String(p[k]))) ?? null;
}

/**
 * The exact string the bills callback's `sha512` is computed over (no JSON escaping, fixed order).
 * Values are not escaped, so one holding `"` or `,` could make two payloads sign alike: refused.
 */
export function billsCallbackSignedString(p: BillsCallbackPayload): string {
  const unsafe = billsCallbackUnsafeField(p);
  if (unsafe) throw new Error(`bills callback ${unsafe} holds a quote or comma, which its signed string cannot carry`);
  return `{orderNo:"${p.orderNo}",merchantOrderNo:"${p.merchantOrderNo}",merchantId:"${p.merchantId}",orderAmount:"${p.orderAmount}",serviceType:"${p.serviceType}",orderStatus:"${p.orderStatus}"}`;
}

export function billsCallbackSignature(secretKey: string, p: BillsCallbackPayload): string {
  return hmacSha3_512Hex(secretKey, billsCallbackSignedString(p));
}
