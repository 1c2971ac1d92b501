// Types of the webhook module: the events it hands on, its verdicts, and its fixed paths.
import type { PosOrderDetails } from '../provider';

/** A verified, decrypted POS payment notification (amounts in kobo, times in ms). */
export type PosNotification = PosOrderDetails;

/** A verified bills top-up callback. */
export interface BillsCallbackEvent {
  /** Our own reference (the provider's merchantOrderNo). */
  reference: string;
  orderNo: string;
  status: 'SUCCESS' | 'FAIL' | (string & {});
  errorMsg: string;
  serviceType: string;
  amountKobo: number;
}

export const WEBHOOK_PATHS = { pos: '/webhook/pos', bills: '/webhook/bills' } as const;

/** Outcome of checking one webhook body. */
export type WebhookVerdict<T> =
  | { ok: true; event: T; dedupeKey: string; orderNo: string; status: string }
  | { ok: false; httpStatus: number; code: string; reason: string };
