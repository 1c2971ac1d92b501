// How the stores follow main: events main sends land in the stores that show them, and stop
// landing once unsubscribed; after the event stream comes back, every store re-reads what it has
// loaded (and only that), one failure not stopping the others. Main is a contract-checked stand-in.
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors';
import { defaultTerminalSettings, type TerminalState } from '../../../shared/terminal';
import { batchesFollower, useBatch } from '../../../renderer/src/stores/batch-store';
import { followStores, type Following } from '../../../renderer/src/stores/follow';
import { ordersFollower, useOrders } from '../../../renderer/src/stores/orders-store';
import { settingsFollower, useSettings } from '../../../renderer/src/stores/settings-store';
import { terminalFollower, useTerminal } from '../../../renderer/src/stores/terminal-store';
import { connectBridge } from '../../../renderer/src/transport/bridge';
import { fakeMain } from './fake-main';

const FOLLOWERS = [ordersFollower, settingsFollower, terminalFollower, batchesFollower];
const STATE: TerminalState = { source: 'serial', status: 'connected', portPath: '/dev/ttyUSB0', sn: 'SN-123456', lastError: null, lastSeenAt: 1_700_000_000_000 };

let following: Following | null = null;
afterEach(() => {
  following?.stop();
  following = null;
  connectBridge(null);
  useOrders.setState(useOrders.getInitialState(), true);
  useSettings.setState(useSettings.getInitialState(), true);
  useTerminal.setState(useTerminal.getInitialState(), true);
  useBatch.setState(useBatch.getInitialState(), true);
});

function start(main: ReturnType<typeof fakeMain>): Following {
  connectBridge(main.bridge);
  following = followStores(main.bridge, FOLLOWERS);
  return following;
}

describe('followStores', () => {
  it("applies main's events to the store that shows them, until stopped", () => {
    const main = fakeMain();
    const f = start(main);
    main.emit('terminal.changed', STATE);
    expect(useTerminal.getState().state).toEqual(STATE);

    f.stop();
    expect(main.listenerCount()).toBe(0);
    main.emit('terminal.changed', { ...STATE, status: 'disconnected', sn: null });
    expect(useTerminal.getState().state?.status).toBe('connected');
  });

  it('after a reconnect re-reads only what each store had loaded', async () => {
    const main = fakeMain({
      'settings.pinStatus': () => ({ set: true, unlocked: false, lockedUntil: null }),
      'terminal.get': () => ({ settings: defaultTerminalSettings(), state: { ...STATE, sn: 'SN-654321' } }),
    });
    const f = start(main);
    useSettings.setState({ pin: { set: true, unlocked: true, lockedUntil: null } });
    useTerminal.setState({ state: STATE });

    await f.refreshAll();
    // Orders were never searched and the Batch tab never opened: nothing asked for them.
    expect(main.calls.map((c) => c.name).sort()).toEqual(['settings.pinStatus', 'terminal.get']);
    expect(useSettings.getState().pin?.unlocked).toBe(false);
    expect(useTerminal.getState().state?.sn).toBe('SN-654321');
  });

  it('one store failing to re-read does not stop the others', async () => {
    const main = fakeMain({
      'settings.pinStatus': () => {
        throw new AppError('INTERNAL', 'The settings file cannot be read.');
      },
      'terminal.get': () => ({ settings: defaultTerminalSettings(), state: { ...STATE, status: 'disconnected', sn: null } }),
    });
    const f = start(main);
    useSettings.setState({ pin: { set: true, unlocked: true, lockedUntil: null } });
    useTerminal.setState({ state: STATE });

    await expect(f.refreshAll()).resolves.toBeUndefined();
    expect(useTerminal.getState().state?.status).toBe('disconnected');
  });
});
