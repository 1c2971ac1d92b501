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

/** Sends one claim now (fire and forget); the answer only logged when it failed. */
export function sendOrderClaim(
  deps: Pick<HubPartDeps, 'client' | 'connection' | 'logger'>,
  claim: { reference: string; orderNo: string },
): void {
  const conn = deps.connection();
  if (!conn) return;
  const body: OrderClaimRequest = { orders: [claim] };
  deps.client
    .call(conn, 'POST', ORDER_CLAIM_PATH, body, OrderClaimResponseSchema, { timeoutMs: ORDER_CLAIM_TIMEOUT_MS })
    .catch((e: unknown) =>
      deps.logger.info('hub claim: not taken; the journal sync names the order instead', {
        reference: claim.reference,
        error: e instanceof Error ? e.message : String(e),
      }),
    );
}
