// Checks a bills top-up callback: its sha512 (HMAC-SHA3-512 with our secret key over the fixed
// string described in docs/provider-protocol.md) and that it is addressed to our merchant id.
import { z } from 'zod';
import { wireToKobo } from '../../shared/money';
import { billsCallbackSignature, billsCallbackUnsafeField, safeEqual } from '../../protocol/crypto';
import { describeIssues, parseJson } from '../provider';
import type { ProviderConfig } from '../provider';
import { webhookDedupeKey } from './webhook-store';
import { WEBHOOK_REFUSAL_CODES as C } from '../../protocol/pos-webhook';
import { type BillsCallbackEvent, type WebhookVerdict } from './webhook-types';

const id = z.union([z.string().min(1), z.number()]).transform(String);

const BillsCallbackBody = z.object({
  payload: z.object({
    orderNo: id,
    merchantOrderNo: id,
    merchantId: id,
    orderAmount: z.union([z.string(), z.number()]),
    serviceType: z.string(),
    orderStatus: z.string().min(1),
    errorMsg: z.string().nullish(),
  }),
  sha512: z.string().min(1),
  type: z.string().nullish(),
});

const refuse = (httpStatus: number, code: string, reason: string) => ({ ok: false as const, httpStatus, code, reason });

export function verifyBillsCallback(text: string, cfg: ProviderConfig): WebhookVerdict<BillsCallbackEvent> {
  const parsed = parseJson(text);
  if (!parsed.ok) return refuse(400, C.malformed, 'body is not JSON');
  const body = BillsCallbackBody.safeParse(parsed.value);
  if (!body.success) return refuse(400, C.badFields, `body fields: ${describeIssues(body.error).join('; ')}`);
  const { payload: p, sha512 } = body.data;

  const secret = cfg.secrets.billsSecretKey?.trim();
  const ourMerchant = cfg.billsMerchantId?.trim();
  if (!secret || !ourMerchant)
    return refuse(503, C.notConfigured, 'bills secret key or bills merchant id is not set in Settings');
  // Signed over the values as they arrived (orderAmount may be a number or a string).
  const signed = {
    orderNo: p.orderNo,
    merchantOrderNo: p.merchantOrderNo,
    merchantId: p.merchantId,
    orderAmount: p.orderAmount,
    serviceType: p.serviceType,
    orderStatus: p.orderStatus,
  };
  const unsafe = billsCallbackUnsafeField(signed);
  if (unsafe) return refuse(400, C.badFields, `${unsafe} holds a quote or comma, which the signed string cannot carry`);
  const expected = billsCallbackSignature(secret, signed);
  if (!safeEqual(sha512.toLowerCase(), expected)) return refuse(401, C.badSignature, 'sha512 does not verify');
  if (p.merchantId !== ourMerchant) return refuse(401, C.wrongMerchant, 'merchantId is not ours');

  let amountKobo: number;
  try {
    amountKobo = wireToKobo(p.orderAmount);
  } catch {
    return refuse(400, C.badFields, 'orderAmount is not a whole number of kobo');
  }
  const event: BillsCallbackEvent = {
    reference: p.merchantOrderNo,
    orderNo: p.orderNo,
    status: p.orderStatus,
    errorMsg: p.errorMsg ?? '',
    serviceType: p.serviceType,
    amountKobo,
  };
  return {
    ok: true,
    event,
    orderNo: p.orderNo,
    status: p.orderStatus,
    dedupeKey: webhookDedupeKey('bills', p.orderNo, p.orderStatus),
  };
}
