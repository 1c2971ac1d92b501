// "Debited, but the screen said failed": a payment the provider took after the counter closed the
// order, shown on every screen until someone marks it handled — tickets given, or the customer is
// gone and a refund is to be arranged — with who did it.
import { useEffect, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { lateOutcomeText, type HandledHow, type LateItem } from '../../../shared/late-payments';
import { useLate } from '../stores/late-store';
import { Banner } from './Banner';

function LateRow({ item }: { item: LateItem }) {
  const { busy, markHandled } = useLate(useShallow((s) => ({ busy: s.busy, markHandled: s.markHandled })));
  const [by, setBy] = useState('');
  const [missing, setMissing] = useState(false);
  const handle = (how: HandledHow) => {
    if (by.trim() === '') return setMissing(true);
    void markHandled(item.orderId, how, by.trim()).then((done) => {
      // The alert row is gone with its buttons: the cursor goes back to the screen's first box (the next sale on Sell).
      if (done) requestAnimationFrame(() => document.querySelector<HTMLElement>('main [data-autofocus]')?.focus());
    });
  };
  const nameId = `late-by-${item.orderId}`;
  return (
    <li className="late-item" data-testid="late-item" data-order={item.outOrderNo}>
      <p>
        <strong>{item.outOrderNo}</strong> · {item.filmTitle}
      </p>
      <p>{lateOutcomeText(item.late)}</p>
      {item.late.kind === 'paid-after-closing' && (
        <div className="late-actions">
          <label htmlFor={nameId}>Your name</label>
          <input
            id={nameId}
            value={by}
            maxLength={80}
            onChange={(e) => (setBy(e.target.value), setMissing(false))}
            aria-invalid={missing}
            aria-describedby={missing ? `${nameId}-err` : undefined}
          />
          <button type="button" disabled={busy !== null} onClick={() => handle('tickets-given')}>
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
      {item.late.kind === 'reported-otherwise' && (
        <div className="late-actions">
          <label htmlFor={nameId}>Your name</label>
          <input id={nameId} value={by} maxLength={80} onChange={(e) => (setBy(e.target.value), setMissing(false))} />
          <button type="button" disabled={busy !== null} onClick={() => handle('refund')}>
            Seen: manager to check it
          </button>
        </div>
      )}
    </li>
  );
}

export function LatePaymentAlert() {
  const { list, message, load } = useLate(useShallow((s) => ({ list: s.list, message: s.message, load: s.load })));
  useEffect(() => {
    void load();
  }, [load]);
  const open = list?.items.filter((i) => i.late.handled === null) ?? [];
  if (open.length === 0) return null;
  return (
    <Banner
      as="section"
      tone="bad"
      role="alert"
      className="late-alert"
      aria-label="Paid after closing"
      data-testid="late-alert"
    >
      <h2>
        {open.length === 1
          ? 'A customer was debited after the sale was closed'
          : `${open.length} customers were debited after their sales were closed`}
      </h2>
      <ul>
        {open.map((i) => (
          <LateRow key={i.orderId} item={i} />
        ))}
      </ul>
      {message?.kind === 'error' && <p className="field-error">{message.text}</p>}
    </Banner>
  );
}

/** The status bar's count of payments after closing not yet handled. */
export function LateCountPill() {
  const n = useLate((s) => s.list?.unhandled ?? 0);
  if (n === 0) return null;
  return (
    <span
      className="pill"
      data-tone="bad"
      role="status"
      data-testid="late-pill"
      title="Customers debited after their sale was closed: see the alert at the top"
    >
      Paid after closing: {n}
    </span>
  );
}
