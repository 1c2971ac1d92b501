// The relay consumer's connection loop: connect with the stream position, read the stream
// (heartbeats keep it healthy, notifications go to the intake, the branch's news is handed on),
// reconnect with backoff and jitter, stop for good when the Hub refuses the counter. A watchdog
// drops a stream silent past the Hub's heartbeat interval + 1 s.
import { RelayHeartbeatSchema } from '../../shared/hub-contract';
import type { Logger } from '../../shared/logger';
import { backoffWithJitter, type TimerHandle, type Timers } from '../lib';
import { HubCallError } from './link-client';
import type { HubConnectionSource } from './link-types';
import { createSseParser, type SseEvent } from './sse-parser';
import {
  type RelayAcks,
  isRefusal,
  onBranchNews,
  openRelayStream,
  RelayHealth,
  RelayPosition,
  revokedError,
  safeJson,
  whyLost,
} from './relay-parts';

/** Grace on top of the Hub's heartbeat interval before the stream counts as silent. */
export const HEARTBEAT_GRACE_MS = 1_000;

/** The connection loop: connect, read the stream, reconnect with backoff, stop for good on a refusal. */
export interface RelayLoopDeps {
  connection: HubConnectionSource;
  logger: Logger;
  timers: Timers;
  fetch: typeof fetch;
  /** [0, 1): the reconnect jitter. */
  random: () => number;
  backoff: { baseMs: number; maxMs: number };
  /** How long a connection may take to deliver its first heartbeat. */
  connectTimeoutMs: number;
  /** This counter shows practice seat maps: its stream asks for practice seat changes. */
  practice: () => boolean;
  /** Where the branch's news goes (`event: programme`, `event: seats`). */
  news: Parameters<typeof onBranchNews>[1];
  /** The Hub refused our credential for good (revoked or unknown). */
  onRefused?: ((e: HubCallError) => void) | undefined;
  health: RelayHealth;
  position: RelayPosition;
  acks: RelayAcks;
  onNotification: (e: SseEvent) => Promise<void>;
}

export function createRelayLoop(d: RelayLoopDeps) {
  const { timers, health, position, acks, onNotification, logger, random, backoff, connectTimeoutMs } = d;
  const doFetch = d.fetch;
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
      d.onRefused?.(e);
    } catch (err) {
      logger.error('relay onRefused failed', { error: err instanceof Error ? err.message : String(err) });
    }
  }

  // ---- one connection ----
  async function connectOnce(gen: number): Promise<void> {
    const conn = d.connection();
    if (!conn) return;
    const ctl = new AbortController();
    abort = ctl;
    armWatchdog(gen, connectTimeoutMs);
    const stream = await openRelayStream(doFetch, conn, position.last, ctl.signal, d.practice());
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
            onBranchNews(e, d.news, logger);
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
      if (gen === generation && d.connection()) schedule(gen);
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
