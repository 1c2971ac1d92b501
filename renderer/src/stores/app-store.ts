// App-wide state: which screen, the theme, app info and the live status snapshot from main.
import { create } from 'zustand';
import type { AppInfo, StatusSnapshot } from '../../../shared/contract';
import { call } from '../transport/bridge';
import type { StoreFollower } from './follow';
import { pushGuard } from './push-guard';

/** A status read answered after a status push keeps the push (see push-guard.ts). */
const statusPushes = pushGuard();

export const SCREENS = [
  { id: 'sell', label: 'Sell', key: '1' },
  { id: 'topups', label: 'Top-ups', key: '2' },
  { id: 'orders', label: 'Orders', key: '3' },
  { id: 'shift', label: 'Shift', key: '4' },
  { id: 'settings', label: 'Settings', key: '5' },
  { id: 'desk', label: 'Debited?', key: '6' },
] as const;
export type ScreenId = (typeof SCREENS)[number]['id'];
export type ThemeChoice = 'system' | 'light' | 'dark';

interface AppState {
  screen: ScreenId;
  theme: ThemeChoice;
  info: AppInfo | null;
  status: StatusSnapshot | null;
  connected: boolean;
  fatal: string | null;
  go(screen: ScreenId): void;
  setTheme(t: ThemeChoice): void;
  hydrate(): Promise<void>;
}

const THEME_KEY = 'counterpay.theme';
/** How long the event stream may be down before the page says it lost contact. */
export const LOST_CONTACT_GRACE_MS = 2000;

export function applyTheme(t: ThemeChoice): void {
  const dark = t === 'dark' || (t === 'system' && window.matchMedia('(prefers-color-scheme: dark)').matches);
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
}

export const useApp = create<AppState>((set) => ({
  screen: 'sell',
  theme: ((): ThemeChoice => {
    const t = localStorage.getItem(THEME_KEY);
    return t === 'light' || t === 'dark' ? t : 'system';
  })(),
  info: null,
  status: null,
  connected: true,
  fatal: null,
  go: (screen) => set({ screen }),
  setTheme: (theme) => {
    localStorage.setItem(THEME_KEY, theme);
    applyTheme(theme);
    set({ theme });
  },
  hydrate: async () => {
    try {
      const fresh = statusPushes.mark();
      const [info, status] = await Promise.all([call('app.info', {}), call('status.get', {})]);
      set(fresh() ? { info, status, fatal: null } : { info, fatal: null });
    } catch (e) {
      set({ fatal: e instanceof Error ? e.message : String(e) });
    }
  },
}));

export const appFollower: StoreFollower = {
  name: 'app',
  listen: (bridge) => [
    bridge.on('status.changed', (status) => {
      statusPushes.pushed();
      useApp.setState({ status });
    }),
  ],
  refresh: () => useApp.getState().hydrate(),
};
