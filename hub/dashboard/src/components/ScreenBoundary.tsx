// One screen's safety net: if a screen throws while drawing (say the Hub sent a value it cannot show),
// this says which screen failed and what to do, and the top bar and every other screen keep working.
// Keyed by screen in App.tsx, so moving to another screen and back starts afresh.
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { lagosDayTimeSeconds } from '../format';
import { Banner } from './bits';
import '../managers.css';

interface Props {
  screen: string;
  children: ReactNode;
}
interface State {
  error: string | null;
  at: number;
}

export class ScreenBoundary extends Component<Props, State> {
  override state: State = { error: null, at: 0 };

  static getDerivedStateFromError(e: unknown): State {
    const text = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    return { error: text.slice(0, 300), at: Date.now() };
  }

  override componentDidCatch(e: unknown, info: ErrorInfo): void {
    console.error(`dashboard: the ${this.props.screen} screen failed`, e, info.componentStack);
  }

  override render(): ReactNode {
    const { error, at } = this.state;
    if (error === null) return this.props.children;
    const screen = this.props.screen;
    return (
      <section
        className="screen"
        aria-labelledby="screen-failed-title"
        data-testid="screen-failed"
        data-screen={screen}
      >
        <div className="screen-head">
          <h1 id="screen-failed-title" tabIndex={-1}>
            The {screen} screen could not be shown
          </h1>
        </div>
        <Banner tone="bad">
          Something the Hub sent for the {screen} screen could not be shown. Nothing was changed, and the other screens
          still work: use the menu above.
        </Banner>
        <div className="card stack">
          <h2>What to do</h2>
          <ol className="boundary-steps">
            <li>Try again: the screen reads its data afresh.</li>
            <li>If it fails again, reload the page.</li>
            <li>If it still fails, tell IT what is written below (it names the screen, the time and the error).</li>
          </ol>
          <div className="actions">
            <button type="button" className="primary" onClick={() => this.setState({ error: null, at: 0 })}>
              Try again
            </button>
            <button type="button" onClick={() => location.reload()}>
              Reload the page
            </button>
          </div>
          <p className="hint" data-testid="screen-failed-details">
            For IT: the {screen} screen failed at {lagosDayTimeSeconds(at)} (Lagos) on{' '}
            <code>
              {location.pathname}
              {location.search}
            </code>{' '}
            with <code>{error}</code>.
          </p>
        </div>
      </section>
    );
  }
}
