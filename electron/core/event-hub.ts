// Main-to-renderer events: validated against the contract, then fanned out to every transport.
import { checkEvent, type EventName, type EventPayload } from '../../shared/contract-kit';
import { events, type Events } from '../../shared/contract';

export type EventListener = (name: EventName<Events>, payload: unknown) => void;

export function createEventHub() {
  const listeners = new Set<EventListener>();
  return {
    emit<K extends EventName<Events>>(name: K, payload: EventPayload<Events, K>): void {
      const checked = checkEvent(events, name, payload);
      for (const l of listeners) l(name, checked);
    },
    subscribe(l: EventListener): () => void {
      listeners.add(l);
      return () => listeners.delete(l);
    },
  };
}
export type EventHub = ReturnType<typeof createEventHub>;
