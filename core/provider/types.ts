// What the rest of the app sees of the provider: two clients and their typed results.
// Implementations live beside this file (bills-client.ts, pos-client.ts); errors are AppErrors
// with PROVIDER_* codes (provider-errors.ts). Clients never retry a call that creates something.
import type { PosProductInfo } from '../../shared/provider-order';
import type { Conventions } from '../../shared/settings';

export interface ProviderSecrets {
  billsPublicKey?: string;
  billsSecretKey?: string;
  posClientAuthKey?: string;
  merchantPrivateKey?: string;
  providerPublicKey?: string;
}

export interface ProviderConfig {
  billsBaseUrl: string; // includes /api/v3
  posBaseUrl: string;
  billsMerchantId: string;
  headMerchantId: string;
  merchantId: string;
  requestTimeoutMs: number;
  conventions: Conventions;
  secrets: ProviderSecrets;
}

// ---- POS ----
/** productInfo of the create request (filmDate yyyy-MM-dd, filmTime HH:mm): one shape with the basket's (shared/provider-order.ts). */
export type { PosProductInfo };

export interface PosCreateOrderInput {
  outOrderNo: string;
  amountKobo: number;
  orderExpireSeconds: number;
  sn: string;
  productInfo?: PosProductInfo;
  remark?: string;
}

/** @internal for tests */
export type PosStatus = 'PENDING' | 'SUCCESS' | 'FAIL' | 'CLOSE' | 'CANCEL' | (string & {});

export interface PosOrderDetails {
  outOrderNo: string;
  orderNo: string;
  payNo?: string;
  headMerchantId?: string;
  merchantId?: string;
  status: PosStatus;
  senderName?: string;
  senderAccount?: string;
  recipientName?: string;
  recipientAccount?: string;
  amountKobo: number;
  feeKobo?: number;
  feePattern?: string;
  currency?: string;
  transactionTime?: number; // ms
  completedTime?: number; // ms
  transactionType?: string;
  transactionName?: string;
  payType?: string;
  productInfo?: PosProductInfo;
  sn?: string;
  remark?: string | null;
}

export interface PosClient {
  /** Resolves with the provider's orderNo. Throws a PROVIDER_* AppError; never retries. */
  createOrder(input: PosCreateOrderInput): Promise<{ orderNo: string }>;
  /** Resolves null when the provider says the order does not exist. */
  queryOrder(by: { outOrderNo: string } | { orderNo: string }): Promise<PosOrderDetails | null>;
  depositCallbackStatus(
    by: { opayOrderNo: string } | { checkoutOrderNo: string },
  ): Promise<{ headMerchantId: string; httpCode: string; httpMessage: string }>;
}

// ---- Bills ----
export type ServiceType = 'betting' | 'airtime';
export type TopupStatus = 'INITIAL' | 'PENDING' | 'SUCCESS' | 'FAIL';

export interface BettingProvider {
  provider: string;
  providerLogoUrl: string;
  minAmountKobo: number | null;
  maxAmountKobo: number | null;
}

export interface ValidatedCustomer {
  provider: string;
  customerId: string;
  firstName: string;
  lastName: string;
  userName: string;
}

export interface TopupItemInput {
  reference: string;
  provider: string;
  customerId: string;
  amountKobo: number;
}

export interface TopupResult {
  orderNo: string | null;
  reference: string;
  status: TopupStatus | null; // null: the provider has no such order
  errorMsg: string;
}

export interface BillsClient {
  bettingProviders(): Promise<BettingProvider[]>;
  validate(input: { provider: string; customerId: string }): Promise<ValidatedCustomer>;
  /** Creates top-ups. Never retried by the client. */
  bulkBills(input: { serviceType: ServiceType; callBackUrl: string; items: TopupItemInput[] }): Promise<TopupResult[]>;
  bulkStatus(input: {
    serviceType: ServiceType;
    items: { reference: string; orderNo?: string }[];
  }): Promise<TopupResult[]>;
}
