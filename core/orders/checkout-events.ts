// The checkout's events: every change of an order, the connectivity (online, queue length), and
// the late outcomes of closed orders, the refunds owed after a sale.
import type { Connectivity, OrderView } from '../../shared/orders';
import type { Logger } from '../../shared/logger';

export interface CheckoutEvents {
  order: OrderView;
  connectivity: Connectivity;
  /** A late outcome of a closed order was recorded or handled (the alert and the status bar count follow). */
  late: { orderId: number };
  /** A refund owed was made (a cancel, an exchange) or returned: the refunds list and the status bar follow. */
  refunds: { orderId: number };
}

type Listener<K extends keyof CheckoutEvents> = (payload: CheckoutEvents[K]) => void;

/** What other modules may follow of the checkout: its events, each listener with its unsubscribe. */
export interface OrderEvents {
  on<K extends keyof CheckoutEvents>(event: K, listener: Listener<K>): () => void;
}

export class CheckoutEmitter {
  private readonly listeners: { [K in keyof CheckoutEvents]: Set<Listener<K>> } = {
    order: new Set(),
    connectivity: new Set(),
    late: new Set(),
    refunds: new Set(),
  };
  private lastConnectivity: Connectivity | null = null;

  constructor(private readonly logger: Logger) {}

  on<K extends keyof CheckoutEvents>(event: K, listener: Listener<K>): () => void {
    const set = this.listeners[event] as Set<Listener<K>>;
    set.add(listener);
    return () => set.delete(listener);
  }

  /** A listener that throws is logged; the others still hear the event. */
  emit<K extends keyof CheckoutEvents>(event: K, payload: CheckoutEvents[K]): void {
    for (const l of this.listeners[event] as Set<Listener<K>>) {
      try {
        l(payload);
      } catch (err) {
        this.logger.error('checkout listener failed', { event, error: String(err) });
      }
    }
  }

  /** Emits `connectivity` only when it differs from what was last emitted. */
  connectivity(c: Connectivity): void {
    const last = this.lastConnectivity;
    if (last && last.online === c.online && last.queueLength === c.queueLength) return;
    this.lastConnectivity = c;
    this.emit('connectivity', c);
  }
}
