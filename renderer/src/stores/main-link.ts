// Start-up: picks the bridge to main, lets every store follow main's events, re-reads all of them
// when the event stream comes back, and hydrates the app. Main owns the truth.
import type { CounterPayApi } from '../../../shared/contract';
import { connectBridge, onBridgeConnection } from '../transport/bridge';
import { appFollower, LOST_CONTACT_GRACE_MS, useApp } from './app-store';
import { backupsFollower } from './backups-store';
import { batchesFollower } from './batch-store';
import { catalogueFollower } from './catalogue-store';
import { followStores, type Following, type StoreFollower } from './follow';
import { hubLinkFollower } from './hub-link-store';
import { lateFollower } from './late-store';
import { deskFollower } from './desk-store';
import { integrationsFollower } from './integrations-store';
import { chargeQueueFollower } from './charge-queue-store';
import { ordersFollower } from './orders-store';
import { programmeFollower } from './programme-store';
import { refundsFollower } from './refunds-store';
import { receiptsFollower } from './receipt-store';
import { saleFollower } from './sale-store';
import { seatMapFollower } from './seat-map-store';
import { settingsFollower } from './settings-store';
import { shiftFollower } from './shift-store';
import { terminalFollower } from './terminal-store';
import { topupsFollower } from './topups-store';

const STORE_FOLLOWERS: readonly StoreFollower[] = [
  appFollower,
  ordersFollower,
  saleFollower,
  shiftFollower,
  receiptsFollower,
  terminalFollower,
  settingsFollower,
  topupsFollower,
  batchesFollower,
  backupsFollower,
  programmeFollower,
  catalogueFollower,
  hubLinkFollower,
  integrationsFollower,
  chargeQueueFollower,
  lateFollower,
  deskFollower,
  refundsFollower,
  seatMapFollower,
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
  // Events sent while the stream was down are lost, so every drop, however short, ends in a
  // re-read. The red banner only shows once the stream has been down for LOST_CONTACT_GRACE_MS: a
  // reconnect within a second or two (a busy PC, a first connect tried again) changes nothing the
  // cashier can act on, and a banner that flashes for nothing teaches people to ignore it.
  let dropped = false;
  let graceTimer: ReturnType<typeof setTimeout> | null = null;
  onBridgeConnection((up) => {
    if (!up) {
      dropped = true;
      graceTimer ??= setTimeout(() => useApp.setState({ connected: false }), LOST_CONTACT_GRACE_MS);
      return;
    }
    if (graceTimer) clearTimeout(graceTimer);
    graceTimer = null;
    if (!useApp.getState().connected) useApp.setState({ connected: true });
    if (dropped) void following.refreshAll();
    dropped = false;
  });
  void useApp.getState().hydrate();
  return following;
}
