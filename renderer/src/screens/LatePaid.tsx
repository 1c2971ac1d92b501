// A sale the provider paid after the counter closed it, on the Sell panel and the order detail: a
// paid sale — what was taken, when (lateAt) and its payment number — and how the cashier settles
// it: Tickets given, or Customer gone: refund to be arranged (with who). The receipt to print is
// the parent's ReceiptPanel (a paid ticket receipt marked "Paid after closing").
import { useState } from 'react';
import { HANDLED_HOW_LABELS, lateOutcomeText, type HandledHow, type LateOutcome } from '../../../shared/late-payments';
import { StatePill } from '../components/StatePill';
import { Banner } from '../components/Banner';
import { useLate } from '../stores/late-store';
import { useShift } from '../stores/shift-store';
import { formatLagosTime } from '../format';
import { latePaidFacts, PAID_AFTER_CLOSING } from './closed-order';

/** "✓ Paid after closing" beside the order's own (closed) state. */
export function PaidAfterClosingPill() {
  return <StatePill tone="good" symbol="✓" label={PAID_AFTER_CLOSING} state="paid-after-closing" />;
}

export function LatePaid({ orderId, late, testId }: { orderId: number; late: LateOutcome; testId: string }) {
  const busy = useLate((s) => s.busy);
  const markHandled = useLate((s) => s.markHandled);
  const cashier = useShift((s) => s.current?.cashier ?? '');
  const [by, setBy] = useState<string | null>(null);
  const [missing, setMissing] = useState(false);
  const name = by ?? cashier;
  const handle = (how: HandledHow) => {
    if (name.trim() === '') return setMissing(true);
    void markHandled(orderId, how, name.trim());
  };
  const nameId = `late-paid-by-${orderId}`;
  return (
    <div className="late-paid" data-testid={testId}>
      <Banner tone={late.handled ? 'info' : 'bad'} role={late.handled ? 'status' : 'alert'}>
        {lateOutcomeText(late)}
        {late.handled &&
          ` Handled: ${HANDLED_HOW_LABELS[late.handled.how]} (by ${late.handled.by}, ${formatLagosTime(late.handled.at)}).`}
      </Banner>
      <dl className="pay-facts late-paid-facts">
        {latePaidFacts(late)
          .filter(([, v]) => v !== undefined && v !== '')
          .map(([k, v]) => (
            <div key={k}>
              <dt>{k}</dt>
              <dd
                data-testid={k === 'Payment number' ? `${testId}-payno` : k === 'Paid at' ? `${testId}-at` : undefined}
              >
                {v}
              </dd>
            </div>
          ))}
      </dl>
      {!late.handled && (
        <div className="late-actions">
          <label htmlFor={nameId}>Your name</label>
          <input
            id={nameId}
            value={name}
            maxLength={80}
            onChange={(e) => (setBy(e.target.value), setMissing(false))}
            aria-invalid={missing}
            aria-describedby={missing ? `${nameId}-err` : undefined}
          />
          <button type="button" className="primary" disabled={busy !== null} onClick={() => handle('tickets-given')}>
            Tickets given
          </button>
          <button type="button" disabled={busy !== null} onClick={() => handle('refund')}>
            Customer gone: refund to be arranged
          </button>
          {missing && (
            <span id={`${nameId}-err`} className="field-error">
              Enter your name: who handled it
            </span>
          )}
        </div>
      )}
      <p className="hint">
        Customer still here? Give the tickets and print the receipt below, then press Tickets given. Never charge this
        sale again.
      </p>
    </div>
  );
}
