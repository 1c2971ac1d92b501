// Waits on the core's own events (never a sleep): resolves when an order reaches a state.
import type { OrderView } from '../../shared/orders';
import type { Core } from '../../core/app-core';

export function orderReaches(core: Core, id: number, state: OrderView['state']): Promise<OrderView> {
  return new Promise((ok) => {
    const off = core.events.subscribe((name, payload) => {
      const v = payload as OrderView;
      if (name === 'order.changed' && v.id === id && v.state === state) {
        off();
        ok(v);
      }
    });
  });
}
