// Follows the Hub's relay stream (server-sent events over fetch, resumed with Last-Event-ID), hands
// each notification to the webhook module's ingest (verify, record, handle exactly as a direct
// webhook), then remembers its id and acknowledges it; reports the stream's health to the poller.
//
// - Healthy from the first heartbeat; unhealthy at once when the stream errs or closes, and when
//   nothing (heartbeat or event) arrived within the Hub's heartbeat interval + 1 s.
// - The Last-Event-ID is written to hub_state only after the notification is recorded, so a crash
//   in between makes the Hub send it again (and the ingest's de-dup makes that harmless).
// - A notification the ingest could not record (the database) is neither remembered nor acked:
//   the connection is dropped and the Hub sends it again on the next one.
// - Reconnects with backoff and jitter, 0.5 s doubling to 30 s; stops for good when the Hub says
//   the counter is revoked or unknown (`onRefused`). Nothing here ever throws into a sale.
// - `event: programme` (the branch's programme version, on connect and on every change) is handed
//   to `onProgramme`; the hub module fetches the programme when the version is newer than its copy.
// The pieces without a connection (position, health, acknowledgements, readers) are in relay-parts.ts,
// the connection loop in relay-loop.ts.
import { RelayNotificationSchema, type RelayNotification } from '../../shared/hub-contract';
import { systemTimers } from '../lib';
import type { RelayHealthSource } from '../orders';
import type { HubPartDeps } from './link-types';
import type { Logger } from '../../shared/logger';
import type { SseEvent } from './sse-parser';
import { createRelayLoop } from './relay-loop';
import {
  createRelayAcks,
  type RelayAcks,
  RELAY_LAST_EVENT_ID_KEY,
  RelayHealth,
  RelayPosition,
  StreamClosed,
} from './relay-parts';

export { RELAY_LAST_EVENT_ID_KEY };

export interface RelayConsumerDeps extends HubPartDeps {
  /** Verify, record durably and handle one relayed notification; resolves once it is recorded. */
  ingest: (n: RelayNotification) => Promise<unknown> | unknown;
  /**
   * Is the ingest's answer a notification recorded for one of this counter's orders (what earns the
   * poller's trust)? Default: the webhook ingest's 'recorded' or 'repeat'.
   */
  delivered?: (outcome: unknown) => boolean;
  /** The Hub says the branch's programme is at this version (on connect and on every change). */
  onProgramme?: (version: number) => void;
  /** The Hub says a show's seats changed (a hold, a sale, a release on some counter of the branch). */
  onSeats?: (showKey: string) => void;
  /** This counter shows practice seat maps (Demo or Sandbox): its stream asks for practice seat changes. */
  practice?: () => boolean;
  fetch?: typeof fetch;
  /** [0, 1): the reconnect jitter. */
  random?: () => number;
  /** Reconnect backoff (default 0.5 s doubling to 30 s). */
  backoff?: { baseMs: number; maxMs: number };
  /** How long a connection may take to deliver its first heartbeat (default 10 s). */
  connectTimeoutMs?: number;
  /** Acknowledge after this many notifications, or this long after the first unacknowledged one. */
  ackBatch?: number;
  ackDelayMs?: number;
}

export interface RelayConsumer extends RelayHealthSource {
  start(): void;
  stop(): Promise<void>;
  /** Reconnect at once (settings changed, network back). */
  reconnect(): void;
  /** Forget the stream position (a new enrollment). */
  reset(): void;
  /** Stream position last recorded (the Last-Event-ID sent on the next connection). */
  lastEventId(): string | null;
  /** The stream is up (heartbeats arrive), whatever the Hub can verify. */
  streamUp(): boolean;
  /** What the Hub's last heartbeat said: it can verify webhooks (true), cannot (false), or did not say (null: an older Hub). */
  hubCanVerify(): boolean | null;
}

