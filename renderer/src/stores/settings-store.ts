// The Settings screen's state: PIN gate, the profile being edited and the save's field errors.
import { create } from 'zustand';
import { isAppError } from '../../../shared/errors';
import type { PinStatus, ProfileName, ProfileView, SecretName } from '../../../shared/settings';
import { call } from '../transport/bridge';
import { errorText, fieldErrorsOf } from './call-errors';
import type { StoreFollower } from './follow';

interface SettingsState {
  pin: PinStatus | null;
  editing: ProfileName;
  view: ProfileView | null;
  busy: boolean;
  message: { kind: 'ok' | 'error'; text: string } | null;
  fieldErrors: Record<string, string>;
  refreshPin(): Promise<void>;
  setPin(newPin: string, currentPin?: string): Promise<boolean>;
  unlock(pin: string): Promise<boolean>;
  lock(): Promise<void>;
  load(profile: ProfileName): Promise<void>;
  /** The admin picks a profile to edit: the one already shown (or on its way) is kept as typed, not re-read. */
  openProfile(profile: ProfileName): Promise<void>;
  save(settings: ProfileView['settings'], secrets: Partial<Record<SecretName, string>>): Promise<boolean>;
  activate(profile: ProfileName): Promise<void>;
}

export const useSettings = create<SettingsState>((set, get) => {
  // One load per profile at a time: a second answer arriving while the admin types would reset the form.
  let loading: { profile: ProfileName; promise: Promise<void> } | null = null;
  const guard = async <T>(fn: () => Promise<T>): Promise<T | undefined> => {
    set({ busy: true, message: null });
    try {
      return await fn();
    } catch (e) {
      if (isAppError(e) && (e.code === 'PIN_REQUIRED' || e.code === 'PIN_NOT_SET')) await get().refreshPin();
      set({ message: { kind: 'error', text: errorText(e) }, fieldErrors: fieldErrorsOf(e) });
      return undefined;
    } finally {
      set({ busy: false });
    }
  };
  return {
    pin: null,
    editing: 'demo',
    view: null,
    busy: false,
    message: null,
    fieldErrors: {},
    refreshPin: async () => set({ pin: await call('settings.pinStatus', {}) }),
    setPin: async (newPin, currentPin) => {
      const pin = await guard(() => call('settings.setPin', currentPin ? { newPin, currentPin } : { newPin }));
      if (pin) set({ pin, message: { kind: 'ok', text: 'Admin PIN saved. Settings are open.' } });
      return !!pin;
    },
    unlock: async (p) => {
      const pin = await guard(() => call('settings.unlock', { pin: p }));
      if (pin) set({ pin, message: null });
      return !!pin;
    },
    lock: async () => set({ pin: await call('settings.lock', {}), view: null, message: null, fieldErrors: {} }),
    load: (profile) => {
      if (get().editing !== profile) set({ editing: profile, fieldErrors: {}, message: null });
      if (loading?.profile === profile) return loading.promise;
      const promise = (async () => {
        const view = await guard(() => call('settings.getProfile', { profile }));
        // An answer for a profile the admin has already left is dropped.
        if (view && get().editing === profile) set({ view });
      })().finally(() => {
        if (loading?.promise === promise) loading = null;
      });
      loading = { profile, promise };
      return promise;
    },
    openProfile: async (profile) => {
      const shown = get().editing === profile && (get().view?.profile === profile || loading?.profile === profile);
      if (!shown) await get().load(profile);
    },
    save: async (settings, secrets) => {
      const view = await guard(() => call('settings.saveProfile', { profile: get().editing, settings, secrets }));
      if (view) set({ view, fieldErrors: {}, message: { kind: 'ok', text: 'Saved.' } });
      return !!view;
    },
    activate: async (profile) => {
      const ok = await guard(() => call('settings.setActiveProfile', { profile }));
      if (ok) set({ message: { kind: 'ok', text: `Now using the ${profile} profile.` } });
    },
  };
});

// The PIN's unlock may have run out while the connection was down. The profile form is not
// re-read: it would throw away what the admin is typing (a save re-reads it anyway).
export const settingsFollower: StoreFollower = {
  name: 'settings',
  listen: () => [],
  refresh: () => (useSettings.getState().pin ? useSettings.getState().refreshPin() : null),
};
