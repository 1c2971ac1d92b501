// The relay consumer's pieces that hold no connection (relay-consumer.ts follows the stream with
// them): the stream position kept in hub_state, the health told to the poller, the batched
// acknowledgements, and the readers of the stream's answer and events.
import { RelaySeatsSchema, type RelayStreamQuery } from '../../shared/hub-seats-contract';
import { RelayProgrammeSchema } from '../../shared/hub-programme-contract';
import { AckResponseSchema, HubErrorSchema, RELAY_STREAM_PATH } from '../../shared/hub-contract';
import type { Logger } from '../../shared/logger';
import type { Db } from '../db';
import { TypedEmitter, type TimerHandle, type Timers } from '../lib';
import { HubCallError, type HubClient, type HubConnection } from './link-client';
import type { SseEvent } from './sse-parser';

/** hub_state key of the relay stream's position. */
export const RELAY_LAST_EVENT_ID_KEY = 'relay.lastEventId';
const MAX_PENDING_ACKS = 1_000;

export class StreamClosed extends Error {}

/** The Hub refuses this counter for good (revoked or unknown). */
export const isRefusal = (code: string) => code === 'HUB_COUNTER_REVOKED' || code === 'HUB_UNAUTHENTICATED';

export const safeJson = (s: string): unknown => {
  try {
    return JSON.parse(s) as unknown;
  } catch {
    return null;
  }
};

/** Why a connection ended, for the log. */
export function whyLost(e: unknown): string {
  return e instanceof HubCallError
    ? e.code
    : e instanceof StreamClosed
      ? e.message
      : e instanceof Error
        ? e.name
        : 'error';
}

/** The stream position, durable: the Last-Event-ID of the next connection. */
export class RelayPosition {
  last: string | null;

  constructor(private readonly db: Db) {
    this.last =
      (
        db.prepare('SELECT value FROM hub_state WHERE key = ?').get(RELAY_LAST_EVENT_ID_KEY) as
          { value: string } | undefined
      )?.value ?? null;
  }

  remember(eventId: string): void {
    if (this.last !== null && BigInt(eventId) <= BigInt(this.last)) return;
    this.db
      .prepare(
        'INSERT INTO hub_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      )
      .run(RELAY_LAST_EVENT_ID_KEY, eventId);
    this.last = eventId;
  }

  reset(): void {
    this.db.prepare('DELETE FROM hub_state WHERE key = ?').run(RELAY_LAST_EVENT_ID_KEY);
    this.last = null;
  }
}

/** The stream's health as the poller and the status pill see it: up, and whether the Hub can verify. */
export class RelayHealth {
  up = false;
  canVerify: boolean | null = null;
  healthy = false;
  /** The last change told said the Hub cannot verify (the status pill shows it). */
  private toldCannot = false;
  readonly emitter: TypedEmitter<{ change: [boolean]; delivered: [] }>;

  constructor(private readonly logger: Logger) {
    this.emitter = new TypedEmitter<{ change: [boolean]; delivered: [] }>({
      onListenerError: (e) =>
        logger.error('relay health listener failed', { error: e instanceof Error ? e.message : String(e) }),
    });
  }

