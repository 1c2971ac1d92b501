// What one answer of the provider means for one item: the move to journal and when to ask again.
// Pure functions, so the rules read in one place (the engine does the timing and the I/O).
import type { TopupResult } from '../provider';
import type { EngineTuning } from './topup-tuning';
import type { Move, TopupRecord } from './topup-rows';
import { saysReferenceUsed, stateForStatus } from './topup-state';

/** States followed with status inquiries. */
export const OPEN_FOLLOWED = ['unknown', 'pending'] as const;

export interface Decision<M extends Move | null = Move | null> {
  move: M;
  /** Ask about the item again in this many ms; null = stop following it. */
  checkIn: number | null;
}

export function finalMove(rec: TopupRecord, state: 'success' | 'fail', res: TopupResult, from: Move['from']): Move {
  const errorMsg =
    state === 'fail' ? res.errorMsg.trim() || 'The provider reported the top-up as failed (no reason given)' : '';
  return {
    id: rec.id,
    to: state,
    from,
    note: state === 'success' ? 'Provider status SUCCESS' : `Provider status FAIL: ${errorMsg}`,
    patch: { providerStatus: res.status, orderNo: res.orderNo, errorMsg },
  };
}

/** The item's line in a bulk-bills answer (undefined: the answer did not list it). */
export function afterSend(rec: TopupRecord, res: TopupResult | undefined, t: EngineTuning): Decision<Move> {
  const state = res ? stateForStatus(res.status) : null;
  if (!res || state === null) {
    return {
      move: {
        id: rec.id,
        to: 'unknown',
        from: ['sending'],
        note: 'The answer did not give this top-up a status: asking the provider',
      },
      checkIn: t.firstCheckMs,
    };
  }
  if (state === 'fail' && rec.attempts > 1 && saysReferenceUsed(res.errorMsg)) {
    // Our earlier attempt reached the provider after all: its status decides, not this refusal.
    return {
      move: {
        id: rec.id,
        to: 'unknown',
        from: ['sending'],
        note: 'The provider already holds this reference from an earlier attempt: asking its status',
      },
      checkIn: 0,
    };
  }
  if (state === 'pending') {
    return {
      move: {
        id: rec.id,
        to: 'pending',
        from: ['sending'],
        note: `Accepted by the provider (${res.status})`,
        patch: { providerStatus: res.status, orderNo: res.orderNo },
      },
      checkIn: t.firstCheckMs,
    };
  }
  return { move: finalMove(rec, state, res, ['sending']), checkIn: null };
}

/**
 * The item's line in a bulk-status answer. "Does not exist" is the one answer that lets the
 * reference go out again (the same reference), until the last attempt.
 */
export function afterStatus(rec: TopupRecord, res: TopupResult, interval: number, t: EngineTuning): Decision {
  const state = stateForStatus(res.status);
  if (state === null) {
    if (rec.attempts >= t.maxAttempts) {
      return {
        move: {
          id: rec.id,
          to: 'not_sent',
          from: OPEN_FOLLOWED,
          note: 'The provider has no record of it after every attempt',
          patch: {
            errorMsg: `Not sent: the provider has no record of this top-up after ${rec.attempts} attempts. Nothing was charged.`,
            providerStatus: null,
          },
        },
        checkIn: null,
      };
    }
    return {
      move: {
        id: rec.id,
        to: 'queued',
        from: OPEN_FOLLOWED,
        note: 'The provider says this reference does not exist: sending it again with the same reference',
        patch: { providerStatus: null },
      },
      checkIn: null,
    };
  }
  if (state === 'pending') {
    const next =
      rec.state === 'pending' ? Math.min(t.maxCheckMs, Math.round(interval * t.checkGrowth)) : t.firstCheckMs;
    const changed =
      rec.state !== 'pending' ||
      rec.providerStatus !== res.status ||
      (res.orderNo !== null && res.orderNo !== rec.orderNo);
    return {
      move: changed
        ? {
            id: rec.id,
            to: 'pending',
            from: OPEN_FOLLOWED,
            note: `Provider status ${res.status}`,
            patch: { providerStatus: res.status, orderNo: res.orderNo },
          }
        : null,
      checkIn: next,
    };
  }
  return { move: finalMove(rec, state, res, OPEN_FOLLOWED), checkIn: null };
}
