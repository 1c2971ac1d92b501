// The owner of table order_checks: the last "Check with the provider" of each closed order (one
// status query, its answer), read into the order's view as `lastCheck`; it survives restarts.
import type { OrderView } from '../../shared/orders';
import type { Db } from '../db';

export type LastCheck = NonNullable<OrderView['lastCheck']>;

type Row = { at: number; provider_status: string; paid: number };

/** The owner of table order_checks: the last check of each closed order (it survives restarts). */
export class ProviderCheckStore {
  constructor(private readonly db: Db) {}

  get(orderId: number): LastCheck | null {
    const r = this.db.prepare('SELECT at, provider_status, paid FROM order_checks WHERE order_id = ?').get(orderId) as
      Row | undefined;
    return r ? { at: r.at, providerStatus: r.provider_status, paid: r.paid === 1 } : null;
  }

  record(orderId: number, c: LastCheck): void {
    this.db
      .prepare('INSERT OR REPLACE INTO order_checks (order_id, at, provider_status, paid) VALUES (?, ?, ?, ?)')
      .run(orderId, c.at, c.providerStatus, c.paid ? 1 : 0);
  }
}
