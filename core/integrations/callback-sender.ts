// Delivers the durable callback queue (integration_deliveries): each state change of a charge is
// POSTed to its callback URL, signed with the integration's key, in order per charge (the next
// change waits until the one before is acknowledged with a 2xx), retried with backoff and jitter
// until acknowledged. The queue is in SQLite, so a restart picks up where it stopped.
import { signCallback } from '../../protocol/crypto';
import { CALLBACK_HEADERS, type CallbackBody, type ChargeView } from '../../shared/integration';
import type { Logger } from '../../shared/logger';
import { backoffWithJitter, type BackoffTuning, type TimerHandle, type Timers } from '../lib';
import type { ChargeRow, DeliveryRow, IntegrationRow, IntegrationStore } from './integration-store';

export interface CallbackSenderDeps {
  store: IntegrationStore;
  /** The integration's key from the vault (null: revoked or gone). */
  keyOf: (integrationId: string) => string | null;
  viewOf: (c: ChargeRow, integrationName: string) => ChargeView;
  now: () => number;
  timers: Timers;
  logger: Logger;
  random?: () => number;
  backoff?: BackoffTuning;
  timeoutMs?: number;
  /** A delivery was acknowledged (the bench measures from the outcome to here). */
  onDelivered?: (d: DeliveryRow, view: ChargeView) => void;
}

const DEFAULT_CALLBACK_BACKOFF: BackoffTuning = { baseMs: 1_000, maxMs: 5 * 60_000 };
const PARALLEL = 8;

export function createCallbackSender(deps: CallbackSenderDeps) {
  const { store, logger, timers } = deps;
  const backoff = deps.backoff ?? DEFAULT_CALLBACK_BACKOFF;
  const random = deps.random ?? Math.random;
  const timeoutMs = deps.timeoutMs ?? 10_000;
  /** Charges with a delivery in flight: their next change waits. */
  const busy = new Set<number>();
  const inFlight = new Set<Promise<void>>();
  let timer: TimerHandle | null = null;
  let stopped = false;
  const idleWaiters: (() => void)[] = [];

  function schedule(): void {
    if (stopped) return;
    if (timer) timers.clearTimeout(timer);
    timer = null;
    const next = store.nextDueAt();
    if (next === null) return;
    timer = timers.setTimeout(pump, Math.max(0, next - deps.now()));
  }

  async function deliver(d: DeliveryRow): Promise<void> {
    const charge = store.charge(d.chargeId);
    const integration: IntegrationRow | null = charge ? store.integration(charge.integrationId) : null;
    const key = integration && !integration.revokedAt ? deps.keyOf(integration.id) : null;
    let status: number | null = null;
    let error: string | null = null;
    let view: ChargeView | null = null;
    let detail: string | null = null;
    if (!charge || !integration || !key) {
      error = 'the integration was revoked: its key is gone, so nothing can be signed';
    } else {
      view = deps.viewOf(charge, integration.name);
      const body: CallbackBody = {
        event: {
          eventId: `${charge.reference}:${d.seq}`,
          sequence: d.seq,
          from: d.from,
          to: d.to,
          at: d.at,
          note: d.note,
        },
        charge: view,
      };
      const text = JSON.stringify(body);
      const timestamp = String(deps.now());
      try {
        const res = await fetch(d.url, {
          method: 'POST',
          redirect: 'manual',
          signal: AbortSignal.timeout(timeoutMs),
          headers: {
            'content-type': 'application/json',
            [CALLBACK_HEADERS.timestamp]: timestamp,
            [CALLBACK_HEADERS.signature]: signCallback(key, timestamp, text),
            [CALLBACK_HEADERS.event]: body.event.eventId,
          },
          body: text,
        });
        status = res.status;
        await res.arrayBuffer().catch(() => undefined);
        if (status < 200 || status > 299) error = `the callback URL answered HTTP ${status}`;
      } catch (e) {
        // The box office reads the delivery log: one wording for a refused connection, a timeout
        // or a name that does not resolve, so the log cannot tell open ports from closed ones.
        // The reason stays in the counter's own log.
        error = 'the callback URL could not be reached';
        detail =
          e instanceof Error ? `${e.message}${e.cause instanceof Error ? `: ${e.cause.message}` : ''}` : String(e);
      }
    }
    const delivered = error === null;
    const at = deps.now();
    store.recordAttempt(d, at, {
      status,
      error,
      delivered,
      nextAt: at + backoffWithJitter(d.attempts + 1, backoff, random),
    });
    if (delivered) deps.onDelivered?.(d, view!);
    else
      logger.warn('integration callback not acknowledged; will retry', {
        chargeId: d.chargeId,
        sequence: d.seq,
        attempts: d.attempts + 1,
        status,
        error,
        ...(detail ? { detail } : {}),
      });
  }

  function pump(): void {
    timer = null;
    if (stopped) return;
    for (const d of store.dueDeliveries(deps.now(), 100)) {
      if (busy.size >= PARALLEL) break;
      if (busy.has(d.chargeId)) continue;
      busy.add(d.chargeId);
      const p = deliver(d)
        .catch((e: unknown) =>
          logger.error('integration callback failed to record', { error: e instanceof Error ? e.message : String(e) }),
        )
        .finally(() => {
          busy.delete(d.chargeId);
          inFlight.delete(p);
          pump();
        });
      inFlight.add(p);
    }
    if (busy.size === 0) {
      while (idleWaiters.length) idleWaiters.shift()!();
    }
    schedule();
  }

  return {
    /** New deliveries were queued (or a restart): send what is due now. */
    kick(): void {
      if (!stopped) pump();
    },
    /** Resolves when nothing is in flight. */
    idle(): Promise<void> {
      return busy.size === 0 ? Promise.resolve() : new Promise((r) => idleWaiters.push(r));
    },
    async stop(): Promise<void> {
      stopped = true;
      if (timer) timers.clearTimeout(timer);
      timer = null;
      while (inFlight.size) await Promise.allSettled([...inFlight]);
    },
  };
}
