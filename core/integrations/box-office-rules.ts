// What the checkout asks about a box office's charges, read from the integrations' own tables (so
// the root gives them to the checkout when it builds it, before the integrations exist): such a
// queued charge gives way to the cashier's own sale (charge-guard.ts), and Try again is not offered
// for it (the box office is told the outcome and asks again with a new booking reference: a retried order
// would be a sale it never heard of).
import type { Db } from '../db';
import { IntegrationStore } from './integration-store';

export function boxOfficeRules(db: Db): {
  yieldRule: (orderId: number) => boolean;
  retryRule: (orderId: number) => string | null;
} {
  const store = new IntegrationStore(db);
  return {
    yieldRule: (orderId) => store.chargeByOrder(orderId) !== null,
    retryRule: (orderId) => {
      const c = store.chargeByOrder(orderId);
      if (!c) return null;
      const name = store.integration(c.integrationId)?.name ?? 'a box office';
      return `This sale was asked for by ${name} (booking ${c.reference}): Try again is not offered for it. ${name} has been told it did not go through and asks again with a new booking reference.`;
    },
  };
}
