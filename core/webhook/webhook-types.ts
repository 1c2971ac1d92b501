// Types of the webhook receiver: the events it hands on, its options, and its fixed paths/answers.
import type { Clock } from '../../shared/clock';
import type { Db } from '../db';
import type { Logger } from '../../shared/logger';
import type { PosOrderDetails, ProviderConfig } from '../provider';
import type { WebhookIngest } from './webhook-ingest';

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

export interface WebhookReceiverOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  db: Db;
  /** Read on every request, so new keys apply without a restart. */
  getConfig: () => ProviderConfig;
  logger: Logger;
  clock?: Clock;
  /** Bodies larger than this are refused with 413 without being buffered (default 64 KiB). */
  maxBodyBytes?: number;
  /** Called once per distinct event, after it is durably recorded. Exceptions are logged; the event stays recorded. */
  onPosNotification: (n: PosNotification) => void;
  onBillsCallback: (c: BillsCallbackEvent) => void;
  /** The ingest to use instead of one built from these options (shared with the relay). */
  ingest?: WebhookIngest;
}

export interface WebhookReceiver {
  /** e.g. http://127.0.0.1:8787 (no trailing slash); append WEBHOOK_PATHS. */
  url: string;
  port: number;
  close(): Promise<void>;
}

export const WEBHOOK_PATHS = { pos: '/webhook/pos', bills: '/webhook/bills' } as const;

/** Outcome of checking one webhook body. */
export type WebhookVerdict<T> =
  | { ok: true; event: T; dedupeKey: string; orderNo: string; status: string }
  | { ok: false; httpStatus: number; code: string; reason: string };
