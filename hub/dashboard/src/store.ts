// The dashboard's state: the session, where we are (the URL is the truth: every screen and filter
// can be bookmarked or typed), the theme, and the live feed (kept while you move between screens).
import { create } from 'zustand';
import { z } from 'zod';
import {
  LogoutResponseSchema,
  OrderRowSchema,
  SessionViewSchema,
  type OrderRow,
  type SessionView,
} from '../../../shared/hub-dashboard-contract';
import { api, ApiError, apiUrl, useCsrf, whenLoggedOut } from './api';
import { closedReason } from './manager-view';

export const BASE = '/dashboard/';

export const SCREENS = [
  { id: 'today', label: 'Today' },
  { id: 'live', label: 'Live' },
  { id: 'attention', label: 'Needs attention' },
  { id: 'shifts', label: 'Shifts' },
  { id: 'orders', label: 'Orders' },
  { id: 'counters', label: 'Counters' },
  { id: 'shows', label: 'Shows' },
  { id: 'programme', label: 'Programme' },
  { id: 'managers', label: 'Managers', headOffice: true },
  { id: 'audit', label: 'Audit', headOffice: true },
  // Last, so head office's Alt+9/Alt+0 (Managers, Audit) stay; a branch manager opens it with Alt+9.
  { id: 'screens', label: 'Screens' },
  // After the sale (no key: Alt+1…0 stay as they were).
  { id: 'refunds', label: 'Refunds', noKey: true },
  { id: 'cases', label: 'Cases', noKey: true },
] as const;
export type ScreenId = (typeof SCREENS)[number]['id'];
/** The screens in the top bar for this manager (Managers and Audit are head office's); Alt+1…9, Alt+0 open them in this order. */
export const screensFor = (role: SessionView['manager']['role'] | undefined) =>
  SCREENS.filter((x) => role === 'head-office' || !('headOffice' in x));

interface Route {
  /** 'account': the manager's own account (change my password), from the account menu. */
  screen: ScreenId | 'account' | 'unknown';
  /** /orders/<id>: one order's history. */
  orderId: string | null;
  query: URLSearchParams;
}

function parseRoute(pathname: string, search: string): Route {
  const rest = pathname.startsWith(BASE) ? pathname.slice(BASE.length) : '';
  const [first = '', second] = rest.split('/').filter(Boolean);
  const query = new URLSearchParams(search);
  if (first === '') return { screen: 'today', orderId: null, query };
  if (first === 'orders' && second) return { screen: 'orders', orderId: second, query };
  if (first === 'account') return { screen: 'account', orderId: null, query };
  const s = SCREENS.find((x) => x.id === first);
  return { screen: s ? s.id : 'unknown', orderId: null, query };
}

export type ThemeChoice = 'system' | 'light' | 'dark';
const THEME_KEY = 'cp-dashboard-theme';
function savedTheme(): ThemeChoice {
  try {
    const t = localStorage.getItem(THEME_KEY);
    return t === 'light' || t === 'dark' ? t : 'system';
  } catch {
    return 'system';
  }
}
export function applyTheme(t: ThemeChoice): void {
  const dark = t === 'dark' || (t === 'system' && window.matchMedia('(prefers-color-scheme: dark)').matches);
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
}

/** 'paused': the Hub closed the feed with a reason (another stream of this session took its place): it resumes when asked, or when this tab is looked at again. */
export type LiveStatus = 'connecting' | 'live' | 'reconnecting' | 'paused' | 'off';
interface LiveItem extends OrderRow {
  /** When this browser heard of the change. */
  seenAt: number;
}
const LIVE_KEEP = 200;

interface DashState {
  session: SessionView | null;
  /** Checking the cookie at start. */
  checking: boolean;
  /** Why we are on the login screen ("your session ended"). */
  loggedOutReason: string | null;
  route: Route;
  theme: ThemeChoice;
  live: { status: LiveStatus; items: LiveItem[]; changes: number; reason?: string };

  start(): Promise<void>;
  signedIn(s: SessionView): void;
  logout(everywhere: boolean): Promise<number>;
  navigate(path: string, replace?: boolean): void;
  setQuery(q: URLSearchParams, replace?: boolean): void;
  syncFromLocation(): void;
  setTheme(t: ThemeChoice): void;
  /** Follow the live feed again after the Hub paused it. */
  resumeLive(): void;
}

let source: EventSource | null = null;
/** The Hub's last `closed` reason: a refusal (401) soon after it is explained by it. */
let closedWith: { reason: string; at: number } | null = null;

