// Seat changes to counters: every Hub instance LISTENs on the seats channel (a hold, a settle, a
// lapse committed on any instance) and tells its own relay streams of that branch's counters
// (`event: seats`, data {showKey}); each counter then asks the show's map again. One timer per
// instance ends the holds past their `until` (seat-holds.ts), which tells the counters the same way.
import type { HubDb } from '../db/adapter';
import { readSeatsNotice, SEATS_CHANNEL, sweepLapsedHolds } from '../store/seat-holds';
import type { RelayHub } from './relay-hub';

export interface SeatSignalOptions {
  db: HubDb;
  relay: Pick<RelayHub, 'tellBranch'>;
  now: () => number;
  /** How often holds past their `until` are ended (default 2 s); a hold or map read ignores them anyway. */
  sweepMs?: number;
  onError: (e: unknown) => void;
}

export class SeatSignal {
  private unlisten: (() => Promise<void>) | null = null;
  private timer: NodeJS.Timeout | null = null;
  private sweeping = false;

  constructor(private readonly o: SeatSignalOptions) {}

  async start(): Promise<void> {
    this.unlisten = await this.o.db.listen(SEATS_CHANNEL, (payload) => {
      const n = readSeatsNotice(payload);
      if (n) this.o.relay.tellBranch(n.branch, 'seats', { showKey: n.showKey });
    });
    this.timer = setInterval(() => void this.sweep(), this.o.sweepMs ?? 2_000);
    this.timer.unref();
  }

  /** Ends the holds past their `until` now; resolves to how many. */
  async sweep(): Promise<number> {
    if (this.sweeping) return 0;
    this.sweeping = true;
    try {
      return await sweepLapsedHolds(this.o.db, this.o.now());
    } catch (e) {
      this.o.onError(e);
      return 0;
    } finally {
      this.sweeping = false;
    }
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.unlisten?.();
  }
}
