// The provider's order number of a sale goes to the Hub the moment the counter learns it, on a call
// of its own (POST /api/v1/orders/claim), not behind the journal's sync: the Hub routes the sale's POS
// webhook by that number only, and holds it until the owner is known. A sync already in flight with
// an earlier batch (the last sale's Paid, a status) made the sync naming the number wait for its
// answer, and the customer's webhook with it (issue 28: detection with the relay p50 29 against
// 12 ms before the Hub held webhooks). Not on the sale's path: sent after the owner's transaction,
// never awaited; a failed claim changes nothing, as the journal's sync claims the same keys anyway.
import {
  OrderClaimResponseSchema,
  ORDER_CLAIM_PATH,
  type OrderClaimRequest,
  type SyncKind,
} from '../../shared/hub-contract';
import type { TimerHandle, Timers } from '../lib';
import { HubCallError } from './link-client';
import type { HubPartDeps } from './link-types';

/** The sale's reference and provider order number when this event names both (a POS webhook's routing key). */
export function orderClaimOf(kind: SyncKind, payload: unknown): { reference: string; orderNo: string } | null {
  if (kind !== 'order.created' && kind !== 'order.status') return null;
  const p = payload as { reference?: unknown; orderNo?: unknown } | null;
  if (typeof p?.reference !== 'string' || typeof p.orderNo !== 'string' || !p.reference || !p.orderNo) return null;
  return { reference: p.reference, orderNo: p.orderNo };
}

export const ORDER_CLAIM_TIMEOUT_MS = 10_000;

/**
 * Every status after the orderNo is learnt names it again (Paid, its payment number): only the first
 * is claimed. Remembers the last `size` order numbers (a counter has a few open sales at once).
 */
export function recentClaims(size = 64): {
  first(c: { reference: string; orderNo: string } | null): { reference: string; orderNo: string } | null;
} {
  const seen = new Set<string>();
  return {
    first(c) {
      if (!c || seen.has(c.orderNo)) return null;
      seen.add(c.orderNo);
      if (seen.size > size) seen.delete(seen.values().next().value!);
      return c;
    },
  };
}

/**
 * A claim the Hub refused for this counter's rate (429, HUB_RATE_LIMITED) is sent again after the
 * wait the Hub named (`retryAfterMs`), up to ORDER_CLAIM_TRIES calls in all: giving it up left the
 * customer's webhook held until the journal's sync, whose backoff is far longer (bench:hub saw
 * 550-950 ms once a fast run of sales had spent the counter's burst). A longer wait than
 * ORDER_CLAIM_MAX_WAIT_MS is not waited for: the journal's sync names the order by then.
 */
export const ORDER_CLAIM_TRIES = 4;
export const ORDER_CLAIM_MAX_WAIT_MS = 2_000;

export interface ClaimSender {
  /** Sends one claim now (fire and forget); the answer only logged when it was finally not taken. */
  send(claim: { reference: string; orderNo: string }): void;
  /** Drops the claims waiting to be sent again (the pusher stopped). */
  stop(): void;
}

export function createClaimSender(
  deps: Pick<HubPartDeps, 'client' | 'connection' | 'logger'>,
  timers: Timers,
  running: () => boolean,
): ClaimSender {
  const waiting = new Set<TimerHandle>();
  const notTaken = (claim: { reference: string }, e: unknown) =>
    deps.logger.info('hub claim: not taken; the journal sync names the order instead', {
      reference: claim.reference,
      error: e instanceof Error ? e.message : String(e),
    });
  function attempt(claim: { reference: string; orderNo: string }, tries: number): void {
    const conn = deps.connection();
    if (!conn || !running()) return;
    const body: OrderClaimRequest = { orders: [claim] };
    deps.client
      .call(conn, 'POST', ORDER_CLAIM_PATH, body, OrderClaimResponseSchema, { timeoutMs: ORDER_CLAIM_TIMEOUT_MS })
      .catch((e: unknown) => {
        const wait = e instanceof HubCallError && e.code === 'HUB_RATE_LIMITED' ? Number(e.details.retryAfterMs) : NaN;
        if (tries >= ORDER_CLAIM_TRIES || !(wait >= 0 && wait <= ORDER_CLAIM_MAX_WAIT_MS) || !running())
          return notTaken(claim, e);
        const h = timers.setTimeout(() => {
          waiting.delete(h);
          attempt(claim, tries + 1);
        }, Math.ceil(wait));
        waiting.add(h);
      });
  }
  return {
    send: (claim) => attempt(claim, 1),
    stop() {
      for (const h of waiting) timers.clearTimeout(h);
      waiting.clear();
    },
  };
}
