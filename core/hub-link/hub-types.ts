// What the counter's side of the CounterPay Hub shares between its parts: the connection (address
// and credential, once enrolled), the journal sink the other modules write their events into, and
// the health of the relay stream that the poller follows.
import type { SyncKind, SYNC_PAYLOADS } from '../../shared/hub-contract';
import type { z } from 'zod';
import type { Clock } from '../../shared/clock';
import type { Db } from '../db';
import type { Timers } from '../lib';
import type { Logger } from '../../shared/logger';
import type { HubCallError, HubClient } from './hub-client';

/** An enrolled counter's way to the Hub. The credential is a secret: never logged, never sent to the renderer. */
export interface HubConnection {
  /** Base address, no trailing slash: `https://hub.mycinema.ng` (or `http://…` for a lab). */
  url: string;
  counterId: string;
  credential: string;
  /** The POS branch id (merchantId) given at enrollment. */
  branch: string;
}

/** Where the connection comes from (the hub module, which keeps it in settings and the vault). */
export type HubConnectionSource = () => HubConnection | null;

export type SyncPayload<K extends SyncKind> = z.input<(typeof SYNC_PAYLOADS)[K]>;

/**
 * The journal owners (orders, top-ups, shifts) call `append` inside the very transaction that
 * writes their own event, so an event and its outbox row commit together or not at all.
 * `append` must only be called inside an open transaction on the same database.
 */
export interface JournalSink {
  append<K extends SyncKind>(kind: K, payload: SyncPayload<K>, at: number): void;
  /**
   * The outbox's sink (hub/outbox.ts) tells its listeners after every append (the sync pusher
   * kicks on it); a listener runs inside the owner's transaction, so it must only note the news.
   */
  onAppend?(listener: () => void): () => void;
}

/** A sink that keeps nothing (tests and tools that build a journal without a Hub module). */
export const NO_JOURNAL_SINK: JournalSink = { append() {} };

/** Health of the relay stream, as the poller needs it: while healthy, polling is the safety net only. */
export interface RelayHealthSource {
  healthy(): boolean;
  /** Called on every change of `healthy()`; returns an unsubscribe function. */
  onChange(listener: (healthy: boolean) => void): () => void;
}

/**
 * A text cut to the length its sync schema allows. The journal owners build payloads from what
 * they hold (including the provider's answers, which can be anything): an over-long value is cut,
 * never allowed to make the append, and with it the owner's own write, fail.
 */
export function clipText(s: string, max: number): string {
  return s.length > max ? s.slice(0, max) : s;
}

/** What every part of the Hub link (sync pusher, relay consumer) is built from. */
export interface HubPartDeps {
  db: Db;
  connection: HubConnectionSource;
  client: HubClient;
  clock: Clock;
  timers?: Timers;
  logger: Logger;
  /** The Hub refused our credential for good (revoked or unknown): stop and tell the cashier. */
  onRefused?: (e: HubCallError) => void;
}
