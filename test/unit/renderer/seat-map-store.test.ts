// The seat map's store against a stand-in for main: it reads the picked show's map, reads it again
// when main says that show's seats changed (and only that show's; once per window however many
// changes come, counted on fake timers), and an answer for a show no longer picked, or older than
// the last one asked, never replaces what is shown; a map read ahead draws at once when its show is
// picked.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SeatMapView } from '../../../shared/seats';
import { followStores, type Following } from '../../../renderer/src/stores/follow';
import { SEAT_MAP_REREAD_MS, seatMapFollower, useSeatMap } from '../../../renderer/src/stores/seat-map-store';
import { connectBridge } from '../../../renderer/src/transport/bridge';
import { fakeMain, later } from './fake-main';

let following: Following | null = null;
afterEach(() => {
  vi.useRealTimers();
  following?.stop();
  following = null;
  connectBridge(null);
  useSeatMap.setState(useSeatMap.getInitialState(), true);
});

function start(main: ReturnType<typeof fakeMain>): Following {
  connectBridge(main.bridge);
  return (following = followStores(main.bridge, [seatMapFollower]));
}

const layout = {
  screen: 'Screen 1',
  zones: [],
  rows: [
    {
      row: 'A',
      cells: [1, 2].map((n, col) => ({
        kind: 'seat' as const,
        col,
        id: `A${n}`,
        number: n,
        blocked: false,
        wheelchair: false,
        companion: false,
        zone: null,
      })),
    },
  ],
  width: 2,
  capacity: 2,
};

function mapOf(showId: number, taken: SeatMapView['taken'] = []): SeatMapView {
  return {
    showId,
    showKey: `2026-11-27 19:30 screen ${showId}`,
    screen: `Screen ${showId}`,
    layout,
    taken,
    source: { kind: 'hub', at: 1 },
  };
}
const settle = () => new Promise((r) => setTimeout(r, 0));

describe('seat map store', () => {
  it("reads the show's map, and again when that show's seats change, not another show's", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let taken: SeatMapView['taken'] = [];
    const main = fakeMain({ 'seats.map': ({ showId }) => mapOf(showId, taken) });
    start(main);
    await useSeatMap.getState().load(1);
    expect(useSeatMap.getState().view?.taken).toEqual([]);

    main.emit('seats.changed', { showKey: '2026-11-27 19:30 screen 9' });
    await vi.advanceTimersByTimeAsync(SEAT_MAP_REREAD_MS);
    expect(main.calls.filter((c) => c.name === 'seats.map')).toHaveLength(1);

    taken = [{ seat: 'A1', state: 'held', counterName: 'Counter 2', mine: false }];
    main.emit('seats.changed', { showKey: '2026-11-27 19:30 screen 1' });
    await vi.advanceTimersByTimeAsync(SEAT_MAP_REREAD_MS);
    expect(main.calls.filter((c) => c.name === 'seats.map')).toHaveLength(2);
    expect(useSeatMap.getState().view?.taken).toEqual(taken);
  });

  it('243 changes of the shown show: read again once per window at its end, never once per change; the last read sees the last change', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let taken: SeatMapView['taken'] = [];
    const main = fakeMain({ 'seats.map': ({ showId }) => mapOf(showId, taken) });
    start(main);
    await useSeatMap.getState().load(1);
    const reads = () => main.calls.filter((c) => c.name === 'seats.map').length - 1;
    const change = (n: number) => {
      taken = [{ seat: `A${1 + (n % 2)}`, state: 'held', counterName: 'Counter 2', mine: false }];
      main.emit('seats.changed', { showKey: '2026-11-27 19:30 screen 1' });
    };

    // 243 at once (one burst of holds): nothing is read before the window ends, then once.
    for (let n = 0; n < 243; n++) change(n);
    await vi.advanceTimersByTimeAsync(SEAT_MAP_REREAD_MS - 1);
    expect(reads()).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(reads()).toBe(1);

    // 243 spread over 2.43 s (one every 10 ms): one read per 250 ms window, and one after the last.
    for (let n = 0; n < 243; n++) {
      change(n);
      await vi.advanceTimersByTimeAsync(10);
    }
    await vi.advanceTimersByTimeAsync(SEAT_MAP_REREAD_MS);
    expect(reads()).toBe(1 + Math.ceil(2_430 / SEAT_MAP_REREAD_MS));
    expect(useSeatMap.getState().view?.taken).toEqual(taken);
    // Quiet: no more reads.
    await vi.advanceTimersByTimeAsync(10 * SEAT_MAP_REREAD_MS);
    expect(reads()).toBe(1 + Math.ceil(2_430 / SEAT_MAP_REREAD_MS));
  });

  it('a late answer for the show picked before never replaces the map of the show picked now', async () => {
    const slow = later<SeatMapView>();
    const main = fakeMain({ 'seats.map': ({ showId }) => (showId === 1 ? slow.promise : mapOf(showId)) });
    start(main);
    const first = useSeatMap.getState().load(1);
    await useSeatMap.getState().load(2);
    slow.resolve(mapOf(1));
    await first;
    expect(useSeatMap.getState().view?.showId).toBe(2);
  });

  it('a failed read says why and keeps nothing of another show; forgetting clears it all', async () => {
    const main = fakeMain({});
    start(main);
    await useSeatMap.getState().load(3);
    expect(useSeatMap.getState().error).toMatch(/not ready yet/);
    expect(useSeatMap.getState().view).toBeNull();
    useSeatMap.getState().forget();
    expect(useSeatMap.getState()).toMatchObject({ showId: null, view: null, error: null });
  });

  it('a map read ahead is drawn the moment its show is picked, unless the seats of that show changed since', async () => {
    let answers = 0;
    const held = later<SeatMapView>();
    const main = fakeMain({
      'seats.map': ({ showId }) => (++answers === 1 ? mapOf(showId) : held.promise),
    });
    start(main);
    useSeatMap.getState().prefetch(4);
    await settle();
    void useSeatMap.getState().load(4);
    // Drawn from what was read ahead, while the new read is still out.
    expect(useSeatMap.getState().view?.showId).toBe(4);
    useSeatMap.getState().forget();

    main.emit('seats.changed', { showKey: '2026-11-27 19:30 screen 4' });
    void useSeatMap.getState().load(4);
    expect(useSeatMap.getState().view).toBeNull();
    held.resolve(mapOf(4));
  });
});
