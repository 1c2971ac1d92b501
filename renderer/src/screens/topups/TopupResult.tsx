// A single top-up after Pay: its state in big words (followed live until final), what to tell the
// customer, the provider's reason on FAIL, the reference to quote, and the next step.
import { useEffect, useRef } from 'react';
import { useShallow } from 'zustand/react/shallow';
import {
  isFinalTopupState,
  localPhone,
  networkName,
  TOPUP_STATE_LABELS,
  type TopupView,
} from '../../../../shared/topups';
import { useTopups } from '../../stores/topups-store';
import { TOPUP_SYMBOL, TOPUP_TONE, TopupStatePill } from './TopupStatePill';
import { formatLagosDateTime, formatNaira } from '../../format';
import { Banner } from '../../components/Banner';

export function recipientText(v: TopupView): string {
  if (v.serviceType === 'airtime') return `${networkName(v.provider)} ${localPhone(v.customerId)}`;
  return `${v.provider} ${v.customerId}${v.customerName ? ` · ${v.customerName}` : ''}`;
}

function sayLine(v: TopupView): string {
  const what = `${formatNaira(v.amountKobo)} ${v.serviceType === 'airtime' ? `${networkName(v.provider)} airtime` : `to the ${v.provider} wallet`}`;
  switch (v.state) {
    case 'success':
      return v.serviceType === 'airtime'
        ? `${what} sent to ${localPhone(v.customerId)}.`
        : `${what} of ${v.customerName ?? v.customerId} is done.`;
    case 'fail':
      return 'The top-up did not go through. Nothing reached the customer.';
    case 'not_sent':
      return 'The top-up was not sent. Nothing reached the customer.';
    case 'unknown':
      return 'We are confirming the top-up with the provider. Do not pay again: this takes a moment.';
    default:
      return 'One moment please: the top-up is on its way.';
  }
}

export function TopupResult() {
  const s = useTopups(
    useShallow((st) => ({
      v: st.current,
      newTopup: st.newTopup,
      checkNow: st.checkNow,
      checkBusy: st.checkBusy,
      message: st.message,
    })),
  );
  const heading = useRef<HTMLHeadingElement>(null);
  const next = useRef<HTMLButtonElement>(null);
  const v = s.v;
  const final = v ? isFinalTopupState(v.state) : false;

  useEffect(() => {
    if (final) next.current?.focus();
    else heading.current?.focus();
  }, [final]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && !e.defaultPrevented) {
        e.preventDefault();
        s.newTopup();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [s]);

  if (!v) return null;
  const tone = TOPUP_TONE[v.state];
  return (
    <section className="tu-result" data-tone={tone} aria-labelledby="tu-result-title">
      <div className="status-head status-head-2" data-tone={tone} role="status" aria-live="polite">
        <span className="status-ring" aria-hidden="true" data-spin={final ? undefined : 'true'}>
          {TOPUP_SYMBOL[v.state]}
        </span>
        <div>
          <h2 id="tu-result-title" ref={heading} tabIndex={-1}>
            {TOPUP_STATE_LABELS[v.state]}
          </h2>
          <p className="status-say">
            <span className="status-say-label">Tell the customer</span>
            {sayLine(v)}
          </p>
        </div>
      </div>
      {(v.state === 'fail' || v.state === 'not_sent') && v.errorMsg && (
        <p className="tu-reason" data-tone="bad">
          {v.state === 'fail' ? 'The provider says: ' : ''}
          {v.errorMsg}
        </p>
      )}
      <dl className="tu-facts">
        <div className="tu-fact-amount">
          <dt>Amount</dt>
          <dd>{formatNaira(v.amountKobo)}</dd>
        </div>
        <div>
          <dt>{v.serviceType === 'airtime' ? 'Phone' : 'Customer'}</dt>
          <dd>{recipientText(v)}</dd>
        </div>
        <div className="tu-fact-ref">
          <dt>Reference</dt>
          <dd>{v.reference}</dd>
        </div>
        <div>
          <dt>Provider order number</dt>
          <dd>{v.orderNo ?? '—'}</dd>
        </div>
        <div>
          <dt>Time</dt>
          <dd>{formatLagosDateTime(v.createdAt)}</dd>
        </div>
      </dl>
      {s.message && (
        <Banner tone="bad" role="alert">
          {s.message}
        </Banner>
      )}
      <div className="actions">
        <button type="button" className="primary" ref={next} onClick={s.newTopup}>
          New top-up <kbd aria-hidden="true">Esc</kbd>
        </button>
        {!final && (
          <button type="button" onClick={() => void s.checkNow()} disabled={s.checkBusy || v.state === 'sending'}>
            {s.checkBusy ? 'Checking…' : 'Check now'}
          </button>
        )}
      </div>
    </section>
  );
}

export function RecentTopups() {
  const s = useTopups(useShallow((st) => ({ recent: st.recent, show: st.show, current: st.current })));
  return (
    <section className="card tu-recent" aria-labelledby="tu-recent-title">
      <h2 id="tu-recent-title">Today's top-ups</h2>
      {s.recent.length === 0 ? (
        <p className="hint">None yet today.</p>
      ) : (
        <ul>
          {s.recent.map((v) => (
            <li key={v.id}>
              <button
                type="button"
                className="tu-recent-item"
                aria-current={s.current?.id === v.id ? 'true' : undefined}
                onClick={() => s.show(v)}
              >
                <span className="tu-recent-line">
                  <strong>{formatNaira(v.amountKobo)}</strong>
                  <TopupStatePill state={v.state} />
                </span>
                <span className="tu-recent-who">{recipientText(v)}</span>
                <span className="tu-recent-ref">{v.reference}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