  set(v: boolean): void {
    this.up = v;
    const is = this.up && this.canVerify !== false;
    const cannot = this.up && this.canVerify === false;
    if (this.healthy === is && cannot === this.toldCannot) return;
    this.toldCannot = cannot;
    this.healthy = is;
    this.logger.info(
      is
        ? 'relay stream healthy'
        : this.up
          ? 'the Hub cannot verify webhooks (no merchant file); payments are followed by status checks'
          : 'relay stream not healthy; payments are followed by status checks',
      {},
    );
    this.emitter.emit('change', is);
  }
}

export interface RelayAcksDeps {
  client: HubClient;
  connection: () => HubConnection | null;
  timers: Timers;
  logger: Logger;
  ackBatch: number;
  ackDelayMs: number;
  refused: () => boolean;
  refuse: (e: HubCallError) => void;
}

/** Acknowledgements, sent after `ackBatch` notifications or `ackDelayMs` after the first unsent one. */
export function createRelayAcks(d: RelayAcksDeps) {
  const { timers, logger, ackBatch, ackDelayMs } = d;
  let ackTimer: TimerHandle | null = null;
  let pendingAcks: string[] = [];
  let acking: Promise<void> | null = null;
  const clearTimer = (t: TimerHandle | null): null => {
    if (t !== null) timers.clearTimeout(t);
    return null;
  };

  function queueAck(eventId: string): void {
    pendingAcks.push(eventId);
    if (pendingAcks.length >= ackBatch) void flushAcks();
    else if (ackTimer === null) {
      ackTimer = timers.setTimeout(() => {
        ackTimer = null;
        void flushAcks();
      }, ackDelayMs);
    }
  }

  function flushAcks(): Promise<void> {
    if (acking) return acking.then(() => (pendingAcks.length ? flushAcks() : undefined));
    ackTimer = clearTimer(ackTimer);
    const conn = d.connection();
    if (!pendingAcks.length || !conn || d.refused()) return Promise.resolve();
    const ids = pendingAcks.splice(0, 1000);
    acking = (async () => {
      try {
        await d.client.call(conn, 'POST', '/relay/ack', { eventIds: ids }, AckResponseSchema, { timeoutMs: 5_000 });
      } catch (e) {
        // Kept for the next flush. Losing them costs nothing but the Hub's log: the position is durable.
        pendingAcks = [...ids, ...pendingAcks].slice(-MAX_PENDING_ACKS);
        if (e instanceof HubCallError && isRefusal(e.code)) d.refuse(e);
        else
          logger.warn('relay acknowledgement failed; will retry', {
            code: e instanceof HubCallError ? e.code : 'INTERNAL',
            count: ids.length,
          });
      } finally {
        acking = null;
      }
    })();
    return acking;
  }

  return {
    queueAck,
    flushAcks,
    /** Forgets the acknowledgements not sent yet (a new enrollment). */
    clear(): void {
      pendingAcks = [];
    },
    stopTimer(): void {
      ackTimer = clearTimer(ackTimer);
    },
  };
}

export type RelayAcks = ReturnType<typeof createRelayAcks>;

/**
 * Opens the relay stream (resumed after `last`), saying whether this counter shows practice seat
 * maps (its seat changes are then the practice ones); a refusal of the Hub becomes its HubCallError.
 */
export async function openRelayStream(
  doFetch: typeof fetch,
  conn: HubConnection,
  last: string | null,
  signal: AbortSignal,
  practice = false,
): Promise<NonNullable<Response['body']>> {
  const headers: Record<string, string> = {
    authorization: `Bearer ${conn.credential}`,
    accept: 'text/event-stream',
    'cache-control': 'no-store',
  };
  if (last) headers['last-event-id'] = last;
  const q: RelayStreamQuery = { practice: practice ? 'true' : 'false' };
  const query = new URLSearchParams(q);
  const res = await doFetch(`${conn.url.replace(/\/+$/, '')}${RELAY_STREAM_PATH}?${query.toString()}`, {
    headers,
    signal,
  });
  if (res.status !== 200 || !res.body) {
    const text = await res.text().catch(() => '');
    let parsed: ReturnType<typeof HubErrorSchema.safeParse> | null = null;
    try {
      parsed = HubErrorSchema.safeParse(JSON.parse(text));
    } catch {
      parsed = null;
    }
    if (parsed?.success)
      throw new HubCallError(parsed.data.code, parsed.data.message, res.status, parsed.data.details ?? {});
    throw new HubCallError('HUB_BAD_ANSWER', `The Hub answered HTTP ${res.status} to the relay stream.`, res.status);
  }
  return res.body;
}

/** `event: programme`: the branch's programme version, handed on (a listener that throws is logged). */
export function onProgrammeEvent(e: SseEvent, onProgramme: ((version: number) => void) | undefined, logger: Logger) {
  const p = RelayProgrammeSchema.safeParse(safeJson(e.data));
  if (p.success) {
    try {
      onProgramme?.(p.data.version);
    } catch (err) {
      logger.error('relay programme listener failed', {
        error: err instanceof Error ? err.message : String(err),
      });
    }
  }
}

/**
 * `event: seats`: a show's seats changed on some counter of the branch (the listener catches its own
 * errors). A change of the other kind (practice, real) than this counter shows now is not its map's
 * (its stream said the kind when it opened; the profile may have switched since).
 */
export function onSeatsEvent(
  e: SseEvent,
  onSeats: ((showKey: string) => void) | undefined,
  practice: (() => boolean) | undefined,
): void {
  const p = RelaySeatsSchema.safeParse(safeJson(e.data));
  if (!p.success) return;
  if (p.data.practice !== undefined && p.data.practice !== (practice?.() ?? false)) return;
  onSeats?.(p.data.showKey);
}

/** The branch's news on the relay stream: `event: programme` (its version) or `event: seats` (a show's seats changed). */
export function onBranchNews(
  e: SseEvent,
  on: {
    onProgramme?: (version: number) => void;
    onSeats?: (showKey: string) => void;
    practice?: () => boolean;
  },
  logger: Logger,
): void {
  if (e.event === 'programme') onProgrammeEvent(e, on.onProgramme, logger);
  else onSeatsEvent(e, on.onSeats, on.practice);
}

/** `event: revoked`: the manager removed this counter. */
export function revokedError(e: SseEvent): HubCallError {
  const r = HubErrorSchema.safeParse(safeJson(e.data));
  return new HubCallError(
    'HUB_COUNTER_REVOKED',
    r.success ? r.data.message : 'This counter was removed from the Hub by its manager.',
    403,
  );
}
