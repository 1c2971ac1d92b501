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
import { RelayProgrammeSchema } from '../../shared/hub-programme-contract';
import {
  AckResponseSchema,
  HubErrorSchema,
  RELAY_STREAM_PATH,
  RelayHeartbeatSchema,
  RelayNotificationSchema,
  type RelayNotification,
} from '../../shared/hub-contract';
import { backoffWithJitter, systemTimers, TypedEmitter, type TimerHandle } from '../lib';
import { HubCallError } from './link-client';
import type { RelayHealthSource } from '../orders';
import type { HubPartDeps } from './link-types';
import { createSseParser, type SseEvent } from './sse-parser';

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

/** hub_state key of the relay stream's position. */
export const RELAY_LAST_EVENT_ID_KEY = 'relay.lastEventId';
export const DEFAULT_RELAY_BACKOFF = { baseMs: 500, maxMs: 30_000 };
/** Grace on top of the Hub's heartbeat interval before the stream counts as silent. */
export const HEARTBEAT_GRACE_MS = 1_000;
const SEEN_KEPT = 2_000;
const MAX_PENDING_ACKS = 1_000;

class StreamClosed extends Error {}

/** The webhook ingest recorded it for one of this counter's orders (or had already). */
const isDelivered = (outcome: unknown): boolean => outcome === 'recorded' || outcome === 'repeat';