export const DEFAULT_RELAY_BACKOFF = { baseMs: 500, maxMs: 30_000 };
export { HEARTBEAT_GRACE_MS } from './relay-loop';
const SEEN_KEPT = 2_000;

/** The webhook ingest recorded it for one of this counter's orders (or had already). */
const isDelivered = (outcome: unknown): boolean => outcome === 'recorded' || outcome === 'repeat';

export function createRelayConsumer(deps: RelayConsumerDeps): RelayConsumer {
  const timers = deps.timers ?? systemTimers;
  const { logger, db } = deps;
  const health = new RelayHealth(logger);
  const position = new RelayPosition(db);
  const acks = createRelayAcks({
    client: deps.client,
    connection: deps.connection,
    timers,
    logger,
    ackBatch: deps.ackBatch ?? 20,
    ackDelayMs: deps.ackDelayMs ?? 50,
    refused: () => loop.refused(),
    refuse: (e) => loop.refuse(e),
  });
  const intake = createNotificationIntake({
    logger,
    ingest: deps.ingest,
    delivered: deps.delivered ?? isDelivered,
    health,
    position,
    acks,
  });
  const practice = deps.practice ?? (() => false);
  const loop = createRelayLoop({
    connection: deps.connection,
    logger,
    timers,
    fetch: deps.fetch ?? ((...a: Parameters<typeof fetch>) => fetch(...a)),
    random: deps.random ?? Math.random,
    backoff: deps.backoff ?? DEFAULT_RELAY_BACKOFF,
    connectTimeoutMs: deps.connectTimeoutMs ?? 10_000,
    practice,
    news: { onProgramme: deps.onProgramme, onSeats: deps.onSeats, practice },
    onRefused: deps.onRefused,
    health,
    position,
    acks,
    onNotification: intake.onNotification,
  });

  return {
    start: loop.start,
    stop: loop.stop,
    reconnect: loop.reconnect,
    reset() {
      position.reset();
      intake.forget();
      acks.clear();
    },
    lastEventId: () => position.last,
    streamUp: () => health.up,
    hubCanVerify: () => (health.up ? health.canVerify : null),
    healthy: () => health.healthy,
    onChange: (listener) => health.emitter.on('change', listener),
    onDelivered: (listener) => health.emitter.on('delivered', listener),
  };
}

interface NotificationIntakeDeps {
  logger: Logger;
  ingest: RelayConsumerDeps['ingest'];
  /** The ingest's answer is a notification recorded for one of this counter's orders. */
  delivered: (outcome: unknown) => boolean;
  health: RelayHealth;
  position: RelayPosition;
  acks: RelayAcks;
}

/** Each notification of the stream: recorded by the ingest, remembered, acknowledged (once). */
function createNotificationIntake({ logger, ingest, delivered, health, position, acks }: NotificationIntakeDeps) {
  const { queueAck } = acks;
  const seen = new Set<string>();

  // ---- one notification ----
  async function onNotification(e: SseEvent): Promise<void> {
    let n: RelayNotification;
    try {
      n = RelayNotificationSchema.parse(JSON.parse(e.data));
    } catch {
      logger.warn('relay event is not a notification this app can read; skipped', { id: e.id });
      return;
    }
    if (seen.has(n.eventId)) {
      queueAck(n.eventId);
      return;
    }
    let outcome: unknown;
    try {
      outcome = await ingest(n);
    } catch (err) {
      logger.error('relayed notification could not be recorded; the Hub will send it again', {
        eventId: n.eventId,
        error: err instanceof Error ? err.message : String(err),
      });
      throw new StreamClosed('ingest failed');
    }
    position.remember(n.eventId);
    seen.add(n.eventId);
    if (seen.size > SEEN_KEPT) seen.delete(seen.values().next().value as string);
    queueAck(n.eventId);
    if (delivered(outcome)) health.emitter.emit('delivered');
  }

  return {
    onNotification,
    /** Forgets the notifications seen (a new enrollment). */
    forget: () => seen.clear(),
  };
}
