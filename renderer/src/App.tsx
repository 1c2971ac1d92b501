// The app frame: navigation, the current screen, the status bar. Alt+1..6 switch screens.
import { useEffect } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { ConnectionBanner } from './components/ConnectionBanner';
import { RecoveryBanner } from './components/RecoveryBanner';
import { LatePaymentAlert } from './components/LatePaymentAlert';
import { StatusBar } from './components/StatusBar';
import { ThemeSwitch } from './components/ThemeSwitch';
import { DeskScreen } from './screens/DeskScreen';
import { OrdersScreen } from './screens/OrdersScreen';
import { SellScreen } from './screens/SellScreen';
import { SettingsScreen } from './screens/SettingsScreen';
import { ShiftScreen } from './screens/ShiftScreen';
import { TopupsScreen } from './screens/TopupsScreen';
import { SCREENS, useApp, type ScreenId } from './stores/app-store';

const VIEWS: Record<ScreenId, () => React.JSX.Element> = {
  sell: SellScreen,
  topups: TopupsScreen,
  orders: OrdersScreen,
  shift: ShiftScreen,
  settings: SettingsScreen,
  desk: DeskScreen,
};

export function App() {
  const { screen, go, fatal } = useApp(useShallow((s) => ({ screen: s.screen, go: s.go, fatal: s.fatal })));

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!e.altKey || e.ctrlKey || e.metaKey) return;
      const target = SCREENS.find((s) => s.key === e.key);
      if (target) {
        e.preventDefault();
        go(target.id);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [go]);

  // On a screen change the focus goes to the screen's first task field when it has one
  // (data-autofocus), else to its heading, so keyboard and screen-reader users start in the right place.
  useEffect(() => {
    const target =
      document.querySelector<HTMLElement>('main [data-autofocus]') ?? document.querySelector<HTMLElement>('main h1');
    target?.focus();
  }, [screen]);

  if (fatal) {
    return (
      <div className="fatal" role="alert">
        <h1>CounterPay cannot start this page</h1>
        <p>{fatal}</p>
      </div>
    );
  }

  const View = VIEWS[screen];
  return (
    <div className="frame">
      <header className="topbar">
        <div className="brand" aria-label="CounterPay">
          <span className="brand-mark" aria-hidden="true">
            ₦
          </span>{' '}
          CounterPay
        </div>
        <nav aria-label="Screens">
          <ul className="nav">
            {SCREENS.map((s) => (
              <li key={s.id}>
                <button
                  type="button"
                  className="nav-item"
                  aria-current={screen === s.id ? 'page' : undefined}
                  onClick={() => go(s.id)}
                  title={`Alt+${s.key}`}
                >
                  {s.label}
                  <kbd aria-hidden="true">Alt+{s.key}</kbd>
                </button>
              </li>
            ))}
          </ul>
        </nav>
        <ThemeSwitch />
      </header>
      <main className="content" id="main">
        <ConnectionBanner />
        <RecoveryBanner />
        <LatePaymentAlert />
        <View />
      </main>
      <StatusBar />
    </div>
  );
}
