// A message across the screen in one of the four tones of the theme. `role` says how a screen
// reader hears it: "alert" interrupts (something failed or needs action now), "status" is read
// when idle, none is plain text. Other attributes (data-testid, data-outcome) pass through.
import type { HTMLAttributes } from 'react';

type BannerTone = 'good' | 'bad' | 'warn' | 'info';

interface BannerProps extends HTMLAttributes<HTMLElement> {
  tone: BannerTone;
  role?: 'alert' | 'status';
  /** A paragraph for a sentence; a div when it holds blocks (lists, buttons in a row); a section with headings. */
  as?: 'p' | 'div' | 'section';
}

export function Banner({ tone, as: Tag = 'p', className, children, ...rest }: BannerProps) {
  return (
    <Tag className={className ? `banner ${className}` : 'banner'} data-tone={tone} {...rest}>
      {children}
    </Tag>
  );
}

/** The tone and role of an outcome: done is good news read when idle; failed is an alert. */
export function outcome(ok: boolean): { tone: BannerTone; role: 'alert' | 'status' } {
  return ok ? { tone: 'good', role: 'status' } : { tone: 'bad', role: 'alert' };
}
