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
import { lateFollower, useLate } from '../../../renderer/src/stores/late-store';
import type { LateList } from '../../../shared/late-payments';
import { fakeMain, later } from './fake-main';

const FOLLOWERS = [ordersFollower, settingsFollower, terminalFollower, batchesFollower];
const STATE: TerminalState = {
  source: 'serial',
  status: 'connected',
  portPath: '/dev/ttyUSB0',
  sn: 'SN-123456',
  lastError: null,
  lastSeenAt: 1_700_000_000_000,
};

let following: Following | null = null;
afterEach(() => {
  following?.stop();
  following = null;
  connectBridge(null);
  useOrders.setState(useOrders.getInitialState(), true);
  useSettings.setState(useSettings.getInitialState(), true);
  useTerminal.setState(useTerminal.getInitialState(), true);
  useBatch.setState(useBatch.getInitialState(), true);
  useLate.setState(useLate.getInitialState(), true);
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
      'terminal.get': () => ({
        settings: defaultTerminalSettings(),
        state: { ...STATE, status: 'disconnected', sn: null },
      }),
    });
    const f = start(main);
    useSettings.setState({ pin: { set: true, unlocked: true, lockedUntil: null } });
    useTerminal.setState({ state: STATE });

    await expect(f.refreshAll()).resolves.toBeUndefined();
    expect(useTerminal.getState().state?.status).toBe('disconnected');
  });

  it('a Demo terminal read overtaken by a push keeps the push (the newer screen)', async () => {
    const idle = { available: true, sn: 'DEMO-POS-0001', pending: null, message: 'Ready. Waiting for a payment.' };
    const waiting = {
      available: true,
      sn: 'DEMO-POS-0001',
      message: 'Card payment requested',
      pending: { outOrderNo: 'CP-1', orderNo: 'ORD-1', amountKobo: 250_000, expiresAt: 1_700_000_600_000 },
    };
    const read = later<typeof idle>();
    const main = fakeMain({ 'demo.terminalScreen': () => read.promise });
    start(main);
    // The panel asks for the screen; main answers "idle", then an order lands and main pushes it;
    // the push reaches the page before the answer does.
    const loading = useTerminal.getState().loadDemo();
    main.emit('demo.terminalChanged', waiting);
    read.resolve(idle);
    await loading;
    expect(useTerminal.getState().demo?.pending?.amountKobo).toBe(250_000);
    // With nothing pushed in between, a read is applied as before.
    main.answer('demo.terminalScreen', () => idle);
    await useTerminal.getState().loadDemo();
    expect(useTerminal.getState().demo?.pending).toBeNull();
  });

  it('a terminal read overtaken by a push keeps the pushed link state', async () => {
    const read = later<{ settings: ReturnType<typeof defaultTerminalSettings>; state: TerminalState }>();
    const main = fakeMain({ 'terminal.get': () => read.promise });
    start(main);
    const loading = useTerminal.getState().load();
    main.emit('terminal.changed', { ...STATE, status: 'disconnected', sn: null });
    read.resolve({ settings: defaultTerminalSettings(), state: STATE });
    await loading;
    expect(useTerminal.getState().state?.status).toBe('disconnected');
    expect(useTerminal.getState().settings).not.toBeNull();
  });

  it('a late-payments read overtaken by a push keeps the pushed list (the alert cannot vanish)', async () => {
    const read = later<LateList>();
    const main = fakeMain({ 'orders.late': () => read.promise });
    connectBridge(main.bridge);
    following = followStores(main.bridge, [lateFollower]);
    const loading = useLate.getState().load();
    const pushed: LateList = {
      unhandled: 1,
      items: [
        {
          orderId: 17,
          outOrderNo: 'COU1-S261125-0017',
          filmTitle: 'Lagos Nights',
          late: {
            kind: 'paid-after-closing',
            providerStatus: 'SUCCESS',
            closedAs: 'EXPIRED',
            amountKobo: 400_000,
            foundAt: 1_700_000_000_000,
            source: 'webhook',
            handled: null,
          },
        },
      ],
    };
    main.emit('orders.lateChanged', pushed);
    read.resolve({ unhandled: 0, items: [] });
    await loading;
    expect(useLate.getState().list).toEqual(pushed);
  });
});
