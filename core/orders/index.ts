// The order lifecycle: the checkout service (what the app wires), and the pieces others may read.
export {
  createCheckoutService,
  DEFAULT_CHECKOUT_TUNING,
  type CheckoutDeps,
  type CheckoutEvents,
  type CheckoutService,
  type CheckoutSettings,
  type CheckoutTuning,
  type CheckoutTuningInput,
  type OrderEvents,
  type OrderFollowUp,
  type OrderReads,
  type OrderSeats,
  type SaleDoors,
} from './checkout-service';
export { ORDER_MIGRATIONS } from './order-migrations';
export { OrderJournal, toView, type OrderRecord } from './order-journal';
export { OrderJournalReads, type OpenOrder } from './order-journal-reads';
export { searchOrders, type SearchQuery } from './order-search';
export { OrderTextIndex } from './order-text-index';
export { canTransition, stateForProviderStatus, OPEN_STATES } from './order-state';
export { counterCode, formatOutOrderNo, lagosDayCode, OUT_ORDER_NO_RE } from './out-order-no';
export { productInfoFor, maskAccount } from './sale-wire';
export { createOrdersModule } from './orders-module';
export { relayHealthFeed, type RelayHealthFeed, type RelayHealthSource } from './relay-follower';
export { createSaleMemory, nextShowTime } from './sale-memory';
export { createLateSweep, type SweepTuning } from './late-sweep';
export { LateOutcomeStore } from './late-outcomes';
export { admitSale, ordersOnTerminal } from './charge-guard';
export { localSeatHolds, type SeatPlan, type SeatPlanner } from './seat-holding';
export { NO_BASKET_SOURCES, type BasketSources } from './basket-intake';
export { paidBasketsAfter, type PaidBasket } from './paid-baskets';
export { PIN_APPROVER, CODES_NEED_HUB } from './undo-approval';
export type { ApprovalCodes, ApprovalWhat, UndoDeps, UndoService } from './undo-service';
