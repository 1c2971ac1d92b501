// The sandbox's records of POS orders and top-ups, as listed by the control API and the events.

export type PosOrderStatus = 'PENDING' | 'SUCCESS' | 'FAIL' | 'CANCEL' | 'CLOSE';
export type TerminalOutcome = 'SUCCESS' | 'FAIL' | 'CANCEL';
export type TopupStatus = 'INITIAL' | 'PENDING' | 'SUCCESS' | 'FAIL';

/** Where a webhook / callback stands; depositStatisticAccountCallBack reports httpCode/httpMessage. */
export interface DeliveryStatus {
  attempts: number;
  delivered: boolean;
  gaveUp: boolean;
  /** HTTP status of the last attempt as a string; "" when none was made or no answer came. */
  httpCode: string;
  /** Body of the last answer (first 500 characters), or why there was none. */
  httpMessage: string;
  lastAttemptAt: number | null;
}

export interface CardPresentation {
  senderName?: string;
  /** Full card number; only the first 6 and last 4 digits are kept. */
  cardPan?: string;
}

export interface SandboxPosOrder {
  orderNo: string;
  outOrderNo: string;
  headMerchantId: string;
  merchantId: string;
  sn: string;
  amountKobo: number;
  currency: 'NGN';
  subSceneEnum: string;
  isSplit: 'Y' | 'N';
  splitInfo: unknown;
  productInfo: Record<string, unknown> | null;
  remark: string | null;
  status: PosOrderStatus;
  createdAt: number;
  expiresAt: number;
  settledAt: number | null;
  payNo: string | null;
  feeKobo: number;
  senderName: string;
  senderAccount: string;
  webhook: DeliveryStatus;
  /** When (sandbox clock) the merchant asked qryOrderDetail about this order, in order: what polling cost. */
  queriedAt: number[];
}

export interface SandboxTopup {
  orderNo: string;
  reference: string;
  merchantId: string;
  serviceType: 'betting' | 'airtime';
  provider: string;
  customerId: string;
  /** null when the submitted amount was not a whole number of kobo. */
  amountKobo: number | null;
  status: TopupStatus;
  /** Where an accepted item will end. */
  finalStatus: 'SUCCESS' | 'FAIL';
  errorMsg: string;
  /** Refused when submitted (validation), as opposed to failing later. */
  rejected: boolean;
  createdAt: number;
  settledAt: number | null;
  callBackUrl: string | null;
  callback: DeliveryStatus;
}

export type TerminalScreen =
  | { sn: string; merchantId: string; state: 'idle'; queued: 0 }
  | {
      sn: string;
      merchantId: string;
      state: 'awaiting-card';
      /** Pending orders on this terminal, the shown one included. */
      queued: number;
      order: {
        orderNo: string;
        outOrderNo: string;
        amount: string;
        amountKobo: number;
        currency: 'NGN';
        expiresAt: number;
        secondsLeft: number;
        productInfo: Record<string, unknown> | null;
        remark: string | null;
      };
    };

export function newDeliveryStatus(httpMessage = 'not sent yet'): DeliveryStatus {
  return { attempts: 0, delivered: false, gaveUp: false, httpCode: '', httpMessage, lastAttemptAt: null };
}
