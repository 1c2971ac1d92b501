// The trust the checkout gives the Hub's relay stream (none without a Hub): a waiting order is
// checked only a few times over its life once the relay has earned it — the stream is healthy AND
// it has actually delivered a notification for one of this counter's orders since it last became
// healthy. Any doubt (the stream drops or reconnects, the Hub says it cannot verify webhooks)
// takes the trust back, and the fast schedule returns until the next delivery.
/**
 * Health of the Hub's relay stream, as the poller needs it. The Hub link's relay consumer is one
 * (hub-link/relay-consumer.ts).
 */
export interface RelayHealthSource {
  /** The stream is up and the Hub does not say it cannot verify webhooks. */
  healthy(): boolean;
  /** Called on every change of `healthy()`; returns an unsubscribe function. */
  onChange(listener: (healthy: boolean) => void): () => void;
  /** Called after each relayed notification recorded for one of this counter's orders; returns an unsubscribe function. */
  onDelivered(listener: () => void): () => void;
}

/**
 * The relay stream the checkout follows over its life: the Hub link's while it runs, none otherwise.
 * The checkout is built with it and follows each swap (`relayHealthFeed` builds one).
 */
export interface RelayHealthFeed {
  current(): RelayHealthSource | null;
  /** Called on every `set`, the same source again included (it is followed afresh); returns an unsubscribe function. */
  onSwap(listener: (source: RelayHealthSource | null) => void): () => void;
}

/** A feed built before the checkout (the root's `hubPorts`, a test), pointed at a source as the Hub link starts and stops. */
export function relayHealthFeed(): RelayHealthFeed & { set(source: RelayHealthSource | null): void } {
  let current: RelayHealthSource | null = null;
  const listeners = new Set<(source: RelayHealthSource | null) => void>();
  return {
    current: () => current,
    onSwap(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    set(source) {
      current = source;
      for (const l of [...listeners]) l(source);
    },
  };
}

export class RelayFollower {
  private source: RelayHealthSource | null = null;
  private off: (() => void) | null = null;
  /** The relay delivered one of our orders' notifications since it last became healthy. */
  private proven = false;
  private told = false;

  /** The relay is trusted: polling is the safety net only. */
  healthy(): boolean {
    return this.proven && this.source?.healthy() === true;
  }

  /** Follows `source` from now on (null: none); `onChange` hears each change of trust, this swap included. */
  follow(source: RelayHealthSource | null, onChange: (trusted: boolean) => void): void {
    this.unfollow();
    this.source = source;
    this.proven = false;
    const tell = () => {
      const is = this.healthy();
      if (is !== this.told) {
        this.told = is;
        onChange(is);
      }
    };
    if (source) {
      const offs = [
        source.onChange((h) => {
          if (!h) this.proven = false;
          tell();
        }),
        source.onDelivered(() => {
          if (source.healthy()) this.proven = true;
          tell();
        }),
      ];
      this.off = () => offs.forEach((f) => f());
    }
    tell();
  }

  /** Stops hearing changes (the checkout stops). */
  unfollow(): void {
    this.off?.();
    this.off = null;
  }
}
