// A typed listener list: what a service uses to tell others about changes, instead of a
// hand-rolled Set of callbacks in each. `on` answers the unsubscribe function.

type EventMap = Record<string, unknown[]>;
type Listener<A extends unknown[]> = (...args: A) => void;

interface TypedEmitterOptions {
  /**
   * Given: a listener that throws is reported here and the others still run (for services whose
   * emit runs inside someone else's callback, where a throw must not escape). Omitted: the throw
   * stops the rest and reaches the caller of emit.
   */
  onListenerError?: (error: unknown, event: string) => void;
}

export class TypedEmitter<E extends EventMap> {
  private readonly lists = new Map<keyof E, Set<Listener<never[]>>>();

  constructor(private readonly opts: TypedEmitterOptions = {}) {}

  on<K extends keyof E>(event: K, listener: Listener<E[K]>): () => void {
    let list = this.lists.get(event);
    if (!list) this.lists.set(event, (list = new Set()));
    const l = listener as unknown as Listener<never[]>;
    list.add(l);
    return () => void list.delete(l);
  }

  off<K extends keyof E>(event: K, listener: Listener<E[K]>): void {
    this.lists.get(event)?.delete(listener as unknown as Listener<never[]>);
  }

  /** Calls the listeners of `event` subscribed when the emit starts, in the order they subscribed. */
  emit<K extends keyof E>(event: K, ...args: E[K]): void {
    const list = this.lists.get(event);
    if (!list) return;
    for (const l of [...list] as unknown as Listener<E[K]>[]) {
      if (!this.opts.onListenerError) l(...args);
      else {
        try {
          l(...args);
        } catch (e) {
          this.opts.onListenerError(e, String(event));
        }
      }
    }
  }

  listenerCount(event: keyof E): number {
    return this.lists.get(event)?.size ?? 0;
  }

  /** Drops every listener (a service that is closing). */
  clear(): void {
    this.lists.clear();
  }
}
