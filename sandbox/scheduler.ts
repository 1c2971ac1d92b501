// Every timer the sandbox starts goes through here, so reset() and close() can end them all.
// Due times are on the injected Clock; a timer that fires early (fake clock) waits again.
import type { Clock } from '../shared/clock';

// setTimeout fires at once for delays past 2^31-1 ms; `at` simply waits again when woken early.
const MAX_TIMEOUT_MS = 2_147_483_647;

export class SandboxTimers {
  private readonly handles = new Set<NodeJS.Timeout>();
  private closed = false;

  constructor(private readonly clock: Clock) {}

  /** Runs `fn` after `ms` real milliseconds (unless cleared first). */
  after(ms: number, fn: () => void): void {
    if (this.closed) return;
    const h = setTimeout(
      () => {
        this.handles.delete(h);
        fn();
      },
      Math.min(MAX_TIMEOUT_MS, Math.max(0, ms)),
    );
    this.handles.add(h);
  }

  /** Runs `fn` once the clock reaches `dueMs`. */
  at(dueMs: number, fn: () => void): void {
    const wait = dueMs - this.clock.now();
    if (wait <= 0) {
      this.after(0, fn);
      return;
    }
    this.after(wait, () => (this.clock.now() >= dueMs ? fn() : this.at(dueMs, fn)));
  }

  /** Resolves after `ms`; never resolves if the timers are cleared first. */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.after(ms, resolve));
  }

  clearAll(): void {
    for (const h of this.handles) clearTimeout(h);
    this.handles.clear();
  }

  close(): void {
    this.closed = true;
    this.clearAll();
  }

  get pending(): number {
    return this.handles.size;
  }
}

/** Provider-style order numbers: yyMMdd + 12 digits from a per-instance counter with a random start. */
export class IdGenerator {
  private next = 100_000_000_000 + Math.floor(Math.random() * 800_000_000_000);

  constructor(private readonly clock: Clock) {}

  orderNo(): string {
    const d = new Date(this.clock.now());
    const ymd = `${String(d.getUTCFullYear() % 100).padStart(2, '0')}${String(d.getUTCMonth() + 1).padStart(2, '0')}${String(d.getUTCDate()).padStart(2, '0')}`;
    this.next += 1;
    return `${ymd}${String(this.next).padStart(12, '0')}`;
  }
}
