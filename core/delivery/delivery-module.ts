// Delivery checks: asks the provider how its notification of an order (or of the last paid one) reached our webhook receiver.
import type { deliveryCalls } from '../../shared/contract-delivery';
import type { CoreModule } from '../core-module';
import type { CoreServices } from '../core-services';
import type { OrderReads } from '../orders';
import type { PosClient } from '../provider';
import { createDeliveryChecks } from './delivery-check';

/** What the delivery checks take of the core: the POS client to ask, the checkout's orders. */
type DeliveryContext = Pick<CoreServices, 'db' | 'clock' | 'logger' | 'settings'> & {
  pos: PosClient;
  checkout: Pick<OrderReads, 'get'>;
};

export function createDeliveryModule(ctx: DeliveryContext): CoreModule<typeof deliveryCalls> {
  const delivery = createDeliveryChecks({
    db: ctx.db,
    pos: ctx.pos,
    clock: ctx.clock,
    logger: ctx.logger,
    order: (id) => ctx.checkout.get(id),
    activeProfile: () => ctx.settings.activeProfile(),
  });
  return {
    handlers: {
      'delivery.check': (a) => delivery.check(a.orderId),
      'delivery.checkLastPaid': () => delivery.checkLastPaid(),
    },
  };
}