export const useDash = create<DashState>((set, get) => {
  function openLive(): void {
    closeLive();
    const s = get().session;
    if (!s) return;
    const branch = s.manager.role === 'head-office' ? get().route.query.get('branch') : null;
    set((st) => ({ live: { ...st.live, status: 'connecting', reason: undefined } }));
    const es = new EventSource(apiUrl('/live', branch ? new URLSearchParams({ branch }) : undefined));
    source = es;
    es.addEventListener('open', () => set((st) => ({ live: { ...st.live, status: 'live' } })));
    es.addEventListener('order', (ev) => {
      const parsed = OrderRowSchema.safeParse(JSON.parse((ev as MessageEvent<string>).data));
      if (!parsed.success) return;
      const item: LiveItem = { ...parsed.data, seenAt: Date.now() };
      set((st) => ({
        live: {
          ...st.live,
          changes: st.live.changes + 1,
          items: [item, ...st.live.items.filter((x) => x.id !== item.id)].slice(0, LIVE_KEEP),
        },
      }));
    });
    // The Hub ends a stream with its reason: the session ended (disabled, removed, new password, ended
    // by head office) → the login screen says why; otherwise (a newer stream of this session took its
    // place) → paused with the reason, resumed when asked or when this tab is looked at again.
    es.addEventListener('closed', (ev) => {
      if (source !== es) return;
      closeLive();
      const reason = closedReason((ev as MessageEvent<string>).data);
      closedWith = { reason, at: Date.now() };
      set((st) => ({ live: { ...st.live, status: 'paused', reason } }));
      void api.get('/session', SessionViewSchema, undefined, true).then(
        () => undefined,
        (e: unknown) => {
          if (e instanceof ApiError && e.status === 401 && get().session) ended(reason);
        },
      );
    });
    es.addEventListener('error', () => {
      if (source !== es) return;
      set((st) => ({ live: { ...st.live, status: 'reconnecting' } }));
      // A refusal (session over) closes the stream for good: find out whether we are still logged in.
      if (es.readyState === EventSource.CLOSED) {
        void api.get('/session', SessionViewSchema).then(
          () => setTimeout(() => source === es && openLive(), 2000),
          () => undefined,
        );
      }
    });
  }
  function closeLive(): void {
    source?.close();
    source = null;
  }
  function ended(reason: string | null): void {
    closeLive();
    useCsrf(null);
    set({ session: null, loggedOutReason: reason, live: { status: 'off', items: [], changes: 0 } });
  }
  const resumeWhenSeen = () => {
    if (document.visibilityState === 'visible' && get().session && get().live.status === 'paused') openLive();
  };
  document.addEventListener('visibilitychange', resumeWhenSeen);
  window.addEventListener('focus', resumeWhenSeen);
  whenLoggedOut(() => {
    const why =
      closedWith && Date.now() - closedWith.at < 30_000
        ? closedWith.reason
        : 'Your session has ended (logged out elsewhere, or unused for a while). Log in again.';
    if (get().session) ended(why);
  });

  return {
    session: null,
    checking: true,
    loggedOutReason: null,
    route: parseRoute(location.pathname, location.search),
    theme: savedTheme(),
    live: { status: 'off', items: [], changes: 0 },

    async start() {
      // A setup link carries its token in the fragment; it is never sent to the Hub or logged.
      if (/^#setup=/.test(location.hash)) {
        set({ checking: false });
        return;
      }
      try {
        get().signedIn(await api.get('/session', SessionViewSchema, undefined, true));
      } catch (e) {
        set({
          session: null,
          loggedOutReason: e instanceof ApiError && e.status === 401 ? null : (e as Error).message,
        });
      } finally {
        set({ checking: false });
      }
    },

    signedIn(s) {
      closedWith = null;
      useCsrf(s.csrfToken);
      set({ session: s, loggedOutReason: null });
      openLive();
    },

    async logout(everywhere) {
      let n = 0;
      try {
        n = (await api.post(everywhere ? '/logout-everywhere' : '/logout', LogoutResponseSchema)).sessionsEnded;
      } finally {
        ended(everywhere ? `Logged out on every device (${n} session${n === 1 ? '' : 's'} ended).` : 'Logged out.');
      }
      return n;
    },

    navigate(path, replace = false) {
      const url = new URL(path, location.origin + BASE);
      const before = get().route.query.get('branch');
      if (replace) history.replaceState(null, '', url.pathname + url.search);
      else history.pushState(null, '', url.pathname + url.search);
      set({ route: parseRoute(url.pathname, url.search) });
      if (before !== get().route.query.get('branch')) openLive();
      window.scrollTo(0, 0);
    },

    setQuery(q, replace = false) {
      const qs = q.toString();
      get().navigate(location.pathname + (qs ? `?${qs}` : ''), replace);
    },

    syncFromLocation() {
      const before = get().route.query.get('branch');
      set({ route: parseRoute(location.pathname, location.search) });
      if (before !== get().route.query.get('branch')) openLive();
    },

    resumeLive() {
      if (get().session) openLive();
    },

    setTheme(t) {
      try {
        localStorage.setItem(THEME_KEY, t);
      } catch {}
      applyTheme(t);
      set({ theme: t });
    },
  };
});

/** The branch the page is narrowed to (head office's choice in the URL; a branch manager's own branch). */
export function currentBranch(s: Pick<DashState, 'session' | 'route'>): string | null {
  if (!s.session) return null;
  return s.session.manager.role === 'branch' ? s.session.manager.branch : s.route.query.get('branch');
}

/** Query parameters every read carries: the chosen branch, for head office. */
export function branchQuery(
  s: Pick<DashState, 'session' | 'route'>,
  extra: Record<string, string | null | undefined> = {},
): URLSearchParams {
  const q = new URLSearchParams();
  if (s.session?.manager.role === 'head-office') {
    const b = s.route.query.get('branch');
    if (b) q.set('branch', b);
  }
  for (const [k, v] of Object.entries(extra)) if (v) q.set(k, v);
  return q;
}

export const Empty = z.object({}).passthrough();
