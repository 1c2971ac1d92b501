// The top of every screen: its title (focused when the screen opens, for screen readers and the
// keyboard), the screen's own actions on the right, and why its data could not be loaded, if so.
import type { ReactNode } from 'react';
import { Banner } from './Banner';

export function ScreenHead({
  title,
  loadError,
  children,
}: {
  title: string;
  loadError?: string | null;
  children?: ReactNode;
}) {
  return (
    <>
      <div className="screen-head">
        <h1 id="screen-title" tabIndex={-1}>
          {title}
        </h1>
        {children}
      </div>
      {loadError && (
        <Banner tone="bad" role="alert">
          {loadError}
        </Banner>
      )}
    </>
  );
}
