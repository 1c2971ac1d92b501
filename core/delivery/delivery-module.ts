// Delivery checks: asks the provider how its notification of an order (or of the last paid one) reached our webhook receiver.
import type { deliveryCalls } from '../../shared/contract-delivery';
import type { CoreModule, ModuleContext } from '../core-module';
import { createDeliveryChecks } from './delivery-check';

export function createDeliveryModule(ctx: Pick<ModuleContext, 'db' | 'pos' | 'clock' | 'logger' | 'checkout' | 'settings'>): CoreModule<typeof deliveryCalls> {
  const delivery = createDeliveryChecks({ db: ctx.db, pos: ctx.pos, clock: ctx.clock, logger: ctx.logger, order: (id) => ctx.checkout.get(id), activeProfile: () => ctx.settings.activeProfile() });
  return {
    handlers: {
      'delivery.check': (a) => delivery.check(a.orderId),
      'delivery.checkLastPaid': () => delivery.checkLastPaid(),
    },
  };
}
