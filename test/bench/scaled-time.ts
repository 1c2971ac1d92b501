// Time for the benchmark's counters, running `scale` times faster than the wall clock so a minute
// of tap times and polling passes in seconds. Calls to the provider are the exception: while one
// is under way the counter's clock runs at wall speed, so a round trip costs the schedule what it
// would really cost (scaling would otherwise stretch a 5 ms loopback call into 5 x 5 ms).
import type { Clock } from '../../shared/clock';
import type { TimerHandle, Timers } from '../../core/lib/timers';

/** A plain scaled clock (the sandbox's: expiry and timestamps only need to be roughly right). */
export function scaledClock(scale: number, baseWall: number, basePerf: number): Clock {
  return { now: () => Math.floor(baseWall + (performance.now() - basePerf) * scale) };
}

interface Handle {
  timer: ReturnType<typeof setTimeout> | null;
}

export class LaneTime {
  private inCall = 0;
  private callStart = 0;
  /** Wall ms spent in finished provider calls. */
  private spent = 0;
  readonly clock: Clock;
  readonly timers: Timers;

  constructor(
    readonly scale: number,
    private readonly baseWall: number,
    private readonly basePerf: number,
  ) {
    if (!(scale >= 1)) throw new RangeError('scale must be at least 1');
    this.clock = { now: () => this.now() };
    this.timers = {
      setTimeout: (fn, ms): TimerHandle => {
        const h: Handle = { timer: null };
        const due = this.now() + Math.max(0, ms);
        // The clock slows down during calls, so a timer may wake early: it then waits the rest.
        const arm = () => {
          const left = due - this.now();
          if (left <= 0) {
            h.timer = null;
            fn();
            return;
          }
          h.timer = setTimeout(arm, Math.max(1, left / this.scale));
        };
        h.timer = setTimeout(arm, Math.max(0, ms) / this.scale);
        return h;
      },
      clearTimeout: (handle) => {
        const h = handle as Handle;
        if (h.timer !== null) clearTimeout(h.timer);
        h.timer = null;
      },
    };
  }

  now(): number {
    const t = performance.now();
    const inCalls = this.spent + (this.inCall > 0 ? t - this.callStart : 0);
    return Math.floor(this.baseWall + (t - this.basePerf) * this.scale - (this.scale - 1) * inCalls);
  }

  /** Runs a provider call with this counter's clock at wall speed. */
  async call<T>(f: () => Promise<T>): Promise<T> {
    if (this.inCall++ === 0) this.callStart = performance.now();
    try {
      return await f();
    } finally {
      if (--this.inCall === 0) this.spent += performance.now() - this.callStart;
    }
  }
}
