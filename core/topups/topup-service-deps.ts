// What the top-up service takes (TopupServiceDeps) and its tuning.
import type { Clock } from '../../shared/clock';
import type { Db } from '../db';
import type { Logger } from '../../shared/logger';
import type { Timers } from '../lib';
import type { BillsClient } from '../provider';
import type { KeyValueStore } from '../settings';
import { DEFAULT_ENGINE_TUNING, type EngineTuning } from './topup-tuning';
import type { JournalSink } from '../journal-sink';
import type { Identity } from './topup-run';

export interface TopupTuning extends EngineTuning {
  /** The providers list is fetched again before checking a top-up when older than this. */
  providersMaxAgeMs: number;
  /** Customer checks of a batch per second. */
  validateRatePerSecond: number;
}

export const DEFAULT_TOPUP_TUNING: TopupTuning = {
  ...DEFAULT_ENGINE_TUNING,
  providersMaxAgeMs: 10 * 60_000,
  validateRatePerSecond: 4,
};

export interface TopupServiceDeps {
  db: Db;
  store: KeyValueStore;
  /** The bills client, or a getter (the active profile may change); a getter may throw PROVIDER_NOT_CONFIGURED. */
  bills: BillsClient | (() => BillsClient);
  identity: () => Identity;
  callBackUrl: () => string;
  clock: Clock;
  timers?: Timers;
  logger: Logger;
  tuning?: Partial<TopupTuning>;
  /** Where every journal event also goes, in its transaction (the Hub's outbox); none when absent. */
  journalSink?: JournalSink;
}
