// Print jobs in words: where each went, whether it printed, and why not (with Retry).
import { useShallow } from 'zustand/react/shallow';
import type { PrintJobView } from '../../../../shared/records';
import { useReceipts } from '../../stores/receipt-store';
import { formatLagosTime } from '../../format';
import '../../receipt-panel.css';

const STATUS: Record<PrintJobView['status'], { text: string; tone: string; symbol: string }> = {
  pending: { text: 'Waiting to print', tone: 'info', symbol: '…' },
  printing: { text: 'Printing', tone: 'info', symbol: '→' },
  printed: { text: 'Printed', tone: 'good', symbol: '✓' },
  failed: { text: 'Not printed', tone: 'bad', symbol: '✕' },
};

export function PrintJobStatus({ job }: { job: PrintJobView }) {
  const s = STATUS[job.status];
  return (
    <span className="pill" data-tone={s.tone}>
      <span aria-hidden="true">{s.symbol} </span>
      {s.text}
    </span>
  );
}

export function PrintJobList({ jobs, showTitle = false }: { jobs: PrintJobView[]; showTitle?: boolean }) {
  const { retry, busy, messages } = useReceipts(
    useShallow((s) => ({ retry: s.retry, busy: s.busy, messages: s.messages })),
  );
  if (jobs.length === 0) return null;
  return (
    <ul className="print-jobs" data-testid="print-jobs">
      {jobs.map((j) => (
        <li key={j.id} data-status={j.status}>
          <div className="print-job-line">
            <PrintJobStatus job={j} />
            <span>
              {showTitle
                ? `${j.title} · `
                : `${j.kind === 'pickup-slip' ? 'Pickup slip · ' : ''}${j.reprint ? 'Reprint · ' : ''}`}
              {j.target} · {formatLagosTime(j.updatedAt)}
              {j.attempts > 1 ? ` · ${j.attempts} tries` : ''}
            </span>
            {j.status === 'failed' && (
              <button
                type="button"
                className="primary"
                disabled={!!busy[`job:${j.id}`]}
                onClick={() => void retry(j.id)}
              >
                {busy[`job:${j.id}`] ? 'Printing…' : 'Retry'}
              </button>
            )}
          </div>
          {j.status === 'failed' && j.error && (
            <p className="print-job-error" role="alert">
              {j.error}
            </p>
          )}
          {messages[`job:${j.id}`] && (
            <p className="print-job-error" role="alert">
              {messages[`job:${j.id}`]}
            </p>
          )}
        </li>
      ))}
    </ul>
  );
}

/** Every print that did not come out, newest first, each with Retry: receipts are never lost. */
export function FailedPrints() {
  const failed = useReceipts((s) => s.failed);
  if (failed.length === 0) return null;
  return (
    <div className="card failed-prints" role="region" aria-labelledby="failed-prints-title">
      <h2 id="failed-prints-title">Not printed ({failed.length})</h2>
      <p className="hint">
        These did not come out of the printer. Fix the printer (power, cable, paper), then press Retry. They stay here
        until they print.
      </p>
      <PrintJobList jobs={failed} showTitle />
    </div>
  );
}
