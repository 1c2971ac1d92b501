// Builders for webhook bodies as the provider sends them, signed with the test keys.
import { billsCallbackSignature, canonicalJson, rsaEncryptChunked, rsaSign } from '../../../protocol/crypto';
import { billsSecretKey, keys } from '../provider/fixtures';

export const notification = {
  outOrderNo: 'CP-20261121-0001',
  orderNo: '240101000000000001',
  status: 'SUCCESS',
  currency: 'NGN',
  amount: '3500.00',
  fee: '0.00',
  feePattern: 'OUT_DEDUCT',
  senderName: 'ADA OBI',
  senderAccount: '5399****1234',
  recipientName: 'CINEMA LTD',
  recipientAccount: '7000000001',
  transactionTime: '1763726400000',
  completedTime: '1763726412000',
  transactionType: 'apiCheckout',
  transactionName: 'Checkout',
  payType: 'POS',
  sn: 'PB0123456789',
  remark: 'Counter 3',
};

export function posWebhookBody(o: {
  timestamp: number;
  data?: Record<string, unknown>;
  wrap?: boolean;
  clientAuthKey?: string;
  signWith?: string;
  encryptFor?: string;
}) {
  const data = o.data ?? notification;
  const timestamp = String(o.timestamp);
  const paramContent = rsaEncryptChunked(
    o.encryptFor ?? keys.merchantPublicKey,
    canonicalJson(o.wrap === false ? data : { data }),
  );
  return {
    clientAuthKey: o.clientAuthKey ?? 'client-auth-key-test',
    version: 'V1.0.1',
    bodyFormat: 'JSON',
    timestamp,
    paramContent,
    sign: rsaSign(o.signWith ?? keys.providerPrivateKey, paramContent + timestamp),
  };
}

export function billsCallbackBody(
  o: { orderNo?: string; status?: string; merchantId?: string; secret?: string; amount?: number } = {},
) {
  const payload = {
    serviceType: 'betting',
    feeAmount: 0,
    orderAmount: o.amount ?? 50000,
    orderNo: o.orderNo ?? '211004140885521681',
    createTime: '1633339203000',
    merchantId: o.merchantId ?? '256621000000001',
    orderStatus: o.status ?? 'SUCCESS',
    currency: 'NGN',
    payChannel: 'BalancePayment',
    merchantOrderNo: 'ref-0001',
    errorMsg: '',
  };
  return { payload, sha512: billsCallbackSignature(o.secret ?? billsSecretKey, payload), type: 'bills' };
}
