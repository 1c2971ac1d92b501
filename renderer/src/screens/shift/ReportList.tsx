// The kept Z reports, newest first: open one to read, reprint or export it.
import { useShift } from '../../stores/shift-store';
import { formatLagosDateTime, formatLagosTime, formatNaira } from '../../format';

export function ReportList() {
  const reports = useShift((s) => s.reports);
  const show = useShift((s) => s.show);
  return (
    <div className="card" role="region" aria-labelledby="reports-title">
      <h2 id="reports-title">Closed shifts (Z reports)</h2>
      {reports.length === 0 ? (
        <p className="placeholder">No shift has been closed on this counter yet.</p>
      ) : (
        <table className="records-table" data-testid="z-reports">
          <caption className="sr-only">Closed shifts, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Report</th>
              <th scope="col">Cashier</th>
              <th scope="col">Shift</th>
              <th scope="col" className="num">
                Card payments
              </th>
              <th scope="col">Open at close</th>
            </tr>
          </thead>
          <tbody>
            {reports.map((r) => (
              <tr key={r.id} data-clickable onClick={() => void show(r.id)}>
                <td>
                  <button
                    type="button"
                    className="records-link"
                    onClick={(e) => {
                      e.stopPropagation();
                      void show(r.id);
                    }}
                    aria-label={`Open Z report ${r.id}`}
                  >
                    Z #{r.id}
                  </button>
                </td>
                <td>{r.cashier}</td>
                <td className="num-time">
                  {formatLagosDateTime(r.openedAt)} – {formatLagosTime(r.closedAt)}
                </td>
                <td className="num">
                  {formatNaira(r.paid.amountKobo)} ({r.paid.count})
                </td>
                <td>
                  {r.openCount > 0 ? (
                    <span className="pill" data-tone="warn">
                      {r.openCount} open
                    </span>
                  ) : (
                    'none'
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
