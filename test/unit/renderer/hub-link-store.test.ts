// Settings → Hub's store against a stand-in for main: a join refused for a field keeps the message
// next to that field; a form with a wrong field is not sent at all; hub.changed updates the view
// shown; after a reconnect only a loaded view is read again.
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors';
import { followStores, type Following } from '../../../renderer/src/stores/follow';
import { hubLinkFollower, useHubLink } from '../../../renderer/src/stores/hub-link-store';
import { connectBridge } from '../../../renderer/src/transport/bridge';
import { fakeMain, hubView, joinedHubView, later } from './fake-main';

let following: Following | null = null;
afterEach(() => {
  following?.stop();
  following = null;
  connectBridge(null);
  useHubLink.setState(useHubLink.getInitialState(), true);
});

function start(main: ReturnType<typeof fakeMain>): Following {
  connectBridge(main.bridge);
  return (following = followStores(main.bridge, [hubLinkFollower]));
}

const GOOD = { hubUrl: 'https://hub.mycinema.ng', code: 'abcd-efgh-jklm' };

describe('hub store', () => {
  it('joins, and shows who the counter is on the Hub', async () => {
    const main = fakeMain({ 'hub.enroll': () => joinedHubView() });
    start(main);
    expect(await useHubLink.getState().enroll(GOOD)).toBe(true);
    expect(main.calls.map((c) => c.name)).toEqual(['hub.enroll']);
    expect(useHubLink.getState().view?.counterName).toBe('Counter 2');
    expect(useHubLink.getState().message).toEqual({
      kind: 'ok',
      text: 'Joined the Hub at https://hub.mycinema.ng as Counter 2.',
    });
  });

  it('an event that comes while the join is answered is newer than the answer: the view stays on it', async () => {
    const answer = later<ReturnType<typeof joinedHubView>>();
    const main = fakeMain({ 'hub.enroll': () => answer.promise });
    start(main);
    const joining = useHubLink.getState().enroll(GOOD);
    // Main answered with the view of the moment it joined (relay not yet up)…
    const atJoin = joinedHubView({ state: 'connecting', relay: 'not-connected', lastSyncAt: null });
    // …and the relay came up before that answer reached the page.
    main.emit('hub.changed', joinedHubView());
    answer.resolve(atJoin);
    expect(await joining).toBe(true);
    expect(useHubLink.getState().view).toMatchObject({ relay: 'connected', state: 'connected' });
    expect(useHubLink.getState().message?.text).toBe('Joined the Hub at https://hub.mycinema.ng as Counter 2.');
  });

  it('a wrong field is shown next to it and nothing is sent', async () => {
    const main = fakeMain({ 'hub.enroll': () => joinedHubView() });
    start(main);
    expect(await useHubLink.getState().enroll({ hubUrl: 'http://hub.example.com', code: 'ABC' })).toBe(false);
    expect(main.calls).toEqual([]);
    expect(useHubLink.getState().fieldErrors.hubUrl).toContain('https://');
    expect(useHubLink.getState().fieldErrors.code).toContain('ABCD-EFGH-JKLM');
  });

  it("a name whose code another counter has lands next to the name, with the Hub's words", async () => {
    const hubWords =
      'The code COU1 is taken by "Counter 1" (branch Ikeja, BR-A): choose a name that gives another code, e.g. "Lekki Counter 1" (code LC1), or revoke the old counter on the Counters screen first.';
    const main = fakeMain({
      'hub.enroll': () => {
        throw new AppError(
          'HUB_NAME_TAKEN',
          "This counter's name gives the same code (COU1) as another counter's on the Hub: change its name in Settings → Edit Demo → Counter name, then join again.",
          {
            fields: { counterName: hubWords },
          },
        );
      },
    });
    start(main);
    expect(await useHubLink.getState().enroll(GOOD)).toBe(false);
    expect(useHubLink.getState().fieldErrors).toEqual({ counterName: hubWords });
    expect(useHubLink.getState().message?.text).toContain('Settings → Edit Demo → Counter name');
  });

  it('a code the Hub refuses lands next to the code; an unreachable Hub is one sentence', async () => {
    const main = fakeMain({
      'hub.enroll': () => {
        throw new AppError(
          'HUB_CODE_INVALID',
          'The Hub does not accept this code: it is unknown, already used or expired. Ask the manager for a new code.',
          {
            fields: { code: 'Unknown, already used or expired: ask the manager for a new code' },
          },
        );
      },
    });
    start(main);
    expect(await useHubLink.getState().enroll(GOOD)).toBe(false);
    expect(useHubLink.getState().fieldErrors).toEqual({
      code: 'Unknown, already used or expired: ask the manager for a new code',
    });
    expect(useHubLink.getState().message?.kind).toBe('error');

    main.answer('hub.enroll', () => {
      throw new AppError(
        'HUB_UNREACHABLE',
        'No Hub answered at https://hub.mycinema.ng. Check the address, that the Hub is running, and that this PC is on the network; then try again.',
      );
    });
    expect(await useHubLink.getState().enroll(GOOD)).toBe(false);
    expect(useHubLink.getState().fieldErrors).toEqual({});
    expect(useHubLink.getState().message?.text).toContain('No Hub answered');
  });

  it('follows hub.changed, and after a reconnect reads the view again only once it was loaded', async () => {
    const main = fakeMain({ 'hub.status': () => hubView() });
    const f = start(main);
    await f.refreshAll();
    expect(main.calls).toEqual([]);
    await useHubLink.getState().load();
    main.emit('hub.changed', joinedHubView({ state: 'offline', toSync: 3 }));
    expect(useHubLink.getState().view).toMatchObject({ state: 'offline', toSync: 3 });
    main.answer('hub.status', () => joinedHubView());
    await f.refreshAll();
    expect(main.calls.map((c) => c.name)).toEqual(['hub.status', 'hub.status']);
    expect(useHubLink.getState().view?.state).toBe('connected');
  });

  it('leaving shows the counter as not joined', async () => {
    const main = fakeMain({ 'hub.leave': () => hubView() });
    start(main);
    useHubLink.setState({ view: joinedHubView() });
    expect(await useHubLink.getState().leave()).toBe(true);
    expect(useHubLink.getState().view?.hubUrl).toBeNull();
    expect(useHubLink.getState().message?.text).toContain('left the Hub');
  });
});

describe('hub store messages', () => {
  it('"Joined…" goes away once main says the link went offline', async () => {
    const main = fakeMain({ 'hub.enroll': () => joinedHubView() });
    start(main);
    await useHubLink.getState().enroll(GOOD);
    main.emit('hub.changed', joinedHubView({ state: 'connected', toSync: 1 }));
    expect(useHubLink.getState().message?.kind).toBe('ok');
    main.emit('hub.changed', joinedHubView({ state: 'offline', toSync: 1 }));
    expect(useHubLink.getState().message).toBeNull();
  });
});
