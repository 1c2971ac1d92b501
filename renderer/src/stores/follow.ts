// The one way a store follows main. Main owns the truth: each store says, in one `StoreFollower`,
// which of main's events it applies and how it re-reads what it shows. Events sent while the
// event stream was down are lost for good, so after it comes back every store re-reads.
// `followStores` is called once at start-up with the bridge (a test passes a stand-in for main).
import type { CounterPayApi } from '../../../shared/contract';

export interface StoreFollower {
  /** Names the store in logs and tests. */
  name: string;
  /** Subscribes to the events this store applies; returns the ways to unsubscribe. */
  listen(bridge: CounterPayApi): Array<() => void>;
  /** Re-reads from main what the store shows (only what it has loaded so far). */
  refresh(): unknown;
}

export interface Following {
  /** Every store re-reads at once; one failing does not stop the others (each shows its own error). */
  refreshAll(): Promise<void>;
  stop(): void;
}

export function followStores(bridge: CounterPayApi, followers: readonly StoreFollower[]): Following {
  const offs = followers.flatMap((f) => f.listen(bridge));
  return {
    refreshAll: async () => {
      await Promise.allSettled(followers.map(async (f) => f.refresh()));
    },
    stop: () => offs.forEach((off) => off()),
  };
}
