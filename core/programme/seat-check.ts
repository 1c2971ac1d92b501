// Asking whether seats of a show are already sold on another counter. The Hub answers it (the hub
// module's SeatCheck); this is the plug: a SeatCheck, asked with a deadline, and "skipped" whenever
// there is none, it fails, or it is slower than the deadline — the sale never waits longer than that.
import type { SeatCheckResult, SeatConflict } from '../../shared/programme';
import { systemTimers, type TimerHandle, type Timers } from '../lib';

interface SeatQuery {
  /** showKey(): the same on every counter of the branch. */
  showKey: string;
  /** The show as a sale records it; the Hub keys it with its screen, as the seat maps are. */
  show: { filmName: string; filmTitle: string; date: string; time: string; screen: string };
  seats: string[];
}

export interface SeatCheck {
  /** Seats of the show already paid or waiting for payment on another counter. `signal` aborts at the deadline. */
  conflicts(q: SeatQuery, signal: AbortSignal): Promise<SeatConflict[]>;
}

const SEAT_CHECK_DEADLINE_MS = 300;

export async function runSeatCheck(
  check: SeatCheck | null,
  q: SeatQuery,
  deadlineMs = SEAT_CHECK_DEADLINE_MS,
  timers: Timers = systemTimers,
): Promise<SeatCheckResult> {
  if (!check) return { kind: 'skipped', reason: 'Seats are not checked across counters: this counter has no Hub.' };
  const ac = new AbortController();
  let timer: TimerHandle | undefined;
  const late = new Promise<SeatCheckResult>((resolve) => {
    timer = timers.setTimeout(() => {
      ac.abort();
      resolve({ kind: 'skipped', reason: 'Seats not checked across counters: the Hub did not answer in time.' });
    }, deadlineMs);
  });
  const asked = check.conflicts(q, ac.signal).then(
    (conflicts): SeatCheckResult => ({ kind: 'checked', conflicts }),
    (): SeatCheckResult => ({
      kind: 'skipped',
      reason: 'Seats not checked across counters: the Hub could not be asked.',
    }),
  );
  try {
    return await Promise.race([asked, late]);
  } finally {
    if (timer !== undefined) timers.clearTimeout(timer);
  }
}
