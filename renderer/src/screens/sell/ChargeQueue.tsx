// Beside the terminal on the Sell screen: the box offices' charges waiting for it — who asked, the
// amount, how long each has waited — and a Cancel for each. The cashier's own sale goes ahead of
// them; a cancelled one never reaches the terminal, and its box office is told.
import { useEffect } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { formatNaira, elapsedText } from '../../format';
import { useApp } from '../../stores/app-store';
import { useChargeQueue } from '../../stores/charge-queue-store';
import { useNow } from '../../components/useNow';
import { Banner } from '../../components/Banner';
import '../../charge-queue.css';

/** "40 s", then "3 min", "1 h 05 min". */
const waited = (from: number, now: number) =>
  now - from < 60_000 ? `${Math.max(0, Math.floor((now - from) / 1000))} s` : elapsedText(from, now);

export function ChargeQueue() {
  const q = useChargeQueue(
    useShallow((s) => ({ queue: s.queue, cancelling: s.cancelling, error: s.error, load: s.load, cancel: s.cancel })),
  );
  const profile = useApp((a) => a.status?.profile);
  const { load } = q;
  useEffect(() => {
    void load();
  }, [load, profile]);
  const now = useNow(q.queue.length > 0);
  if (q.queue.length === 0 && !q.error) return null;
  return (
    <section className="card charge-queue" aria-labelledby="charge-queue-title" data-testid="charge-queue">
      <h2 id="charge-queue-title">
        Box-office charges waiting <span className="count">{q.queue.length}</span>
      </h2>
      <p className="hint">Your own sales go first. Cancel one to keep it off the terminal: its box office is told.</p>
      {q.error && (
        <Banner as="div" tone="bad" role="alert">
          {q.error}
        </Banner>
      )}
      <ol className="charge-queue-list">
        {q.queue.map((c) => (
          <li key={c.orderId} data-testid="queued-charge">
            <div className="charge-queue-what">
              <div>
                <strong className="nowrap">{formatNaira(c.amountKobo)}</strong> <span>{c.integration}</span>
              </div>
              <div className="hint">
                <span className="mono">{c.reference}</span> · <span className="nowrap">{waited(c.queuedAt, now)}</span>
              </div>
            </div>
            <button
              type="button"
              className="danger"
              disabled={q.cancelling !== null}
              onClick={() => void q.cancel(c.orderId)}
              aria-label={`Cancel ${formatNaira(c.amountKobo)} from ${c.integration}, booking ${c.reference}`}
            >
              {q.cancelling === c.orderId ? 'Cancelling…' : 'Cancel'}
            </button>
          </li>
        ))}
      </ol>
    </section>
  );
}
