// Small pieces every screen uses: the state pill (as in the counter app), a message banner, a link
// that moves inside the app without reloading, a screen's heading.
import { useEffect, useRef, type ReactNode } from 'react';
import { statePill, type Tone } from '../format';
import { useDash } from '../store';

/** A practice sale's word, as the counter names its profile: Demo (or Sandbox). */
export function practiceWord(profile: string | null | undefined): 'Demo' | 'Sandbox' {
  return profile === 'sandbox' ? 'Sandbox' : 'Demo';
}

export function StatePill({
  state,
  practice,
  profile,
}: {
  state: string;
  practice?: boolean;
  profile?: string | null;
}) {
  const p = statePill(state);
  return (
    <span className="pill-row">
      <span className="pill state-pill" data-tone={p.tone} data-state={state}>
        <span aria-hidden="true" className="state-symbol">
          {p.symbol}
        </span>
        {p.label}
      </span>
      {practice ? (
        <span
          className="pill practice-pill"
          title={`A ${practiceWord(profile)} sale: no real money, never in the card total`}
        >
          {practiceWord(profile)}
        </span>
      ) : null}
    </span>
  );
}

export function Banner({ tone, children, testId }: { tone: Tone; children: ReactNode; testId?: string }) {
  return (
    <div className="banner" data-tone={tone} role={tone === 'bad' ? 'alert' : 'status'} data-testid={testId}>
      {children}
    </div>
  );
}

/** An <a> with a real href (open in a new tab works) that navigates inside the app on a plain click. */
export function Link(props: {
  to: string;
  children: ReactNode;
  className?: string;
  'aria-label'?: string;
  'aria-current'?: 'page';
}) {
  const navigate = useDash((s) => s.navigate);
  return (
    <a
      href={props.to}
      className={props.className}
      aria-label={props['aria-label']}
      aria-current={props['aria-current']}
      onClick={(e) => {
        if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
        e.preventDefault();
        navigate(props.to);
      }}
    >
      {props.children}
    </a>
  );
}

/** The screen's title; focused when the screen opens so a keyboard or screen-reader user starts there. */
export function ScreenTitle({ children, aside }: { children: ReactNode; aside?: ReactNode }) {
  const h = useRef<HTMLHeadingElement>(null);
  useEffect(() => h.current?.focus({ preventScroll: true }), []);
  return (
    <div className="screen-head">
      <h1 tabIndex={-1} ref={h}>
        {children}
      </h1>
      {aside ? <div className="screen-head-aside">{aside}</div> : null}
    </div>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p className="hint" role="status">
      Loading {what}…
    </p>
  );
}
