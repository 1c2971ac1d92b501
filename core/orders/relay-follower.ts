// The health of the Hub's relay stream as the checkout follows it (none without a Hub): while it
// is healthy a waiting order is checked a few times over its life; when it drops, the fast
// schedule returns.
/**
 * Health of the Hub's relay stream, as the poller needs it: while healthy, polling is the safety
 * net only. The Hub link's relay consumer is one (hub-link/relay-consumer.ts).
 */
export interface RelayHealthSource {
  healthy(): boolean;
  /** Called on every change of `healthy()`; returns an unsubscribe function. */
  onChange(listener: (healthy: boolean) => void): () => void;
}

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
