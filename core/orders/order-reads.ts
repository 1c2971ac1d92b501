// The checkout's reads of its orders, as views (OrderReads): one order, today's, the open and
// queued ones, an order's history. What the screens and other modules read of orders while the
// checkout runs; a shift's figures read the journal through OrderJournalReads instead.
import type { OrderEvent, OrderView } from '../../shared/orders';
import type { CheckoutRun } from './checkout-run';
import { lagosDayCode } from './out-order-no';

export interface OrderReadsDeps {
  run: CheckoutRun;
  now: () => number;
}

export function orderReads({ run, now }: OrderReadsDeps) {
  const { journal, view } = run;
  return {
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

    /** The order's events, oldest first; NOT_FOUND for an order this counter does not have. */
    history(id: number): OrderEvent[] {
      run.record(id);
      return journal.history(id);
    },
  };
}

export type OrderReads = ReturnType<typeof orderReads>;
