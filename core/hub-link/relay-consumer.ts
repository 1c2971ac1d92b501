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
// The pieces without a connection (position, health, acknowledgements, readers) are in relay-parts.ts.
import { RelayHeartbeatSchema, RelayNotificationSchema, type RelayNotification } from '../../shared/hub-contract';
import { backoffWithJitter, systemTimers, type TimerHandle, type Timers } from '../lib';
import { HubCallError } from './link-client';
import type { RelayHealthSource } from '../orders';
import type { HubPartDeps } from './link-types';
import { createSseParser, type SseEvent } from './sse-parser';
import {
  createRelayAcks,
  type RelayAcks,
  isRefusal,
  onBranchNews,
  openRelayStream,
  RELAY_LAST_EVENT_ID_KEY,
  RelayHealth,
  RelayPosition,
  revokedError,
  safeJson,
  StreamClosed,
  whyLost,
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
/** Grace on top of the Hub's heartbeat interval before the stream counts as silent. */
export const HEARTBEAT_GRACE_MS = 1_000;
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
  const intake = createNotificationIntake(deps, { health, position, acks });
  const loop = createRelayLoop(deps, { timers, health, position, acks, onNotification: intake.onNotification });

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

interface RelayPieces {
  health: RelayHealth;
  position: RelayPosition;
  acks: RelayAcks;
}

/** Each notification of the stream: recorded by the ingest, remembered, acknowledged (once). */
function createNotificationIntake(deps: RelayConsumerDeps, { health, position, acks }: RelayPieces) {
  const { logger } = deps;
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
      outcome = await deps.ingest(n);
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
    if ((deps.delivered ?? isDelivered)(outcome)) health.emitter.emit('delivered');
  }

  return {
    onNotification,
    /** Forgets the notifications seen (a new enrollment). */
    forget: () => seen.clear(),
  };
}

/** The connection loop: connect, read the stream, reconnect with backoff, stop for good on a refusal. */
function createRelayLoop(
  deps: RelayConsumerDeps,
  pieces: RelayPieces & { timers: Timers; onNotification: (e: SseEvent) => Promise<void> },
) {
  const { timers, health, position, acks, onNotification } = pieces;
  const doFetch = deps.fetch ?? ((...a: Parameters<typeof fetch>) => fetch(...a));
  const random = deps.random ?? Math.random;
  const backoff = deps.backoff ?? DEFAULT_RELAY_BACKOFF;
  const connectTimeoutMs = deps.connectTimeoutMs ?? 10_000;
  const { logger } = deps;
  const setHealthy = (v: boolean) => health.set(v);

  let running = false;
  let refused = false;
  let failures = 0;
  let generation = 0;
  let abort: AbortController | null = null;
  let loop: Promise<void> | null = null;
  let retryTimer: TimerHandle | null = null;
  let watchdog: TimerHandle | null = null;
  function clearTimer(t: TimerHandle | null): null {
    if (t !== null) timers.clearTimeout(t);
    return null;
  }

  /** Nothing within `ms`: the stream is silent, so drop it (the loop reconnects). */
  function armWatchdog(gen: number, ms: number): void {
    watchdog = clearTimer(watchdog);
    watchdog = timers.setTimeout(() => {
      watchdog = null;
      if (gen !== generation) return;
      logger.warn('relay stream silent; reconnecting', { afterMs: ms });
      setHealthy(false);
      abort?.abort();
    }, ms);
  }

  // ---- refusal ----
  function refuse(e: HubCallError): void {
    if (refused) return;
    refused = true;
    running = false;
    logger.error('the Hub refused this counter; relay stopped', { code: e.code });
    retryTimer = clearTimer(retryTimer);
    watchdog = clearTimer(watchdog);
    abort?.abort();
    setHealthy(false);
    try {
      deps.onRefused?.(e);
    } catch (err) {
      logger.error('relay onRefused failed', { error: err instanceof Error ? err.message : String(err) });
    }
  }

  // ---- one connection ----
  async function connectOnce(gen: number): Promise<void> {
    const conn = deps.connection();
    if (!conn) return;
    const ctl = new AbortController();
    abort = ctl;
    armWatchdog(gen, connectTimeoutMs);
    const stream = await openRelayStream(doFetch, conn, position.last, ctl.signal, deps.practice?.() ?? false);
    const queue: SseEvent[] = [];
    const parser = createSseParser((e) => queue.push(e));
    const reader = stream.pipeThrough(new TextDecoderStream()).getReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done || gen !== generation) break;
        parser.push(value);
        while (queue.length) {
          const e = queue.shift()!;
          if (gen !== generation) return;
          if (e.event === 'heartbeat') {
            const hb = RelayHeartbeatSchema.safeParse(safeJson(e.data));
            if (hb.success) {
              heartbeatMs = hb.data.intervalMs;
              health.canVerify = hb.data.canVerify ?? null;
            }
            armWatchdog(gen, heartbeatMs + HEARTBEAT_GRACE_MS);
            failures = 0;
            setHealthy(true);
          } else if (e.event === 'notification') {
            await onNotification(e);
            // Arm after the work: a slow disk must not count against the Hub's silence.
            if (health.healthy) armWatchdog(gen, heartbeatMs + HEARTBEAT_GRACE_MS);
          } else if (e.event === 'programme' || e.event === 'seats') {
            onBranchNews(e, deps, logger);
          } else if (e.event === 'revoked') {
            refuse(revokedError(e));
            return;
          }
        }
      }
    } finally {
      reader.cancel().catch(() => {});
    }
  }

  /** The Hub's heartbeat interval, as its last heartbeat said. */
  let heartbeatMs = connectTimeoutMs;

  function schedule(gen: number): void {
    if (!running || gen !== generation) return;
    failures += 1;
    const delay = backoffWithJitter(failures, backoff, random);
    retryTimer = clearTimer(retryTimer);
    retryTimer = timers.setTimeout(() => {
      retryTimer = null;
      run();
    }, delay);
  }

  function run(): void {
    if (!running || refused) return;
    const gen = ++generation;
    const p = (async () => {
      try {
        await connectOnce(gen);
      } catch (e) {
        if (e instanceof HubCallError && isRefusal(e.code)) return refuse(e);
        if (gen === generation && running)
          logger.warn('relay stream lost; reconnecting', { why: whyLost(e), failures: failures + 1 });
      } finally {
        if (gen === generation) {
          watchdog = clearTimer(watchdog);
          setHealthy(false);
        }
      }
      if (gen === generation && deps.connection()) schedule(gen);
    })();
    loop = p;
  }

  return {
    refused: () => refused,
    refuse,
    start() {
      if (running) return;
      refused = false;
      running = true;
      run();
    },
    async stop() {
      running = false;
      generation += 1;
      retryTimer = clearTimer(retryTimer);
      watchdog = clearTimer(watchdog);
      abort?.abort();
      setHealthy(false);
      await loop?.catch(() => {});
      await acks.flushAcks().catch(() => {});
      acks.stopTimer();
    },
    reconnect() {
      if (!running) return;
      failures = 0;
      retryTimer = clearTimer(retryTimer);
      abort?.abort();
      run();
    },
  };
}
