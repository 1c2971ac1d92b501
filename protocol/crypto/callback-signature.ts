// The signature of a box-office callback (the counter's integration API → the box office):
// `v1=` + hex HMAC-SHA256(integration key, timestamp + "." + body), with the timestamp (ms since
// the epoch) sent beside it and judged against a replay window by the receiver. One definition for
// the counter that signs and the client that checks.
import { createHmac } from 'node:crypto';
import { safeEqual } from './hmac';

export function signCallback(key: string, timestamp: string, body: string): string {
  return `v1=${createHmac('sha256', key).update(`${timestamp}.${body}`, 'utf8').digest('hex')}`;
}

export type CallbackCheck = { ok: true } | { ok: false; why: 'missing' | 'stale' | 'bad-signature' };

/**
 * Checks a received callback: signature over the exact body bytes, timestamp within `windowMs` of `now`.
 * @internal for tests
 */
export function verifyCallback(
  key: string,
  h: { timestamp?: string; signature?: string },
  body: string,
  now: number,
  windowMs: number,
): CallbackCheck {
  if (!h.timestamp || !h.signature) return { ok: false, why: 'missing' };
  const t = Number(h.timestamp);
  if (!/^\d{1,16}$/.test(h.timestamp) || Math.abs(now - t) > windowMs) return { ok: false, why: 'stale' };
  return safeEqual(signCallback(key, h.timestamp, body), h.signature)
    ? { ok: true }
    : { ok: false, why: 'bad-signature' };
}
