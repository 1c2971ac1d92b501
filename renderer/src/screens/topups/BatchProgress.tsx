// A batch being sent or finished: progress (sent, final), counts per state, why it waits or is
// paused, stop / resume, the results page by page as they arrive, and the results file.
import { useShallow } from 'zustand/react/shallow';
import {
  BATCH_STATE_LABELS,
  TOPUP_STATE_LABELS,
  type BatchItemFilter,
  type BatchView,
  type TopupState,
  type TopupView,
} from '../../../../shared/topups';
import { Field } from '../../components/Field';
import { PAGE_SIZE, useBatch } from '../../stores/batch-store';
import { recipientText } from './TopupResult';
import { TOPUP_TONE, TopupStatePill } from './TopupStatePill';
import { formatCount, formatNaira } from '../../format';
import { Banner } from '../../components/Banner';

const SHOWN: TopupState[] = ['success', 'fail', 'pending', 'unknown', 'sending', 'queued', 'not_sent', 'cancelled'];
const FILTERS: { id: BatchItemFilter; label: string }[] = [
  { id: 'all', label: 'All' },
  { id: 'failed', label: 'Failed or not sent' },
  { id: 'open', label: 'Not final yet' },
  { id: 'success', label: 'Successful' },
];

export function BatchProgress({ b }: { b: BatchView }) {
  const s = useBatch(
    useShallow((st) => ({
      busy: st.busy,
      items: st.items,
      total: st.itemsTotal,
      filter: st.filter,
      page: st.page,
      chunkSize: st.chunkSize,
      chunkError: st.chunkError,
      setFilter: st.setFilter,
      setPage: st.setPage,
      cancel: st.cancel,
      resume: st.resume,
      exportResults: st.exportResults,
      setChunkSize: st.setChunkSize,
    })),
  );
  const pages = Math.max(1, Math.ceil(s.total / PAGE_SIZE));
  const tone =
    b.state === 'done'
      ? b.counts.fail + b.counts.not_sent > 0
        ? 'warn'
        : 'good'
      : b.state === 'paused'
        ? 'warn'
        : 'info';
  return (
    <section className="card tu-run" data-tone={tone} aria-labelledby="tu-run-title">
      <div className="tu-run-head">
        <h2 id="tu-run-title">
          {b.fileName}: {BATCH_STATE_LABELS[b.state]}
        </h2>
        <span className="hint">
          {formatCount(b.items)} top-ups · {formatNaira(b.totalKobo)}
          {b.badRows > 0
            ? ` · ${formatCount(b.badRows)} row${b.badRows === 1 ? '' : 's'} of the file refused before sending (in the results file)`
            : ''}
        </span>
      </div>
      <div className="tu-bars">
        <label>
          <span>
            Sent <strong>{formatCount(b.sent)}</strong> of {formatCount(b.items)}
          </span>
          <progress max={b.items || 1} value={b.sent} />
        </label>
        <label>
          <span>
            Final <strong>{formatCount(b.finished)}</strong> of {formatCount(b.items)}
          </span>
          <progress max={b.items || 1} value={b.finished} />
        </label>
      </div>
      <ul className="tu-counts" aria-label="Top-ups by state">
        {SHOWN.filter((st) => b.counts[st] > 0 || st === 'success' || st === 'fail').map((st) => (
          <li key={st} className="pill" data-tone={TOPUP_TONE[st]}>
            {TOPUP_STATE_LABELS[st]} <strong>{formatCount(b.counts[st])}</strong>
          </li>
        ))}
        <li className="pill" data-tone="good">
          Topped up <strong>{formatNaira(b.successKobo)}</strong>
        </li>
      </ul>
      {b.notice && (
        <Banner tone={b.state === 'paused' ? 'bad' : 'warn'} role="status">
          {b.notice}
        </Banner>
      )}
      <div className="actions tu-run-actions">
        {b.state === 'running' && (
          <button type="button" onClick={() => void s.cancel()} disabled={s.busy || b.counts.queued === 0}>
            Stop sending (cancel the ones not sent yet)
          </button>
        )}
        {b.state === 'paused' && b.counts.queued > 0 && (
          <>
            <Field label="Top-ups per request" error={s.chunkError ?? undefined}>
              {(id, d) => (
                <input
                  id={id}
                  aria-describedby={d}
                  inputMode="numeric"
                  className="tu-chunk"
                  value={s.chunkSize}
                  onChange={(e) => s.setChunkSize(e.target.value)}
                />
              )}
            </Field>
            <button type="button" className="primary" onClick={() => void s.resume()} disabled={s.busy}>
              Resume sending {formatCount(b.counts.queued)}
            </button>
          </>
        )}
        <button type="button" onClick={() => void s.exportResults()} disabled={s.busy}>
          Export results (CSV)
        </button>
      </div>

      <div className="segmented tu-filter" role="group" aria-label="Show">
        {FILTERS.map((f) => (
          <button key={f.id} type="button" aria-pressed={s.filter === f.id} onClick={() => void s.setFilter(f.id)}>
            {f.label}
          </button>
        ))}
      </div>
      <ResultsTable items={s.items} />
      {pages > 1 && (
        <div className="actions tu-pages">
          <button type="button" onClick={() => void s.setPage(s.page - 1)} disabled={s.page === 0}>
            Previous
          </button>
          <span>
            Page {s.page + 1} of {pages}
          </span>
          <button type="button" onClick={() => void s.setPage(s.page + 1)} disabled={s.page + 1 >= pages}>
            Next
          </button>
        </div>
      )}
    </section>
  );
}

/** The batch's items on this page, with each one's state and the provider's message. */
function ResultsTable({ items }: { items: TopupView[] }) {
  return (
    <div className="tu-table-wrap">
      <table className="tu-table" aria-label="Results">
        <thead>
          <tr>
            <th scope="col">Line</th>
            <th scope="col">Reference</th>
            <th scope="col">To</th>
            <th scope="col" className="tu-num">
              Amount
            </th>
            <th scope="col">Status</th>
            <th scope="col">Provider's message</th>
          </tr>
        </thead>
        <tbody>
          {items.map((i) => (
            <tr key={i.id} data-tone={TOPUP_TONE[i.state]}>
              <td className="tu-num">{i.line ?? '—'}</td>
              <td className="tu-mono">{i.reference}</td>
              <td>{recipientText(i)}</td>
              <td className="tu-num">{formatNaira(i.amountKobo)}</td>
              <td>
                <TopupStatePill state={i.state} />
              </td>
              <td>{i.errorMsg || (i.orderNo ? `Order ${i.orderNo}` : '')}</td>
            </tr>
          ))}
          {items.length === 0 && (
            <tr>
              <td colSpan={6} className="hint">
                Nothing to show here yet.
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
