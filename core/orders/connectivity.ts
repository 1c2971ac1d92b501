// Whether the payment provider can be reached, learned from real calls. While it cannot, one
// probe at a time (the oldest queued send, or a status check) retries with backoff and jitter.
import type { Logger } from '../../shared/logger';
import { RetryTimer, type BackoffTuning, type Timers } from '../lib';

/** 'idle': there was nothing to probe with; probing stops until the next failure or kick. */
type ProbeResult = 'idle' | 'done';

interface ConnectivityDeps {
  timers: Timers;
  now: () => number;
  random: () => number;
  backoff: BackoffTuning;
  logger: Logger;
  probe: () => Promise<ProbeResult>;
  onChange: (online: boolean) => void;
}

export class ConnectivityMonitor {
  private isOnline = true;
  private failures = 0;
  private readonly retry: RetryTimer;
  private probing: Promise<void> | null = null;
  private stopped = false;
  private readonly d: ConnectivityDeps;

  constructor(deps: ConnectivityDeps) {
    this.d = deps;
    this.retry = new RetryTimer(deps);
  }

  get online(): boolean {
    return this.isOnline;
  }

  /** When the next probe is due while offline. */
  get nextProbeAt(): number | undefined {
    return this.retry.at ?? undefined;
  }

  /** A call got an answer from the provider (any answer). */
  reached(): void {
    this.failures = 0;
    this.retry.clear();
    if (!this.isOnline) {
      this.isOnline = true;
      this.d.logger.info('payment provider reachable again');
      this.d.onChange(true);
    }
  }

  /** A call could not reach the provider (nothing was sent). */
  unreachable(): void {
    this.failures += 1;
    if (this.isOnline) {
      this.isOnline = false;
      this.d.logger.warn('payment provider unreachable: queueing sales and pausing status checks');
      this.d.onChange(false);
    }
    this.schedule();
  }

  /** Start probing if offline and nothing is pending (new work arrived). */
  kick(): void {
    this.schedule();
  }

  /** Probe at once (the cashier asked), unless a probe is already under way. */
  probeNow(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.probing) return this.probing;
    this.retry.clear();
    return this.run();
  }

  stop(): void {
    this.stopped = true;
    this.retry.clear();
  }

  private schedule(): void {
    if (this.stopped || this.isOnline || this.retry.pending || this.probing) return;
    this.retry.set(this.failures, () => void this.run());
  }

  private run(): Promise<void> {
    const p = (async () => {
      await null; // `probing` is set before anything below can clear it
      let result: ProbeResult = 'done';
      try {
        result = await this.d.probe();
      } catch (err) {
        this.d.logger.error('connectivity probe failed', { error: String(err) });
      } finally {
        this.probing = null;
      }
      if (result === 'done') this.schedule();
    })();
    this.probing = p;
    return p;
  }
}