export function createRelayConsumer(deps: RelayConsumerDeps): RelayConsumer {
  const timers = deps.timers ?? systemTimers;
  const doFetch = deps.fetch ?? ((...a: Parameters<typeof fetch>) => fetch(...a));
  const random = deps.random ?? Math.random;
  const backoff = deps.backoff ?? DEFAULT_RELAY_BACKOFF;
  const connectTimeoutMs = deps.connectTimeoutMs ?? 10_000;
  const ackBatch = deps.ackBatch ?? 20;
  const ackDelayMs = deps.ackDelayMs ?? 50;
  const { logger, db } = deps;
  const emitter = new TypedEmitter<{ change: [boolean]; delivered: [] }>({
    onListenerError: (e) =>
      logger.error('relay health listener failed', { error: e instanceof Error ? e.message : String(e) }),
  });

  let running = false;
  let refused = false;
  let up = false;
  let canVerify: boolean | null = null;
  let healthy = false;
  /** The last change told said the Hub cannot verify (the status pill shows it). */
  let toldCannot = false;
  let failures = 0;
  let generation = 0;
  let abort: AbortController | null = null;
  let loop: Promise<void> | null = null;
  let retryTimer: TimerHandle | null = null;
  let watchdog: TimerHandle | null = null;
  let ackTimer: TimerHandle | null = null;
  let pendingAcks: string[] = [];
  let acking: Promise<void> | null = null;
  const seen = new Set<string>();

  // ---- the stream position, durable ----
  const readLast = (): string | null =>
    (
      db.prepare('SELECT value FROM hub_state WHERE key = ?').get(RELAY_LAST_EVENT_ID_KEY) as
        { value: string } | undefined
    )?.value ?? null;
  let last: string | null = readLast();
  function remember(eventId: string): void {
    if (last !== null && BigInt(eventId) <= BigInt(last)) return;
    db.prepare(
      'INSERT INTO hub_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    ).run(RELAY_LAST_EVENT_ID_KEY, eventId);
    last = eventId;
  }

  // ---- health ----
  function setHealthy(v: boolean): void {
    up = v;
    const is = up && canVerify !== false;
    const cannot = up && canVerify === false;
    if (healthy === is && cannot === toldCannot) return;
    toldCannot = cannot;
    healthy = is;
    logger.info(
      is
        ? 'relay stream healthy'
        : up
          ? 'the Hub cannot verify webhooks (no merchant file); payments are followed by status checks'
          : 'relay stream not healthy; payments are followed by status checks',
      {},
    );
    emitter.emit('change', is);
  }

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

  // ---- acknowledgements ----
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
    const conn = deps.connection();
    if (!pendingAcks.length || !conn || refused) return Promise.resolve();
    const ids = pendingAcks.splice(0, 1000);
    acking = (async () => {
      try {
        await deps.client.call(conn, 'POST', '/relay/ack', { eventIds: ids }, AckResponseSchema, { timeoutMs: 5_000 });
      } catch (e) {
        // Kept for the next flush. Losing them costs nothing but the Hub's log: the position is durable.
        pendingAcks = [...ids, ...pendingAcks].slice(-MAX_PENDING_ACKS);
        if (e instanceof HubCallError && isRefusal(e.code)) refuse(e);
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

  // ---- refusal ----
  const isRefusal = (code: string) => code === 'HUB_COUNTER_REVOKED' || code === 'HUB_UNAUTHENTICATED';
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
    remember(n.eventId);
    seen.add(n.eventId);
    if (seen.size > SEEN_KEPT) seen.delete(seen.values().next().value as string);
    queueAck(n.eventId);
    if ((deps.delivered ?? isDelivered)(outcome)) emitter.emit('delivered');
  }

  // ---- one connection ----
  async function connectOnce(gen: number): Promise<void> {
    const conn = deps.connection();
    if (!conn) return;
    const ctl = new AbortController();
    abort = ctl;
    armWatchdog(gen, connectTimeoutMs);
    const headers: Record<string, string> = {
      authorization: `Bearer ${conn.credential}`,
      accept: 'text/event-stream',
      'cache-control': 'no-store',
    };
    if (last) headers['last-event-id'] = last;
    const res = await doFetch(`${conn.url.replace(/\/+$/, '')}${RELAY_STREAM_PATH}`, { headers, signal: ctl.signal });
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
    const queue: SseEvent[] = [];
    const parser = createSseParser((e) => queue.push(e));
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
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
              canVerify = hb.data.canVerify ?? null;
            }
            armWatchdog(gen, heartbeatMs + HEARTBEAT_GRACE_MS);
            failures = 0;
            setHealthy(true);
          } else if (e.event === 'notification') {
            await onNotification(e);
            // Arm after the work: a slow disk must not count against the Hub's silence.
            if (healthy) armWatchdog(gen, heartbeatMs + HEARTBEAT_GRACE_MS);
          } else if (e.event === 'programme') {
            const p = RelayProgrammeSchema.safeParse(safeJson(e.data));
            if (p.success) {
              try {
                deps.onProgramme?.(p.data.version);
              } catch (err) {
                logger.error('relay programme listener failed', {
                  error: err instanceof Error ? err.message : String(err),
                });
              }
            }
          } else if (e.event === 'revoked') {
            const r = HubErrorSchema.safeParse(safeJson(e.data));
            refuse(
              new HubCallError(
                'HUB_COUNTER_REVOKED',
                r.success ? r.data.message : 'This counter was removed from the Hub by its manager.',
                403,
              ),
            );
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
  const safeJson = (s: string): unknown => {
    try {
      return JSON.parse(s) as unknown;
    } catch {
      return null;
    }
  };

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
        if (gen === generation && running) {
          const why =
            e instanceof HubCallError
              ? e.code
              : e instanceof StreamClosed
                ? e.message
                : e instanceof Error
                  ? e.name
                  : 'error';
          logger.warn('relay stream lost; reconnecting', { why, failures: failures + 1 });
        }
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
      await flushAcks().catch(() => {});
      ackTimer = clearTimer(ackTimer);
    },
    reconnect() {
      if (!running) return;
      failures = 0;
      retryTimer = clearTimer(retryTimer);
      abort?.abort();
      run();
    },
    reset() {
      db.prepare('DELETE FROM hub_state WHERE key = ?').run(RELAY_LAST_EVENT_ID_KEY);
      last = null;
      seen.clear();
      pendingAcks = [];
    },
    lastEventId: () => last,
    streamUp: () => up,
    hubCanVerify: () => (up ? canVerify : null),
    healthy: () => healthy,
    onChange: (listener) => emitter.on('change', listener),
    onDelivered: (listener) => emitter.on('delivered', listener),
  };
}
