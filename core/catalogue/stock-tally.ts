// How many of each item this counter's paid sales took since the catalogue was imported: the items
// of every sale created from then that turned paid (`itemsTaken` over its basket's lines), kept as
// a running tally read on from the journal's last paid event, so that asking again reads only the
// sales paid since the last time.
import { itemsTaken } from '../../shared/basket';
import type { PaidBasket } from '../orders';

/** The orders module's read (paidBasketsAfter), or a test's. */
export type PaidBasketsRead = (q: { createdFrom: number; afterEventId: number; limit: number }) => PaidBasket[];

const BATCH = 1_000;

export class StockTally {
  private since: number | null = null;
  private cursor = 0;
  private taken = new Map<string, number>();

  constructor(private readonly read: PaidBasketsRead) {}

  /** Forget what was counted (a new catalogue): the next read counts from its import. */
  reset(): void {
    this.since = null;
  }

  /** Item code → how many the sales paid since `since` took. */
  takenSince(since: number): ReadonlyMap<string, number> {
    if (this.since !== since) {
      this.since = since;
      this.cursor = 0;
      this.taken = new Map();
    }
    for (;;) {
      const batch = this.read({ createdFrom: since, afterEventId: this.cursor, limit: BATCH });
      for (const b of batch) {
        for (const [code, n] of itemsTaken(b.basket.lines)) this.taken.set(code, (this.taken.get(code) ?? 0) + n);
        this.cursor = b.eventId;
      }
      if (batch.length < BATCH) return this.taken;
    }
  }
}
