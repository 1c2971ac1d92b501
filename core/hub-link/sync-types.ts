// What the sync pusher takes and its tuning (sync-pusher.ts re-exports them).
import { MAX_SYNC_BATCH, type CounterStatus } from '../../shared/hub-contract';
import type { BackoffTuning } from '../lib';
import type { JournalSink } from '../journal-sink';
import type { HubPartDeps } from './link-types';

export type SyncState = 'off' | 'syncing' | 'synced' | 'offline';

export interface SyncTuning {
  /** Appends within this window go out in one batch. */
  debounceMs: number;
  /** An empty batch (the counter's status) this often while nothing else is sent. */
  statusEveryMs: number;
  backoff: BackoffTuning;
  /** Events per call (the contract allows MAX_SYNC_BATCH); halved while the Hub answers "too large". */
  batchSize: number;
  requestTimeoutMs: number;
}

export const DEFAULT_SYNC_TUNING: SyncTuning = {
  debounceMs: 100,
  statusEveryMs: 30_000,
  backoff: { baseMs: 1_000, maxMs: 60_000 },
  batchSize: MAX_SYNC_BATCH,
  requestTimeoutMs: 15_000,
};

export interface SyncPusherDeps extends HubPartDeps {
  /** What the counter says about itself on every sync, except the queue length (the pusher knows it). */
  status: () => Omit<CounterStatus, 'queueLength' | 'sentAt'>;
  /** Queue length or state changed (the status bar shows "offline (N to sync)"). */
  onChange?: () => void;
  /**
   * The app's sink (a JournalSink, core/journal-sink.ts, built in app-core.ts): the pusher's `sink`
   * is that one and every append kicks it. Absent: the pusher makes its own sink over `db`.
   */
  journalSink?: JournalSink;
  /** For the pusher's own sink only (see outbox.ts). */
  cashierAt?: (at: number) => string;
  /** [0, 1); the jitter of the backoff. */
  random?: () => number;
  tuning?: Partial<SyncTuning>;
}
