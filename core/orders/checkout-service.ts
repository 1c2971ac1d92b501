// The ticket checkout: sells (journal first, then the provider), follows each order to a final
// state through webhooks, status checks and the queue sender, and resumes all of it after a restart.
// Its parts: what they share while running (checkout-run.ts), the provider calls for one order
// (order-calls.ts), the connectivity monitor, the queue sender, the poller and the relay's health,
// built and wired in checkout-parts.ts; the doors for a sale in checkout-sales.ts, the follow-up of
// orders sent in checkout-follow-up.ts; what it takes in checkout-deps.ts.
import type { Connectivity, OrderEvent, OrderView } from '../../shared/orders';
import { lagosDayCode } from './out-order-no';
import type { CheckoutDeps } from './checkout-deps';
import { buildCheckoutParts } from './checkout-parts';
import { checkoutSales } from './checkout-sales';
import { checkoutFollowUp } from './checkout-follow-up';

export type { CheckoutEvents } from './checkout-events';
export { DEFAULT_CHECKOUT_TUNING, type CheckoutTuning, type CheckoutTuningInput } from './checkout-tuning';
export type { CheckoutDeps, CheckoutSettings, SellOptions } from './checkout-deps';

export type CheckoutService = ReturnType<typeof createCheckoutService>;

export function createCheckoutService(deps: CheckoutDeps) {
  const parts = buildCheckoutParts(deps);
  const { now, journal, run, view, recordOf, seats, queueSender } = parts;

  return {
    ...checkoutSales(parts),

    get(id: number): OrderView | null {
      const rec = journal.get(id);
      return rec ? view(rec) : null;
    },

    getByOutOrderNo(outOrderNo: string): OrderView | null {
      const rec = journal.findByOutOrderNo(outOrderNo);
      return rec ? view(rec) : null;
    },

    /** Today's orders (Lagos business day), newest first. */
    listToday(): OrderView[] {
      return journal.listDay(lagosDayCode(now())).map(view);
    },

    /** Every order not yet final (any day), oldest first: what still needs the app's attention. */
    listOpen(): OrderView[] {
      return journal.listOpen().map(view);
    },

    /** How many orders are not final (told to the Hub on every sync): counted, no view built. */
    countOpen(): number {
      return journal.countOpen();
    },

    /** Queued orders, oldest first (the order they will be sent in). */
    listQueued(): OrderView[] {
      return journal.listQueued().map(view);
    },

    history(id: number): OrderEvent[] {
      recordOf(id);
      return journal.history(id);
    },

    connectivity(): Connectivity {
      return run.connectivity();
    },

    /** The counter's terminal changed: queued sales bound for the old one are ended, those for the new one may go. */
    terminalChanged(): void {
      if (!run.stopped && journal.countQueued() > 0) queueSender.kick();
    },

    /** This counter's own seats of a show: held while its sale is open, sold when paid (also paid after closing). */
    ownSeats(showKey: string) {
      return seats.store.ownTaken(showKey, deps.settings().counterName);
    },

    /** The show and seats of a sale of a show with a seat map (null: none). */
    seatsOf(id: number) {
      return seats.store.of(id);
    },

    ...checkoutFollowUp(parts),
  };
}
