// "Provider's webhook delivery", asked on demand: a button, then the provider's answer in one line
// (HTTP 200 … / not delivered / not registered) or what went wrong and what to do. Used on an
// order's detail and in Settings → Webhook receiver (for the last paid order).
import { useState } from 'react';
import type { DeliveryCheck as Check, DeliveryOutcome } from '../../../shared/contract-delivery';
import { errorText } from '../stores/call-errors';
import { formatLagosDateTime } from '../format';
import { Banner } from './Banner';

const TONE: Record<DeliveryOutcome, 'good' | 'bad' | 'warn'> = {
  delivered: 'good',
  refused: 'bad',
  'not-delivered': 'warn',
  'not-registered': 'warn',
};

type Shown = { kind: 'idle' } | { kind: 'busy' } | { kind: 'done'; check: Check } | { kind: 'error'; text: string };

export function DeliveryCheck(props: {
  label: string;
  ask: () => Promise<Check>;
  showOrder?: boolean;
  testId: string;
}) {
  const [shown, setShown] = useState<Shown>({ kind: 'idle' });
  const run = async () => {
    setShown({ kind: 'busy' });
    try {
      setShown({ kind: 'done', check: await props.ask() });
    } catch (e) {
      setShown({ kind: 'error', text: errorText(e) });
    }
  };
  return (
    <div className="delivery-check" data-testid={props.testId}>
      <button type="button" onClick={() => void run()} disabled={shown.kind === 'busy'}>
        {shown.kind === 'busy' ? 'Asking the provider…' : props.label}
      </button>
      <div aria-live="polite">
        {shown.kind === 'done' && (
          <Banner as="div" tone={TONE[shown.check.outcome]} data-outcome={shown.check.outcome} role="status">
            <strong>Provider’s webhook delivery{props.showOrder ? ` (order ${shown.check.outOrderNo})` : ''}:</strong>{' '}
            {shown.check.summary}
            <span className="delivery-meta">
              {shown.check.receivedHereAt !== null
                ? `Our receiver recorded it at ${formatLagosDateTime(shown.check.receivedHereAt)}. `
                : 'Our receiver has no record of it. '}
              Asked at {formatLagosDateTime(shown.check.checkedAt)}.
            </span>
          </Banner>
        )}
        {shown.kind === 'error' && (
          <Banner tone="bad" role="alert">
            {shown.text}
          </Banner>
        )}
      </div>
    </div>
  );
}
