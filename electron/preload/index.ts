// The preload exposes exactly the contract as window.counterpay (the one place ipcRenderer is
// used): an invoke for known call names and a subscription for known event names. Nothing else.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { CALL_NAMES, EVENT_NAMES, type CounterPayApi } from '../../shared/contract';
import { CALL_CHANNEL, EVENT_CHANNEL } from '../../shared/transport-names';

const callNames = new Set<string>(CALL_NAMES);
const eventNames = new Set<string>(EVENT_NAMES);

const api: CounterPayApi = {
  invoke(name, args) {
    if (!callNames.has(name))
      return Promise.resolve({
        ok: false,
        error: { code: 'UNKNOWN_CALL', message: `There is no call named ${String(name)}.` },
      });
    return ipcRenderer.invoke(CALL_CHANNEL, name, args);
  },
  on(event, listener) {
    if (!eventNames.has(event)) throw new Error(`There is no event named ${String(event)}.`);
    const handler = (_e: IpcRendererEvent, name: string, payload: unknown) => {
      if (name === event) (listener as (p: unknown) => void)(payload);
    };
    ipcRenderer.on(EVENT_CHANNEL, handler);
    return () => void ipcRenderer.removeListener(EVENT_CHANNEL, handler);
  },
};

contextBridge.exposeInMainWorld('counterpay', api);
