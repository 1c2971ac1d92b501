// The health of the Hub's relay stream as the checkout follows it (none without a Hub): while it
// is healthy a waiting order is checked a few times over its life; when it drops, the fast
// schedule returns.
import type { RelayHealthSource } from '../hub-link';

export class RelayFollower {
  private source: RelayHealthSource | null = null;
  private off: (() => void) | null = null;

  healthy(): boolean {
    return this.source?.healthy() === true;
  }

  /** Follows `source` from now on (null: none); `onChange` hears each change, this swap included. */
  follow(source: RelayHealthSource | null, onChange: (healthy: boolean) => void): void {
    this.unfollow();
    const was = this.healthy();
    this.source = source;
    if (source) this.off = source.onChange(onChange);
    const is = this.healthy();
    if (was !== is) onChange(is);
  }

  /** Stops hearing changes (the checkout stops). */
  unfollow(): void {
    this.off?.();
    this.off = null;
  }
}
