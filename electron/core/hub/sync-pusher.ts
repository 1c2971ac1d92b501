// STUB (helper A replaces the body): sends the outbox to the Hub in order, resumes from the Hub's
// lastSeq, never sends an event twice to a Hub that acknowledged it.
import type { CounterStatus } from '../../../shared/hub-contract';
import type { Clock } from '../clock';
import type { Db } from '../db';
import type { Timers } from '../lib';
import type { Logger } from '../log';
import type { HubCallError, HubClient } from './hub-client';
import type { HubConnectionSource, JournalSink } from './hub-types';

export type SyncState = 'off' | 'syncing' | 'synced' | 'offline';

export interface SyncPusherDeps {
  db: Db;
  connection: HubConnectionSource;
  client: HubClient;
  clock: Clock;
  timers?: Timers;
  logger: Logger;
  /** What the counter says about itself on every sync, except the queue length (the pusher knows it). */
  status: () => Omit<CounterStatus, 'queueLength' | 'sentAt'>;
  /** Queue length or state changed (the status bar shows "offline (N to sync)"). */
  onChange?: () => void;
  /** The Hub refused our credential for good (revoked or unknown): stop and tell the cashier. */
  onRefused?: (e: HubCallError) => void;
}

export interface SyncPusher {
  /** The journal sink that writes outbox rows (call inside the owner's transaction). */
  sink: JournalSink;
  start(): void;
  stop(): Promise<void>;
  /** Something was appended: send soon. */
  kick(): void;
  /** Events not yet held by the Hub. */
  queueLength(): number;
  state(): SyncState;
  lastSyncAt(): number | null;
  /** Forget the Hub's position (a new enrollment starts again from the first event). */
  reset(): void;
}

export function createSyncPusher(deps: SyncPusherDeps): SyncPusher {
  void deps;
  return {
    sink: { append() {} },
    start() {},
    async stop() {},
    kick() {},
    queueLength: () => 0,
    state: () => 'off',
    lastSyncAt: () => null,
    reset() {},
  };
}
