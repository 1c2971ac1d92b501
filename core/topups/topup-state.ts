// The life of one top-up item: which moves are allowed, and what the provider's status means.
import type { TopupState } from '../../shared/topups';
import { isFinalTopupState } from '../../shared/topups';
import type { TopupStatus } from '../provider';

const MOVES: Record<TopupState, readonly TopupState[]> = {
  draft: ['queued', 'not_sent', 'cancelled'],
  // success/fail: a verified callback may settle an item waiting to be sent again.
  queued: ['sending', 'cancelled', 'not_sent', 'success', 'fail'],
  // "queued" again only when the request certainly did not leave (nothing reached the provider).
  sending: ['pending', 'success', 'fail', 'unknown', 'queued', 'not_sent'],
  // "queued" again only when the provider said the reference does not exist.
  unknown: ['pending', 'success', 'fail', 'queued', 'not_sent'],
  pending: ['success', 'fail', 'queued', 'unknown'],
  success: [],
  fail: [],
  not_sent: [],
  cancelled: [],
};

export function canMove(from: TopupState, to: TopupState): boolean {
  return !isFinalTopupState(from) && MOVES[from].includes(to);
}

/** The item state for a provider status (null = the provider has no such order). */
export function stateForStatus(status: TopupStatus | null): 'success' | 'fail' | 'pending' | null {
  switch (status) {
    case 'SUCCESS':
      return 'success';
    case 'FAIL':
      return 'fail';
    case 'INITIAL':
    case 'PENDING':
      return 'pending';
    default:
      return null;
  }
}

/** The provider refusing a reference it already holds (ours, sent before): its status must be asked, not taken as FAIL. */
export function saysReferenceUsed(errorMsg: string): boolean {
  return /already\s*(been\s*)?used|already\s*exist|duplicate|repeat(ed)?\s*(order|request|reference)/i.test(errorMsg);
}
