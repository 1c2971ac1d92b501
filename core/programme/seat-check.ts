// Asking whether seats of a show are already sold on another counter. The Hub answers it (the hub
// module's SeatCheck); this is the plug: a SeatCheck, asked with a deadline, and "skipped" whenever
// there is none, it fails, or it is slower than the deadline — the sale never waits longer than that.
// The deadline and the words are a seat hold's (shared/seats.ts): one wait for any answer of the Hub
// about seats, SEAT_HOLD_WAIT_MS, and one way of saying that seats were not checked across counters.
import type { SeatCheckResult, SeatConflict } from '../../shared/programme';
import { SEAT_HOLD_WAIT_MS, SEATS_UNCHECKED } from '../../shared/seats';
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

export async function runSeatCheck(
  check: SeatCheck | null,
  q: SeatQuery,
  deadlineMs = SEAT_HOLD_WAIT_MS,
  timers: Timers = systemTimers,
): Promise<SeatCheckResult> {
  if (!check) return { kind: 'skipped', reason: `${SEATS_UNCHECKED.noHub}: this counter is not linked to a Hub.` };
  const ac = new AbortController();
  let timer: TimerHandle | undefined;
  const late = new Promise<SeatCheckResult>((resolve) => {
    timer = timers.setTimeout(() => {
      ac.abort();
      resolve({ kind: 'skipped', reason: `${SEATS_UNCHECKED.hubUnreachable}: the Hub did not answer in time.` });
    }, deadlineMs);
  });
  const asked = check.conflicts(q, ac.signal).then(
    (conflicts): SeatCheckResult => ({ kind: 'checked', conflicts }),
    (): SeatCheckResult => ({
      kind: 'skipped',
      reason: `${SEATS_UNCHECKED.hubUnreachable}: the Hub cannot be reached.`,
    }),
  );
  try {
    return await Promise.race([asked, late]);
  } finally {
    if (timer !== undefined) timers.clearTimeout(timer);
  }
}
