// What an answer from the provider means for an order, as pure decisions the service applies:
// a create's result, a status (query or webhook), "no such order", a failed check.
import { isAppError } from '../../shared/errors';
import { isAlreadyExists, isOutcomeUnknown } from '../provider';
import type { PosOrderDetails } from '../provider';
import type { OrderPatch, OrderRecord } from './order-journal';
import { reasonForProviderState, stateForProviderStatus, type OrderState } from './order-state';
import { tooLateToSend } from './poll-schedule';
import { detailsMismatch, factsFromDetails } from './sale-wire';

export type Decision =
  | { kind: 'none'; why?: string }
  | { kind: 'patch'; patch: OrderPatch }
  | { kind: 'move'; to: OrderState; note: string; patch: OrderPatch }
  /** unknown -> creating: the provider has no such order, send the same order again. */
  | { kind: 'send-again'; note: string };

export const REASONS = {
  queued:
    'No connection to the payment provider. The sale will be sent to the terminal as soon as the connection is back.',
  unknownCreate:
    'The provider did not confirm the order. Checking whether it reached the terminal: do not start a new sale for these tickets.',
  alreadyExists: 'The provider already has this sale number. Checking its status.',
  expiredUnsent:
    'The sale could not be sent to the terminal before it expired (no connection to the payment provider). Nothing was charged. Start a new sale when the connection is back.',
  expiredNeverArrived:
    'The order never reached the provider, and it is now too late to send it. Nothing was charged. Start a new sale.',
  expiredNobodyPaid: 'Nobody paid before the order expired.',
  undecided:
    'The result could not be confirmed with the provider after the order expired. Still checking: do not hand over the tickets until it shows Paid.',
  restarted: 'The app stopped while this order was being sent. Checking with the provider.',
  /** Follows the provider's refusal (its code, message and likely cause) when it was not signed. */
  refusedUnproven: 'The order may or may not have reached the terminal: do not start a new sale for these tickets.',
} as const;

function cashierText(err: unknown): string {
  return isAppError(err) ? err.message : 'Unexpected error while talking to the payment provider.';
}

/** A refusal whose likely cause (clock, keys) the cashier or admin can fix: its text, else null. */
function refusalReason(err: unknown): string | null {
  if (!isAppError(err) || typeof err.details?.cause !== 'string') return null;
  // Key problems need the administrator: say which setting on the order itself.
  const admin =
    err.details.cause !== 'clock' && typeof err.details.adminAction === 'string'
      ? ` Administrator: ${err.details.adminAction}`
      : '';
  return `${err.message}${admin}`;
}

/** The create call failed. UNREACHABLE means nothing was sent; otherwise ask before sending again. */
export function decideOnCreateError(err: unknown): Decision {
  if (isAppError(err) && err.code === 'PROVIDER_UNREACHABLE') {
    return {
      kind: 'move',
      to: 'queued',
      note: 'Provider not reachable; sale queued',
      patch: { reason: REASONS.queued },
    };
  }
  if (isAlreadyExists(err)) {
    return {
      kind: 'move',
      to: 'unknown',
      note: 'Provider says the order already exists; checking it',
      patch: { reason: REASONS.alreadyExists },
    };
  }
  if (isOutcomeUnknown(err)) {
    const code = isAppError(err) ? err.code : 'INTERNAL';
    const refused = refusalReason(err);
    if (refused) {
      const said = isAppError(err)
        ? ` ${String(err.details?.providerCode ?? '')} ${String(err.details?.providerMessage ?? '')}`.trimEnd()
        : '';
      return {
        kind: 'move',
        to: 'unknown',
        note: `Provider refused the order, unsigned (${code}${said}); checking with the provider`,
        patch: { reason: `${refused} ${REASONS.refusedUnproven}` },
      };
    }
    return {
      kind: 'move',
      to: 'unknown',
      note: `Create not confirmed (${code}); checking with the provider`,
      patch: { reason: REASONS.unknownCreate },
    };
  }
  return {
    kind: 'move',
    to: 'failed',
    note: `Provider refused the order (${isAppError(err) ? err.code : 'error'})`,
    patch: { reason: cashierText(err) },
  };
}

/**
 * The provider reported the order (query or webhook). `final`: reported at or after expiry +
 * grace, so a PENDING order is decided as expired.
 */
