// Start-up: picks the bridge to main, lets every store follow main's events, re-reads all of them
// when the event stream comes back, and hydrates the app. Main owns the truth.
import type { CounterPayApi } from '../../../shared/contract';
import { connectBridge, onBridgeConnection } from '../transport/bridge';
import { appFollower, useApp } from './app-store';
import { batchesFollower } from './batch-store';
import { followStores, type Following, type StoreFollower } from './follow';
import { ordersFollower } from './orders-store';
import { receiptsFollower } from './receipt-store';
import { saleFollower } from './sale-store';
import { settingsFollower } from './settings-store';
import { shiftFollower } from './shift-store';
import { terminalFollower } from './terminal-store';
import { topupsFollower } from './topups-store';

export const STORE_FOLLOWERS: readonly StoreFollower[] = [
  appFollower, ordersFollower, saleFollower, shiftFollower, receiptsFollower, terminalFollower, settingsFollower, topupsFollower, batchesFollower,
];

const NO_KEY = 'This page was opened without its key. Open the address that CounterPay printed when it started.';

/** Connects the stores to main through `bridge` (null: the page has no way to main, which the app says). */
export function followMain(bridge: CounterPayApi | null): Following | null {
  connectBridge(bridge);
  if (!bridge) {
    useApp.setState({ fatal: NO_KEY });
    return null;
  }
  const following = followStores(bridge, STORE_FOLLOWERS);
  onBridgeConnection((up) => {
    if (up === useApp.getState().connected) return;
    useApp.setState({ connected: up });
    if (up) void following.refreshAll();
  });
  void useApp.getState().hydrate();
  return following;
}
