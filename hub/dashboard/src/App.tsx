// The dashboard's frame: login or setup when there is no session; otherwise the top bar (screens by
// Alt+1…8, the branch in view, theme, logout) and the screen the URL names.
import { useEffect, useMemo, useState, type ReactElement } from 'react';
import { useBranchLabel, useLoadBranchNames } from './branch-names';
import { AttentionViewSchema, CountersViewSchema } from '../../../shared/hub-dashboard-contract';
import { api } from './api';
import { Banner, Link } from './components/bits';
import { LivePaused } from './components/LivePaused';
import { ScreenBoundary } from './components/ScreenBoundary';
import { LoginScreen, SetupScreen } from './screens/Access';
import { AccountScreen } from './screens/Account';
import { AttentionScreen } from './screens/Attention';
import { AuditScreen } from './screens/Audit';
import { CountersScreen } from './screens/Counters';
import { LiveScreen } from './screens/Live';
import { ManagersScreen } from './screens/Managers';
import { OrdersScreen } from './screens/Orders';
import { ProgrammeScreen } from './screens/Programme';
import { ScreensScreen } from './screens/Screens';
import { ShiftsScreen } from './screens/Shifts';
import { ShowsScreen } from './screens/Shows';
import { TodayScreen } from './screens/Today';
import { CasesScreen } from './screens/Cases';
import { RefundsScreen } from './screens/Refunds';
import { BASE, currentBranch, screensFor, useDash, type ScreenId, type ThemeChoice } from './store';
import { useEvery, useLoad } from './use-load';

const NEXT_THEME: Record<ThemeChoice, ThemeChoice> = { system: 'dark', dark: 'light', light: 'system' };

function withBranch(path: string, branch: string | null): string {
  return branch ? `${path}?branch=${encodeURIComponent(branch)}` : path;
}

function BranchPicker() {
  const route = useDash((s) => s.route);
  const setQuery = useDash((s) => s.setQuery);
  const r = useLoad('branches', () => api.get('/counters', CountersViewSchema));
  const label = useBranchLabel();
  const branches = [...new Set((r.data?.counters ?? []).map((c) => c.branch))].sort();
  const chosen = route.query.get('branch') ?? '';
  if (chosen && !branches.includes(chosen)) branches.push(chosen);
  return (
    <label className="branch-picker">
      <span className="visually-hidden">Branch in view</span>
      <select
        aria-label="Branch in view"
        value={chosen}
        onChange={(e) => {
          const q = new URLSearchParams(route.query);
          if (e.target.value) q.set('branch', e.target.value);
          else q.delete('branch');
          q.delete('counterId');
          setQuery(q);
        }}
      >
        <option value="">All branches</option>
        {branches.map((b) => (
          <option key={b} value={b}>
            {label(b)}
          </option>
        ))}
      </select>
    </label>
  );
}

function AccountMenu() {
  const session = useDash((s) => s.session)!;
  const logout = useDash((s) => s.logout);
  const navigate = useDash((s) => s.navigate);
  const theme = useDash((s) => s.theme);
  const setTheme = useDash((s) => s.setTheme);
  const [open, setOpen] = useState(false);
  const m = session.manager;
  return (
    <div className="account">
      <button
        type="button"
        onClick={() => setTheme(NEXT_THEME[theme])}
        aria-label={`Theme: ${theme}. Change theme`}
        data-testid="theme-toggle"
      >
        Theme: {theme}
      </button>
      <button
        type="button"
        aria-expanded={open}
        aria-controls="account-menu"
        onClick={() => setOpen(!open)}
        data-testid="account-button"
      >
        {m.name} <span className="hint">· {m.role === 'head-office' ? 'head office' : `branch ${m.branch}`}</span>
      </button>
      {open ? (
        <div
          id="account-menu"
          className="menu card"
          role="group"
          aria-label="Account"
          onKeyDown={(e) => e.key === 'Escape' && setOpen(false)}
        >
          <button type="button" autoFocus onClick={() => void logout(false)}>
            Log out
          </button>
          <button type="button" onClick={() => void logout(true)}>
            Log out everywhere
          </button>
          <p className="hint">“Everywhere” ends this manager's sessions on every computer and phone.</p>
          <button
            type="button"
            onClick={() => {
              setOpen(false);
              navigate(`${BASE}account`);
            }}
          >
            Change my password
          </button>
        </div>
      ) : null}
    </div>
  );
}

