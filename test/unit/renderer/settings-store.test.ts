// The Settings store against a stand-in for main: picking the profile already on show keeps what
// the admin typed (no re-read whose late answer would wipe it); an answer for a profile the admin
// has left is dropped; a refused save keeps the field messages and the form.
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors';
import { defaultProfile, SECRET_NAMES, type ProfileName, type ProfileView } from '../../../shared/settings';
import { useSettings } from '../../../renderer/src/stores/settings-store';
import { connectBridge } from '../../../renderer/src/transport/bridge';
import { fakeMain, later } from './fake-main';

const view = (profile: ProfileName): ProfileView => ({
  profile,
  settings: defaultProfile(profile),
  secrets: Object.fromEntries(
    SECRET_NAMES.map((n) => [n, { set: false, fingerprint: null }]),
  ) as ProfileView['secrets'],
});
const reads = (main: ReturnType<typeof fakeMain>) =>
  main.calls.filter((c) => c.name === 'settings.getProfile').map((c) => (c.args as { profile: string }).profile);

afterEach(() => {
  connectBridge(null);
  useSettings.setState(useSettings.getInitialState(), true);
});

describe('settings store', () => {
  it('picking the profile already shown does not read it again', async () => {
    const main = fakeMain({ 'settings.getProfile': ({ profile }) => view(profile) });
    connectBridge(main.bridge);
    await useSettings.getState().load('demo');
    await useSettings.getState().openProfile('demo');
    await useSettings.getState().openProfile('demo');
    expect(reads(main)).toEqual(['demo']);
  });

  it('picking the profile whose read is on its way waits for that read instead of asking twice', async () => {
    const answer = later<ProfileView>();
    const main = fakeMain({ 'settings.getProfile': () => answer.promise });
    connectBridge(main.bridge);
    const first = useSettings.getState().load('demo');
    const second = useSettings.getState().openProfile('demo');
    answer.resolve(view('demo'));
    await Promise.all([first, second]);
    expect(reads(main)).toEqual(['demo']);
    expect(useSettings.getState().view?.profile).toBe('demo');
  });

  it('a late answer for a profile the admin already left is dropped', async () => {
    const sandbox = later<ProfileView>();
    const main = fakeMain({
      'settings.getProfile': ({ profile }) => (profile === 'sandbox' ? sandbox.promise : view(profile)),
    });
    connectBridge(main.bridge);
    await useSettings.getState().load('demo');
    const leaving = useSettings.getState().openProfile('sandbox');
    await useSettings.getState().openProfile('demo');
    sandbox.resolve(view('sandbox'));
    await leaving;
    expect(useSettings.getState().editing).toBe('demo');
    expect(useSettings.getState().view?.profile).toBe('demo');
  });

  it('a refused save keeps the profile on show and names the fields to fix', async () => {
    const main = fakeMain({
      'settings.getProfile': ({ profile }) => view(profile),
      'settings.saveProfile': () => {
        throw new AppError('VALIDATION', 'Nothing was saved: check the marked fields.', {
          fields: { 'settings.posBaseUrl': 'Enter a full http:// or https:// address' },
        });
      },
    });
    connectBridge(main.bridge);
    await useSettings.getState().load('demo');
    const ok = await useSettings.getState().save(view('demo').settings, {});
    expect(ok).toBe(false);
    const s = useSettings.getState();
    expect(s.view?.profile).toBe('demo');
    expect(s.message).toEqual({ kind: 'error', text: 'Nothing was saved: check the marked fields.' });
    expect(s.fieldErrors).toEqual({ 'settings.posBaseUrl': 'Enter a full http:// or https:// address' });
  });
});
