// A clock and timers that run `scale` times faster than the wall clock, so a minute of tap
// times and polling passes in a few seconds. Durations read on this clock are "real-world"
// milliseconds; divide by `scale` for the wall time they took.
import type { Clock } from '../../electron/core/clock';
import type { TimerHandle, Timers } from '../../electron/core/orders/timers';

export interface ScaledTime {
  scale: number;
  clock: Clock;
  timers: Timers;
}

export function scaledTime(scale: number): ScaledTime {
  if (!(scale >= 1)) throw new RangeError('scale must be at least 1');
  const baseWall = Date.now();
  const basePerf = performance.now();
  const clock: Clock = { now: () => Math.floor(baseWall + (performance.now() - basePerf) * scale) };
  const timers: Timers = {
    setTimeout: (fn, ms): TimerHandle => setTimeout(fn, Math.max(0, ms) / scale),
    clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
  };
  return { scale, clock, timers };
}
