// Orders: the Sell form's defaults and the charge, and each order's life as the screen follows it;
// payments after closing (the list, marking one handled) and the reconciliation sweep, hourly;
// after the sale, cancel and the refunds owed (the checkout's undo, docs/refunds.md).
// The checkout service itself is shared (receipts and shifts read it), so the core builds it; this
// module answers its calls and pushes its changes to the screen.
import type { orderCalls } from '../../shared/contract';
import type { lateCalls } from '../../shared/contract-late';
import type { basketCalls } from '../../shared/contract-basket';
import type { refundCalls } from '../../shared/contract-refunds';
import { systemTimers } from '../lib';
import { createLateSweep, type SweepTuning } from './late-sweep';
import type { Connectivity } from '../../shared/orders';
import { AppError } from '../../shared/errors';
import type { CoreModule } from '../core-module';
import type { CoreServices } from '../core-services';
import type { TerminalLink } from '../terminal';
import type { PosClient } from '../provider';
import type { CheckoutService } from './checkout-service';
import { createSaleMemory } from './sale-memory';

/** What the orders module takes of the core: the checkout (built by the root, shared), the terminal. */
type OrdersContext = Pick<CoreServices, 'store' | 'events' | 'clock' | 'logger'> & {
  checkout: CheckoutService;
  terminal: Pick<TerminalLink, 'getState'>;
  pos: PosClient;
};

interface OrdersModuleDeps {
  /** The sale queue changed (its length, online or not). */
  onConnectivity: (c: Connectivity) => void;
  sweep?: Partial<SweepTuning>;
}

export function createOrdersModule(ctx: OrdersContext, deps: OrdersModuleDeps) {
  const { checkout, events } = ctx;
  const sweep = createLateSweep({
    checkout,
    getPos: () => ctx.pos,
    now: () => ctx.clock.now(),
    timers: systemTimers,
    logger: ctx.logger,
    ...(deps.sweep ? { tuning: deps.sweep } : {}),
  });
  checkout.on('late', () => events.emit('orders.lateChanged', checkout.late.list()));
  const films = createSaleMemory(ctx.store);
  // Followed for the core's whole life: an order settled while the core stops still reaches the memory.
  checkout.on('order', (v) => {
    events.emit('order.changed', v);
    if (v.state === 'paid') films.remember(v);
  });
  // A refund owed made or returned: the Orders screen and the status bar follow.
  checkout.on('refunds', () => events.emit('refunds.changed', checkout.undo.list()));
  checkout.on('connectivity', (c) => {
    events.emit('connectivity.changed', c);
    deps.onConnectivity(c);
  });
  const order = (id: number) => {
    const v = checkout.get(id);
    if (!v) throw new AppError('NOT_FOUND', `There is no order ${id} on this counter.`, { id });
    return v;
  };

  const mod: CoreModule<typeof orderCalls & typeof basketCalls & typeof lateCalls & typeof refundCalls> = {
    start: () => sweep.start(),
    stop: () => sweep.stop(),
    handlers: {
      'orders.late': () => checkout.late.list(),
      'orders.markLateHandled': (a) =>
        checkout.markLateHandled(a.id, { how: a.how, by: a.by, ...(a.note ? { note: a.note } : {}) }),
      'orders.sweep': () => sweep.run(),
      'sale.defaults': () => films.defaults(ctx.clock.now(), ctx.terminal.getState().sn),
      'sale.charge': (a) => {
        // The rules (a shift open, one unpaid order per terminal) are the checkout's own; the
        // cashier's door may only name an order to leave waiting on the terminal.
        const { besideWaiting, ...sale } = a;
        return checkout.sell(sale, { besideWaiting });
      },
      'sale.priceBasket': (a) => {
        const r = checkout.priceBasket(a.basket);
        return r.ok ? { ok: true, lines: r.lines, amounts: r.amounts } : { ok: false, problems: r.problems };
      },
      // The same door as every sale: the rules are the checkout's own.
      'sale.sellBasket': (a) => checkout.sell(a, { besideWaiting: a.besideWaiting }),
      'orders.get': (a) => order(a.id),
      'orders.history': (a) => checkout.history(a.id),
      'orders.listToday': () => checkout.listToday(),
      'orders.listQueued': () => checkout.listQueued(),
      'orders.listOpen': () => checkout.listOpen(),
      'orders.retry': (a) => checkout.retrySale(a.id),
      'orders.checkNow': (a) => checkout.checkNow(a.id),
      // After the sale (docs/refunds.md): the approval and every rule are the engine's own, below every door.
      'refunds.cancel': (a) => checkout.undo.cancel(a),
      'refunds.exchange': (a) => checkout.exchanges.exchange(a),
      'refunds.priceExchange': (a) => checkout.exchanges.price(a),
      'refunds.salesOfShow': (a) => ({ sales: checkout.exchanges.salesOfShow(a) }),
      'refunds.list': () => checkout.undo.list(),
      'refunds.ofOrder': (a) => checkout.undo.ofOrder(a.orderId),
      'refunds.markReturned': (a) => checkout.undo.markReturned(a),
    },
  };
  return { ...mod, sweep };
}
