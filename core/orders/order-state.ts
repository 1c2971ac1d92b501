// The order state machine: which transitions are allowed, and what the provider's status words
// mean. A final state never changes again, whatever arrives later.
import { isFinalState, ORDER_STATES, type OrderState } from '../../shared/orders';

export { isFinalState, ORDER_STATES, type OrderState };

/**
 * Allowed transitions. The provider's word (webhook or query) may move any open order to what
 * it reports, because it is the evidence; our own steps are the narrower ones:
 *  queued   -> creating (the queue sender sends it), expired (too late to reach the terminal)
 *  creating -> waiting (created), queued (provider not reached), unknown (outcome unknown),
 *              failed (refused)
 *  unknown  -> creating (provider has no such order: send the same order again), waiting,
 *              expired (no such order and too late to send)
 *  waiting  -> unknown (the final check could not be made)
 */
const ALLOWED: Record<OrderState, readonly OrderState[]> = {
  queued: ['creating', 'waiting', 'paid', 'failed', 'cancelled', 'expired'],
  creating: ['waiting', 'queued', 'unknown', 'paid', 'failed', 'cancelled', 'expired'],
  unknown: ['creating', 'waiting', 'paid', 'failed', 'cancelled', 'expired'],
  waiting: ['unknown', 'paid', 'failed', 'cancelled', 'expired'],
  paid: [],
  failed: [],
  cancelled: [],
  expired: [],
};

export function canTransition(from: OrderState, to: OrderState): boolean {
  return ALLOWED[from].includes(to);
}

/** Orders that still need work from the app (sending or checking). */
export const OPEN_STATES: readonly OrderState[] = ORDER_STATES.filter((s) => !isFinalState(s));

/**
 * The provider's POS status word to our state; null for a word we do not know (the order is
 * then left as it is and the word is recorded, never guessed).
 */
export function stateForProviderStatus(status: string): OrderState | null {
  switch (status.trim().toUpperCase()) {
    case 'PENDING':
      return 'waiting';
    case 'SUCCESS':
      return 'paid';
    case 'FAIL':
      return 'failed';
    case 'CANCEL':
      return 'cancelled';
    case 'CLOSE':
      return 'expired';
    default:
      return null;
  }
}

/** The reason shown to the cashier when the provider moves an order to a final state. */
export function reasonForProviderState(state: OrderState): string | undefined {
  switch (state) {
    case 'failed':
      return 'The card payment failed or was declined on the terminal.';
    case 'cancelled':
      return 'The payment was cancelled on the terminal.';
    case 'expired':
      return 'The provider closed the order: nobody paid before it expired.';
    default:
      return undefined;
  }
}
