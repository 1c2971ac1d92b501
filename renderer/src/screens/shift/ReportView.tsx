// A shift report on show (the Z report just kept, or one from the list): its figures, the paper
// as it prints, and Print / Reprint and CSV.
import { useShallow } from 'zustand/react/shallow';
import { useReceipts } from '../../stores/receipt-store';
import { useShift } from '../../stores/shift-store';
import { PrintJobList } from '../receipt/PrintJobList';
import { ReceiptPaper } from '../receipt/ReceiptPaper';
import { OpenItemsList } from './OpenItemsList';
import { ShiftFigures } from './ShiftFigures';
import { formatLagosDateTime } from '../../format';

export function ReportView() {
  const s = useShift(
    useShallow((st) => ({
      shown: st.shown,
      busy: st.busy,
      print: st.print,
      exportCsv: st.exportCsv,
      hideShown: st.hideShown,
    })),
  );
  const failed = useReceipts((r) => r.failed);
  if (!s.shown) return null;
  const r = s.shown.report;
  const id = r.id ?? undefined;
  const printedBefore = s.shown.html.includes('REPRINT');
  const jobs = failed.filter((j) => j.reportId === r.id);

  return (
    <section className="card report-view" aria-labelledby="report-title" data-testid="report-view">
      <div className="screen-head">
        <h2 id="report-title">
          {r.kind === 'Z' ? `Z report #${r.id}` : 'X report'} · {r.shift.cashier}
        </h2>
        <button type="button" onClick={s.hideShown}>
          Hide the report
        </button>
      </div>
      <p className="hint">
        {formatLagosDateTime(r.shift.openedAt)} to {formatLagosDateTime(r.shift.closedAt ?? r.generatedAt)}
      </p>
      <div className="report-layout">
        <div>
          <ShiftFigures report={r} />
          {r.totals.openItems.length > 0 && (
            <>
              <h3>Not finished at the close ({r.totals.openItems.length})</h3>
              <OpenItemsList items={r.totals.openItems} />
            </>
          )}
          <div className="actions">
            <button type="button" className="primary" disabled={s.busy} onClick={() => void s.print(id)}>
              {s.busy ? 'Printing…' : printedBefore ? 'Reprint the report' : 'Print the report'}
            </button>
            <button type="button" onClick={() => void s.exportCsv(id)}>
              Export as CSV
            </button>
          </div>
          <PrintJobList jobs={jobs} />
        </div>
        <ReceiptPaper html={s.shown.html} label={`${r.kind} report as printed`} testId="report-paper" />
      </div>
    </section>
  );
}
