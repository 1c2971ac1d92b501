// Main-to-renderer events: validated against the contract, then fanned out to every transport.
import { checkEvent, type EventName, type EventPayload } from '../shared/contract-kit';
import { events, type Events } from '../shared/contract';
import { TypedEmitter } from './lib';

type EventListener = (name: EventName<Events>, payload: unknown) => void;

export function createEventBus() {
  const fanout = new TypedEmitter<{ event: Parameters<EventListener> }>();
  return {
    emit<K extends EventName<Events>>(name: K, payload: EventPayload<Events, K>): void {
      const checked = checkEvent(events, name, payload);
      fanout.emit('event', name, checked);
    },
    subscribe(l: EventListener): () => void {
      return fanout.on('event', l);
    },
  };
}
export type EventBus = ReturnType<typeof createEventBus>;
