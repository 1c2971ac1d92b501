// The one path of every provider notification, whether the provider POSTed it to this counter or
// the Hub relayed it: verify (exactly the same checks, with the merchant's own keys) → record
// durably, de-duplicated on what it says (kind, orderNo, status) → hand on once. A relayed body
// gets no trust from the Hub: only its timestamp window differs (docs/provider-protocol.md).
import type { RelayNotification } from '../../shared/hub-contract';
import type { Clock } from '../../shared/clock';
import type { Db } from '../db';
import type { Logger } from '../../shared/logger';
import type { ProviderConfig } from '../provider';
import { verifyBillsCallback } from './bills-callback';
import { verifyPosWebhook } from './pos-webhook';
import { markWebhookEventFailed, markWebhookEventHandled, recordWebhookEvent, type WebhookKind } from './webhook-store';
import { WEBHOOK_REFUSAL_CODES as C } from '../../protocol/pos-webhook';
import { type BillsCallbackEvent, type PosNotification, type WebhookVerdict } from './webhook-types';

/**
 * How old a relayed POS notification may be. A counter that was off for days still gets the
 * provider's signed statements about its orders from the Hub; the Hub keeps them 90 days by default.
 */
export const RELAY_MAX_AGE_MS = 90 * 24 * 60 * 60 * 1000;

export type IngestOutcome = 'recorded' | 'repeat' | 'refused' | 'ignored';

interface WebhookIngestResult {
  outcome: IngestOutcome;
  /** For a refusal: the answer a direct caller gets. */
  httpStatus: number;
  code: string;
  reason: string;
}

interface WebhookIngestDeps {
  db: Db;
  logger: Logger;
  clock: Clock;
  /** Read on every notification, so new keys apply without a restart. */
  getConfig: () => ProviderConfig;
  /** Called once per distinct event, after it is durably recorded. Exceptions are logged; the event stays recorded. */
  onPosNotification: (n: PosNotification) => unknown;
  onBillsCallback: (c: BillsCallbackEvent) => unknown;
  /**
   * Relayed POS notifications only: is this order one of ours? The Hub sends each to the counter
   * that owns the order, but one it relays for an order this counter lacks (an older Hub sent
   * unknown orders to every counter of the branch) is ignored quietly (nothing recorded).
   */
  ownsPosOrder?: (n: PosNotification) => boolean;
}

interface WebhookIngestInput {
  kind: WebhookKind;
  /** The raw body, exactly as the provider sent it. */
  body: string;
  via: 'direct' | 'relay';
  /** The provider's transaction-id header (not signed: only logged when it differs). */
  tranId?: string;
  /** Relay only: the Hub's delivery id, for the log. */
  eventId?: string;
}

/** A notification relayed by the Hub as ingest input: its raw body, and the transaction header found by name in any case. */
export function relayedIngestInput(n: RelayNotification, tranIdHeader: string): WebhookIngestInput {
  const name = tranIdHeader.toLowerCase();
  const tranId = n.kind === 'pos' ? Object.entries(n.headers).find(([k]) => k.toLowerCase() === name)?.[1] : undefined;
  return { kind: n.kind, body: n.body, via: 'relay', eventId: n.eventId, ...(tranId ? { tranId } : {}) };
}

const OK = (outcome: IngestOutcome, reason = ''): WebhookIngestResult => ({
  outcome,
  httpStatus: 200,
  code: '00000',
  reason,
});

export type WebhookIngest = (i: WebhookIngestInput) => WebhookIngestResult;

export function createWebhookIngest(deps: WebhookIngestDeps): WebhookIngest {
  const { db, logger, clock } = deps;

  function accept<T>(
    i: WebhookIngestInput,
    verdict: Extract<WebhookVerdict<T>, { ok: true }>,
    handler: (e: T) => unknown,
  ): WebhookIngestResult {
    const { kind, via } = i;
    const id = recordWebhookEvent(db, {
      kind,
      dedupeKey: verdict.dedupeKey,
      orderNo: verdict.orderNo,
      status: verdict.status,
      payload: verdict.event,
      receivedAt: clock.now(),
    });
    if (id === null) {
      logger.info('webhook repeat acknowledged, not handled again', {
        kind,
        via,
        orderNo: verdict.orderNo,
        status: verdict.status,
      });
      return OK('repeat');
    }
    logger.info('webhook recorded', {
      kind,
      via,
      id,
      orderNo: verdict.orderNo,
      status: verdict.status,
      ...(i.tranId ? { tranId: i.tranId } : {}),
      ...(i.eventId ? { eventId: i.eventId } : {}),
    });
    // The transaction header is not signed, so a mismatch is only worth a line in the log.
    if (i.tranId && i.tranId !== verdict.orderNo)
      logger.warn('webhook transaction header differs from the signed orderNo', {
        kind,
        id,
        tranId: i.tranId,
        orderNo: verdict.orderNo,
      });
    const failed = (e: unknown) => {
      const message = e instanceof Error ? e.message : String(e);
      logger.error('webhook handler failed; the event stays recorded for replay', {
        kind,
        id,
        orderNo: verdict.orderNo,
        error: message,
      });
      markWebhookEventFailed(db, id, message);
    };
    try {
      const r: unknown = handler(verdict.event);
      if (r && typeof (r as Promise<unknown>).then === 'function') {
        (r as Promise<unknown>).then(() => markWebhookEventHandled(db, id, clock.now()), failed);
      } else {
        markWebhookEventHandled(db, id, clock.now());
      }
    } catch (e) {
      failed(e);
    }
    return OK('recorded');
  }

  const refused = (v: { httpStatus: number; code: string; reason: string }): WebhookIngestResult => ({
    // Without keys this counter cannot judge the notification at all: nothing is wrong with it.
    outcome: v.code === C.notConfigured ? 'ignored' : 'refused',
    httpStatus: v.httpStatus,
    code: v.code,
    reason: v.reason,
  });

  return function ingest(i: WebhookIngestInput): WebhookIngestResult {
    const cfg = deps.getConfig();
    if (i.kind === 'pos') {
      const verdict = verifyPosWebhook(
        i.body,
        cfg,
        clock.now(),
        i.via === 'relay' ? { maxAgeMs: RELAY_MAX_AGE_MS } : {},
      );
      if (!verdict.ok) return refused(verdict);
      // Quietly: every counter of a branch gets the orders the Hub does not know yet.
      if (i.via === 'relay' && deps.ownsPosOrder && !deps.ownsPosOrder(verdict.event))
        return OK('ignored', 'not an order of this counter');
      return accept(i, verdict, deps.onPosNotification);
    }
    const verdict = verifyBillsCallback(i.body, cfg);
    if (!verdict.ok) return refused(verdict);
    return accept(i, verdict, deps.onBillsCallback);
  };
}
