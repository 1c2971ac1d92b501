// A typed listener list: what a service uses to tell others about changes, instead of a
// hand-rolled Set of callbacks in each. `on` answers the unsubscribe function.

export type EventMap = Record<string, unknown[]>;
type Listener<A extends unknown[]> = (...args: A) => void;

export class TypedEmitter<E extends EventMap> {
  private readonly lists = new Map<keyof E, Set<Listener<never[]>>>();

  on<K extends keyof E>(event: K, listener: Listener<E[K]>): () => void {
    let list = this.lists.get(event);
    if (!list) this.lists.set(event, (list = new Set()));
    const l = listener as unknown as Listener<never[]>;
    list.add(l);
    return () => void list.delete(l);
  }

  /** Calls every listener of `event` in the order they subscribed; a listener that throws stops the rest (and the caller sees it). */
  emit<K extends keyof E>(event: K, ...args: E[K]): void {
    const list = this.lists.get(event);
    if (!list) return;
    for (const l of list) (l as unknown as Listener<E[K]>)(...args);
  }

  listenerCount(event: keyof E): number {
    return this.lists.get(event)?.size ?? 0;
  }
}
