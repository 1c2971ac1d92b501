// The renderer's one way to main: window.counterpay (Electron preload) or, in the browser shell,
// the HTTP bridge. `call` unwraps results and throws AppErrors rebuilt from their code.
import { unwrap, type CallArgs, type CallName, type CallValue } from '../../../shared/contract-kit';
import type { Calls, CounterPayApi } from '../../../shared/contract';
import { createHttpBridge, takeToken } from './http-bridge';

declare global {
  interface Window {
    counterpay?: CounterPayApi;
  }
}

let connectionListener: (up: boolean) => void = () => {};
export function onBridgeConnection(l: (up: boolean) => void): void {
  connectionListener = l;
}

function resolveBridge(): CounterPayApi | null {
  if (window.counterpay) return window.counterpay;
  const token = takeToken();
  return token ? createHttpBridge(token, (up) => connectionListener(up)) : null;
}

export const bridge: CounterPayApi | null = resolveBridge();

export async function call<K extends CallName<Calls>>(name: K, args: CallArgs<Calls, K>): Promise<CallValue<Calls, K>> {
  if (!bridge) throw new Error('No connection to CounterPay');
  return unwrap(await bridge.invoke(name, args));
}
