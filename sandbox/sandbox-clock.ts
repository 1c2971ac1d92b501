// The sandbox's own clock: the host's clock plus an offset tests can set, so a provider whose
// clock differs from the app's (or an app whose clock is wrong) can be played over real HTTP.
// Its time goes out in every answer's HTTP Date header, unless that header is switched off.
import type { Clock } from '../shared/clock';

export interface SandboxClockState {
  /** Added to the host's clock, in ms (positive: the provider is ahead of the app). */
  offsetMs: number;
  /** Whether answers carry an HTTP Date header. */
  sendDate: boolean;
}

export class SandboxClock implements Clock {
  private s: SandboxClockState = { offsetMs: 0, sendDate: true };

  constructor(private readonly base: Clock) {}

  now(): number {
    return this.base.now() + this.s.offsetMs;
  }

  state(): SandboxClockState {
    return { ...this.s };
  }

  set(patch: Partial<SandboxClockState>): SandboxClockState {
    this.s = { ...this.s, ...patch };
    return this.state();
  }

  /** The Date header value for an answer, or null when switched off. */
  dateHeader(): string | null {
    return this.s.sendDate ? new Date(this.now()).toUTCString() : null;
  }
}
