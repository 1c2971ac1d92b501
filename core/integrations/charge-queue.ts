// The box offices' charges waiting for the counter's terminal (`queued`): capped per paired system
// and in all (CHARGE_QUEUE_LIMITS), so a box office — or whatever can write its drop folder — cannot
// fill the counter; shown to the cashier, who can cancel one before it reaches the terminal (the box
// office is told by its signed callback, in order, like any change of its charge). Those charges
// give way to the cashier's own sale (the checkout's yield rule, plugged in by the service).
import { AppError } from '../../shared/errors';
import { CANCELLED_AT_COUNTER, CHARGE_QUEUE_LIMITS } from '../../shared/integration';
import type { QueuedCharge } from '../../shared/contract-integrations';
import type { OrderView } from '../../shared/orders';
import type { OrderReads, SaleDoors } from '../orders';
import { IntegrationApiError } from './integration-errors';
import type { ChargeRow, IntegrationRow, IntegrationStore } from './integration-store';

interface ChargeQueueDeps {
  store: IntegrationStore;
  checkout: Pick<OrderReads, 'listQueued'> & Pick<SaleDoors, 'cancelQueued'>;
}

export function createChargeQueue({ store, checkout }: ChargeQueueDeps) {
  /** The queued charges, oldest first, each with its order. */
  function queued(): { charge: ChargeRow; order: OrderView }[] {
    return checkout.listQueued().flatMap((order) => {
      const charge = store.chargeByOrder(order.id);
      return charge ? [{ charge, order }] : [];
    });
  }

  return {
    /** Is this order a box office's charge? (The checkout's yield rule: such a charge gives way to the cashier.) */
    isCharge: (orderId: number) => store.chargeByOrder(orderId) !== null,

    /**
     * Refuses a new charge of `integration` while its share of the queue, or the queue, is full (429
     * QUEUE_FULL; nothing charged). Synchronous, so it runs in the same turn as the journal write.
     */
    assertRoom(integration: IntegrationRow): void {
      const all = queued();
      const own = all.filter((q) => q.charge.integrationId === integration.id).length;
      const { perIntegration, total } = CHARGE_QUEUE_LIMITS;
      if (own >= perIntegration)
        throw new IntegrationApiError(
          429,
          'QUEUE_FULL',
          `${own} charges from ${integration.name} already wait for the counter's terminal (at most ${perIntegration} per system): nothing was charged. Send this booking again once one of them has reached the terminal or ended (its callback tells you).`,
        );
      if (all.length >= total)
        throw new IntegrationApiError(
          429,
          'QUEUE_FULL',
          `${all.length} charges already wait for the counter's terminal (at most ${total} from all systems): nothing was charged. Send this booking again once the queue is shorter.`,
        );
    },

    /** What the cashier sees of the queue, oldest first. */
    list(): QueuedCharge[] {
      return queued().map(({ charge, order }) => ({
        orderId: order.id,
        outOrderNo: order.outOrderNo,
        integration: store.integration(charge.integrationId)?.name ?? 'A box office',
        reference: charge.reference,
        source: charge.source,
        amountKobo: order.amountKobo,
        sn: order.sn,
        queuedAt: order.createdAt,
      }));
    },

    /**
     * The cashier cancels a queued charge: it never reaches the terminal, and the box office is told
     * (the order's change goes to its callback). NOT_FOUND for an order no box office asked for;
     * CONFLICT once it has left the queue.
     */
    cancelAtCounter(orderId: number): OrderView {
      const c = store.chargeByOrder(orderId);
      if (!c)
        throw new AppError('NOT_FOUND', 'No box office asked for this sale: there is no queued charge to cancel.');
      return checkout.cancelQueued(
        orderId,
        `${CANCELLED_AT_COUNTER}: the cashier cancelled booking ${c.reference}. Nothing was charged.`,
      );
    },
  };
}
export type ChargeQueue = ReturnType<typeof createChargeQueue>;
