// After the sale, as the checkout offers it (docs/refunds.md): the undo (cancel, the refunds owed and
// how each was returned: undo-service.ts) and the exchange (exchange.ts), built together because each
// keeps the other's seats: a seat in an exchange waiting for its difference is not cancelled, and an
// exchange cancels the old seats through the undo's tables. `moved` is the journal's hook: an
// exchange completes (or fails) in the transaction that makes its new sale final.
import { AppError } from '../../shared/errors';
import type { Logger } from '../../shared/logger';
import type { Db } from '../db';
import type { JournalSink } from '../journal-sink';
import type { BasketSources } from './basket-intake';
import type { CheckoutRun } from './checkout-run';
import type { checkoutSales } from './checkout-sales';
import { createExchanges } from './exchange';
import type { OrderRecord } from './order-journal';
import { createUndoService, type UndoDeps } from './undo-service';
import { UndoStore } from './undo-store';

/** Without the undo's parts (tools, some tests): nothing can be approved, so nothing is undone. */
const NO_UNDO: UndoDeps = {
  checkPin: () => Promise.reject(new AppError('PIN_NOT_SET', 'No admin PIN can be checked here.')),
  shiftAt: () => null,
};

export interface AfterSaleDeps {
  db: Db;
  run: CheckoutRun;
  sales: Pick<ReturnType<typeof checkoutSales>, 'sell'>;
  sink: JournalSink;
  now: () => number;
  logger: Logger;
  undo: UndoDeps | undefined;
  basket: BasketSources;
}

export function afterTheSale(d: AfterSaleDeps) {
  const undoDeps = d.undo ?? NO_UNDO;
  const undo = createUndoService({
    db: d.db,
    run: d.run,
    sink: d.sink,
    now: d.now,
    logger: d.logger,
    undo: undoDeps,
    exchanging: (id) => exchanges.waitingSeats(id),
    creditOf: (id) => exchanges.creditOf(id),
    creditGiven: (id) => exchanges.creditGiven(id),
  });
  const exchanges = createExchanges({ ...d, undoStore: new UndoStore(d.db), undo: undoDeps });
  return {
    moved: (after: OrderRecord) => exchanges.moved(after),
    undo: {
      ...undo,
      /** One sale's refunds and its links, the exchanges both ways included. */
      ofOrder: (orderId: number) => {
        const r = undo.ofOrder(orderId);
        return { ...r, links: { ...r.links, ...exchanges.links(orderId) } };
      },
    },
    /** Exchange tickets of a paid sale; a show's paid sales to refund or exchange. */
    exchanges: { exchange: exchanges.exchange, price: exchanges.price, salesOfShow: exchanges.salesOfShow },
  };
}
