// The journal sink: where the journal owners (orders, top-ups, shifts) write each of their events a
// second time, inside the very transaction that writes it. The Hub link implements it (its outbox,
// hub-link/outbox.ts); the root hands it to the owners. It lives here, between them, so neither side
// imports the other.
import type { z } from 'zod';
import type { SyncKind, SYNC_PAYLOADS } from '../shared/hub-contract';

export type SyncPayload<K extends SyncKind> = z.input<(typeof SYNC_PAYLOADS)[K]>;

/**
 * The journal owners call `append` inside the very transaction that writes their own event, so an
 * event and its outbox row commit together or not at all. `append` must only be called inside an
 * open transaction on the same database.
 */
export interface JournalSink {
  append<K extends SyncKind>(kind: K, payload: SyncPayload<K>, at: number): void;
  /**
   * The outbox's sink (hub-link/outbox.ts) tells its listeners after every append, with the event's
   * kind and payload (the sync pusher kicks on it); a listener runs inside the owner's transaction,
   * so it must only note the news.
   */
  onAppend?(listener: AppendListener): () => void;
}

export type AppendListener = (kind: SyncKind, payload: unknown) => void;

/** A sink that keeps nothing (tests and tools that build a journal without a Hub module). */
export const NO_JOURNAL_SINK: JournalSink = { append() {} };

/**
 * A text cut to the length its sync schema allows. The journal owners build payloads from what
 * they hold (including the provider's answers, which can be anything): an over-long value is cut,
 * never allowed to make the append, and with it the owner's own write, fail.
 */
export function clipText(s: string, max: number): string {
  return s.length > max ? s.slice(0, max) : s;
}
