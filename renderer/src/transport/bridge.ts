// The renderer's one way to main: window.counterpay (Electron preload) or, in the browser shell,
// the HTTP bridge. `call` unwraps results and throws AppErrors rebuilt from their code.
// The bridge is chosen once at start-up (`connectBridge(resolveBridge())`), so the stores can be
// exercised against a stand-in for main in tests.
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

/** The preload's bridge, or the browser shell's (its session: the address's one-time token, else the cookie of an earlier load). */
export function resolveBridge(): CounterPayApi | null {
  if (window.counterpay) return window.counterpay;
  return createHttpBridge(takeToken(), (up) => connectionListener(up));
}

let current: CounterPayApi | null = null;

/** Sets the bridge every `call` uses. */
export function connectBridge(bridge: CounterPayApi | null): void {
  current = bridge;
}

export async function call<K extends CallName<Calls>>(name: K, args: CallArgs<Calls, K>): Promise<CallValue<Calls, K>> {
  if (!current) throw new Error('No connection to CounterPay');
  return unwrap(await current.invoke(name, args));
}
