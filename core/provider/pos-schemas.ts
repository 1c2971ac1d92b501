// What the POS API sends (response envelope, order details, notification data) as zod schemas,
// mapped to the app's types: Naira strings become kobo, millisecond strings become numbers.
import { z } from 'zod';
import { nairaStringToKobo } from '../../shared/money';
import type { PosOrderDetails, PosProductInfo } from './types';

export const PosEnvelopeWire = z.object({
  code: z.string().min(1),
  message: z
    .string()
    .nullish()
    .transform((v) => v ?? ''),
  data: z.unknown().optional(),
  sign: z.string().nullish(),
  timestamp: z.union([z.string(), z.number()]).nullish(),
});

const optText = z
  .union([z.string(), z.number()])
  .nullish()
  .transform((v) => (v == null ? undefined : String(v)));
const idText = z.union([z.string().min(1), z.number()]).transform(String);

const naira = z.union([z.string(), z.number()]).transform((v, ctx) => {
  try {
    return nairaStringToKobo(String(v));
  } catch {
    ctx.addIssue({ code: 'custom', message: 'not a Naira amount with at most two decimals' });
    return z.NEVER;
  }
});

const msTime = z
  .union([z.string(), z.number()])
  .nullish()
  .transform((v, ctx) => {
    if (v == null || v === '') return undefined;
    const s = String(v).trim();
    if (!/^\d{1,16}$/.test(s)) {
      ctx.addIssue({ code: 'custom', message: 'not milliseconds since 1970' });
      return z.NEVER;
    }
    return Number(s);
  });

const PosProductInfoWire = z.object({
  filmName: optText,
  filmTitle: optText,
  filmTicketNum: optText,
  seatNum: optText,
  filmTicketAmount: optText,
  filmFeeAmount: optText,
  filmDate: optText,
  filmTime: optText,
});

/** Order details (qryOrderDetail) and notification data share these fields. */
export const PosOrderWire = z.object({
  outOrderNo: idText,
  orderNo: idText,
  payNo: optText,
  headMerchantId: optText,
  merchantId: optText,
  status: z.string().min(1),
  senderName: optText,
  senderAccount: optText,
  recipientName: optText,
  recipientAccount: optText,
  amount: naira,
  fee: naira.nullish(),
  feePattern: optText,
  currency: optText,
  transactionTime: msTime,
  completedTime: msTime,
  transactionType: optText,
  transactionName: optText,
  payType: optText,
  productInfo: PosProductInfoWire.nullish(),
  sn: optText,
  remark: z.string().nullish(),
});

function compact<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

export function toPosOrderDetails(w: z.infer<typeof PosOrderWire>): PosOrderDetails {
  const { amount, fee, productInfo, remark, ...rest } = w;
  return compact({
    ...rest,
    amountKobo: amount,
    ...(fee != null ? { feeKobo: fee } : {}),
    ...(productInfo ? { productInfo: compact(productInfo) as PosProductInfo } : {}),
    ...(remark !== undefined ? { remark } : {}),
  });
}

export const CreateOrderDataWire = z.object({ orderNo: idText });

export const DepositCallbackDataWire = z.object({
  headMerchantId: idText,
  httpCode: z.union([z.string(), z.number()]).transform(String),
  httpMessage: z
    .string()
    .nullish()
    .transform((v) => v ?? ''),
});
