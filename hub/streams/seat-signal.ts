// Seat changes to counters: every Hub instance LISTENs on the seats channel (a hold, a settle, a
// lapse committed on any instance) and tells its own relay streams of that branch's counters
// (`event: seats`, data {showKey, practice}); each counter then asks the show's map again. One timer
// per instance ends the holds past their `until` (seat-holds.ts), which tells the counters the same way.
//
// Coalesced per show: a busy branch changes a show's seats many times a second (every sale holds,
// then settles), and each signal makes every counter showing the show read its map again, out of
// its own rate budget. So a show's streams are told at once of its first change, then at most once
// per `windowMs` (SEAT_SIGNAL_WINDOW_MS) however many changes come: a change in the window is told
// when it ends. Practice apart: a practice hold (Demo or Sandbox) tells only the streams of counters
// showing practice maps, a real one only the others (the counter says which when it opens its stream).
import type { HubDb } from '../db/adapter';
import { readSeatsNotice, SEATS_CHANNEL, sweepLapsedHolds } from '../store/seat-holds';
import type { RelayHub } from './relay-hub';

/** A show's streams are told at most once per this window (the first change at once, later ones at its end). */
export const SEAT_SIGNAL_WINDOW_MS = 250;

export interface SeatSignalOptions {
  db: HubDb;
  relay: Pick<RelayHub, 'tellSeats'>;
  now: () => number;
  /** How often holds past their `until` are ended (default 2 s); a hold or map read ignores them anyway. */
  sweepMs?: number;
  /** Default SEAT_SIGNAL_WINDOW_MS. */
  windowMs?: number;
  onError: (e: unknown) => void;
}

/** A show told lately: more changes in its window are told at the window's end. */
interface Told {
  branch: string;
  practice: boolean;
  showKey: string;
  /** A change came after the show was last told. */
  pending: boolean;
  /** Ends the window. */
  timer: NodeJS.Timeout | null;
}

export class SeatSignal {
  private unlisten: (() => Promise<void>) | null = null;
  private timer: NodeJS.Timeout | null = null;
  private sweeping = false;
  private readonly told = new Map<string, Told>();
  /** Signals sent to the relay (one per show and window): for tests and the benchmark. */
  signals = 0;

  constructor(private readonly o: SeatSignalOptions) {}

  async start(): Promise<void> {
    this.unlisten = await this.o.db.listen(SEATS_CHANNEL, (payload) => {
      const n = readSeatsNotice(payload);
      if (!n) return;
      // An older instance's notice does not say which: both kinds of streams are told.
      for (const practice of n.practice === null ? [false, true] : [n.practice])
        this.changed(n.branch, practice, n.showKey);
    });
    this.timer = setInterval(() => void this.sweep(), this.o.sweepMs ?? 2_000);
    this.timer.unref();
  }

  /** A show's seats changed: told now, or at the end of the window it was last told in. */
  changed(branch: string, practice: boolean, showKey: string): void {
    const key = JSON.stringify([branch, practice, showKey]);
    const seen = this.told.get(key);
    if (seen) {
      seen.pending = true;
      return;
    }
    this.tell(key, { branch, practice, showKey, pending: false, timer: null });
  }

  private tell(key: string, t: Told): void {
    this.signals += 1;
    this.o.relay.tellSeats(t.branch, t.practice, { showKey: t.showKey, practice: t.practice });
    t.pending = false;
    t.timer = setTimeout(() => {
      if (t.pending) this.tell(key, t);
      else this.told.delete(key);
    }, this.o.windowMs ?? SEAT_SIGNAL_WINDOW_MS);
    t.timer.unref();
    this.told.set(key, t);
  }

  /** Tells every show with a change still waiting for its window's end now (a test's "the window ended"). */
  flush(): void {
    for (const [key, t] of [...this.told]) {
      if (t.timer) clearTimeout(t.timer);
      if (t.pending) this.tell(key, t);
      else this.told.delete(key);
    }
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
    for (const t of this.told.values()) if (t.timer) clearTimeout(t.timer);
    this.told.clear();
    await this.unlisten?.();
  }
}