export function decideOnDetails(rec: OrderRecord, d: PosOrderDetails, opts: { now: number; final: boolean }): Decision {
  const mismatch = detailsMismatch(rec, d);
  if (mismatch) {
    // Not our order. Before we had our own orderNo, the number belongs to someone else: our
    // sale never reached the provider. After, something is badly wrong: hold it as unknown.
    if (!rec.orderNo && rec.state !== 'waiting') {
      return {
        kind: 'move',
        to: 'failed',
        note: `Provider's order under this number is not this sale: ${mismatch}`,
        patch: {
          reason: `${mismatch} This sale number is used by another sale, so this one was not sent. Nothing was charged for it. Ask the administrator to give each counter its own name, then start a new sale.`,
        },
      };
    }
    const reason = `${mismatch} Do not hand over the tickets: check this order with the provider.`;
    return rec.state === 'unknown' && rec.reason === reason
      ? { kind: 'none', why: 'mismatch already recorded' }
      : { kind: 'move', to: 'unknown', note: 'Provider details do not match this sale', patch: { reason } };
  }
  const facts = factsFromDetails(d);
  const to = stateForProviderStatus(d.status);
  if (to === null) {
    if (opts.final && rec.state === 'waiting') {
      return {
        kind: 'move',
        to: 'unknown',
        note: `Provider status "${d.status}" not understood at the final check`,
        patch: {
          ...facts,
          reason: `The provider reported a status this app does not know ("${d.status}"). Check this order with the provider before handing over the tickets.`,
        },
      };
    }
    return { kind: 'patch', patch: facts };
  }
  if (to === 'waiting') {
    if (opts.final)
      return {
        kind: 'move',
        to: 'expired',
        note: 'Still pending after expiry and grace period',
        patch: { ...facts, reason: REASONS.expiredNobodyPaid },
      };
    // A refusal shown while checking is over once the provider answers.
    if (rec.state === 'waiting') return { kind: 'patch', patch: rec.reason ? { ...facts, reason: null } : facts };
    return {
      kind: 'move',
      to: 'waiting',
      note: 'Provider has the order; waiting for payment',
      patch: { ...facts, waitingSince: opts.now, reason: null },
    };
  }
  const reason = reasonForProviderState(to);
  return { kind: 'move', to, note: `Provider reports ${d.status}`, patch: { ...facts, reason: reason ?? null } };
}

/** The provider says it has no order under this number. */
export function decideOnMissing(
  rec: OrderRecord,
  opts: { now: number; final: boolean; minUsefulMs: number },
): Decision {
  if (rec.state === 'unknown') {
    if (tooLateToSend(opts.now, rec.expiresAt, opts.minUsefulMs)) {
      return {
        kind: 'move',
        to: 'expired',
        note: 'Provider has no such order and it is too late to send it',
        patch: { reason: REASONS.expiredNeverArrived },
      };
    }
    return { kind: 'send-again', note: 'Provider has no such order; sending the same order again' };
  }
  if (rec.state === 'waiting' && opts.final) {
    return {
      kind: 'move',
      to: 'expired',
      note: 'Provider no longer reports the order after expiry',
      patch: { reason: REASONS.expiredNobodyPaid },
    };
  }
  return { kind: 'none', why: `provider has no such order while ${rec.state}` };
}

/** A status check failed. Only a failure at the final check of a waiting order changes it. */
export function decideOnQueryError(rec: OrderRecord, err: unknown, opts: { final: boolean }): Decision {
  if (isAppError(err) && err.code === 'PROVIDER_UNREACHABLE') return { kind: 'none', why: 'offline' };
  if (opts.final && rec.state === 'waiting') {
    return {
      kind: 'move',
      to: 'unknown',
      note: `Final check failed (${isAppError(err) ? err.code : 'error'})`,
      patch: { reason: REASONS.undecided },
    };
  }
  // The provider refuses our checks (clock, keys): say why on the order, so the cashier can act.
  const refused = refusalReason(err);
  if (refused) {
    const reason =
      rec.state === 'unknown'
        ? `${refused} ${REASONS.refusedUnproven}`
        : `${refused} The customer may still pay on the terminal; the result shows here once the provider answers again.`;
    return rec.reason === reason
      ? { kind: 'none', why: 'refusal already shown' }
      : { kind: 'patch', patch: { reason } };
  }
  return { kind: 'none', why: 'will check again' };
}

/** Whether an error proves the provider answered (so it is reachable). */
export function providerAnswered(err: unknown): boolean {
  return (
    isAppError(err) &&
    ['PROVIDER_HTTP', 'PROVIDER_REFUSED', 'PROVIDER_AUTH', 'PROVIDER_BAD_RESPONSE'].includes(err.code)
  );
}