function Frame() {
  const session = useDash((s) => s.session)!;
  const route = useDash((s) => s.route);
  const navigate = useDash((s) => s.navigate);
  const branch = useDash((s) => (s.session?.manager.role === 'head-office' ? currentBranch(s) : null));
  const attention = useLoad(`nav-attention?${branch ?? ''}`, () =>
    api.get('/attention', AttentionViewSchema, branch ? new URLSearchParams({ branch }) : undefined),
  );
  useEvery(60_000, attention.reload);
  const headOffice = session.manager.role === 'head-office';
  const role = session.manager.role;
  const screens = useMemo(() => screensFor(role), [role]);
  useLoadBranchNames(session.manager.id);
  const label = useBranchLabel();

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!e.altKey || e.ctrlKey || e.metaKey) return;
      const i = e.key === '0' ? 9 : Number(e.key) - 1;
      const s = screens[i];
      if (!s || 'noKey' in s) return;
      e.preventDefault();
      navigate(withBranch(`${BASE}${s.id}`, branch));
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [navigate, branch, screens]);

  const n = attention.data?.lines.length ?? 0;
  const screen: Record<ScreenId, ReactElement> = {
    today: <TodayScreen />,
    live: <LiveScreen />,
    attention: <AttentionScreen />,
    shifts: <ShiftsScreen />,
    orders: <OrdersScreen />,
    counters: <CountersScreen />,
    shows: <ShowsScreen />,
    programme: <ProgrammeScreen />,
    screens: <ScreensScreen />,
    managers: <ManagersScreen />,
    audit: <AuditScreen />,
    refunds: <RefundsScreen />,
    cases: <CasesScreen />,
  };
  const shown =
    route.screen === 'account'
      ? { id: 'account', label: 'My account', el: <AccountScreen /> }
      : route.screen === 'unknown'
        ? null
        : {
            id: route.screen,
            label: screens.find((x) => x.id === route.screen)?.label ?? route.screen,
            el: screen[route.screen],
          };
  return (
    <div className="frame">
      <a className="skip-link" href="#main">
        Skip to the screen
      </a>
      <header className="topbar">
        <span className="brand">
          <span className="brand-mark" aria-hidden="true">
            ₦
          </span>
          CounterPay Hub
        </span>
        <nav aria-label="Pages">
          <ul className="nav">
            {screens.map((s, i) => (
              <li key={s.id}>
                <Link
                  to={withBranch(`${BASE}${s.id}`, branch)}
                  className="nav-item"
                  aria-current={route.screen === s.id ? 'page' : undefined}
                >
                  {s.label}
                  {s.id === 'attention' && n > 0 ? (
                    <span className="badge" aria-label={`, ${n} to handle`}>
                      {n}
                    </span>
                  ) : null}
                  {i < 10 && !('noKey' in s) ? (
                    <kbd aria-hidden="true" title={`Alt+${(i + 1) % 10}`}>
                      <span className="kbd-alt">Alt+</span>
                      {(i + 1) % 10}
                    </kbd>
                  ) : null}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="topbar-end">
          {headOffice ? (
            <BranchPicker />
          ) : (
            <span className="pill" data-testid="my-branch">
              {label(session.manager.branch ?? '')}
            </span>
          )}
          <AccountMenu />
        </div>
      </header>
      <main id="main" className="content">
        <LivePaused />
        {shown === null ? (
          <section className="screen">
            <h1>No such screen</h1>
            <Banner tone="info">
              This address is not a screen of the dashboard. <Link to={`${BASE}today`}>Go to Today</Link>.
            </Banner>
          </section>
        ) : (
          <ScreenBoundary key={shown.id} screen={shown.label}>
            {shown.el}
          </ScreenBoundary>
        )}
      </main>
    </div>
  );
}

export function App() {
  const session = useDash((s) => s.session);
  const checking = useDash((s) => s.checking);
  if (checking)
    return (
      <p className="hint access" role="status">
        Opening the dashboard…
      </p>
    );
  if (!session && /^#setup=/.test(location.hash)) return <SetupScreen />;
  if (!session) return <LoginScreen />;
  return <Frame />;
}
