// The Top-ups store following main: the top-up on show and the recent list take main's events
// (a late, older event never undoes a final state), batch items stay out of the singles' list,
// and after a reconnect the top-up on show is read again.
import { afterEach, describe, expect, it } from 'vitest';
import type { TopupView } from '../../../shared/topups';
import { followStores, type Following } from '../../../renderer/src/stores/follow';
import { topupsFollower, useTopups } from '../../../renderer/src/stores/topups-store';
import { connectBridge } from '../../../renderer/src/transport/bridge';
import { fakeMain } from './fake-main';

const T0 = 1_763_900_000_000;
const topup = (patch: Partial<TopupView>): TopupView => ({
  id: 1,
  reference: 'TU-0001',
  batchId: null,
  line: null,
  serviceType: 'airtime',
  provider: 'MTN',
  customerId: '08031234567',
  customerName: null,
  amountKobo: 50_000,
  state: 'pending',
  providerStatus: 'PENDING',
  orderNo: 'P-1',
  errorMsg: '',
  attempts: 1,
  createdAt: T0,
  updatedAt: T0,
  ...patch,
});

let following: Following | null = null;
afterEach(() => {
  following?.stop();
  following = null;
  connectBridge(null);
  useTopups.setState(useTopups.getInitialState(), true);
});

function start(main: ReturnType<typeof fakeMain>): Following {
  connectBridge(main.bridge);
  return (following = followStores(main.bridge, [topupsFollower]));
}

describe('topups store', () => {
  it('keeps the top-up on show and the recent list live from main, never going back from a final state', () => {
    const main = fakeMain();
    start(main);
    useTopups.getState().show(topup({}));
    main.emit('topups.changed', topup({ state: 'success', providerStatus: 'SUCCESS', updatedAt: T0 + 5_000 }));
    expect(useTopups.getState().current?.state).toBe('success');
    // A late event written before the final one arrives after it: the final state stays.
    main.emit('topups.changed', topup({ state: 'pending', updatedAt: T0 + 2_000 }));
    expect(useTopups.getState().current?.state).toBe('success');
    expect(useTopups.getState().recent.map((r) => [r.id, r.state])).toEqual([[1, 'success']]);
  });

  it('leaves items of a batch out of the singles', () => {
    const main = fakeMain();
    start(main);
    main.emit('topups.changed', topup({ id: 9, batchId: 3, line: 2 }));
    expect(useTopups.getState().recent).toEqual([]);
  });

  it('after a reconnect reads the top-up on show again', async () => {
    const main = fakeMain({
      'topups.get': ({ id }) =>
        topup({ id, state: 'fail', providerStatus: 'FAIL', errorMsg: 'Wrong number', updatedAt: T0 + 9_000 }),
    });
    const f = start(main);
    useTopups.getState().show(topup({}));
    await f.refreshAll();
    expect(main.calls.map((c) => c.name)).toEqual(['topups.get']);
    expect(useTopups.getState().current).toMatchObject({ state: 'fail', errorMsg: 'Wrong number' });
  });
});
