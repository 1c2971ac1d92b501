// The one way to tell every store "re-read your state from main". Events sent while the event
// stream was down are lost for good, so after it comes back each store asks again for what it
// shows. A store registers what re-reading means for it (only what it has loaded so far).
type Refresher = () => Promise<unknown> | unknown;

const refreshers = new Map<string, Refresher>();

/** Registers (or replaces) a store's re-read; returns the way to remove it. */
export function onRefresh(name: string, refresh: Refresher): () => void {
  refreshers.set(name, refresh);
  return () => {
    if (refreshers.get(name) === refresh) refreshers.delete(name);
  };
}

/** Every store re-reads at once; one failing does not stop the others (each shows its own error). */
export async function refreshAll(): Promise<void> {
  await Promise.allSettled([...refreshers.values()].map(async (r) => r()));
}

export function refresherNames(): string[] {
  return [...refreshers.keys()];
}
