// Shift: open a shift under the cashier's name, watch its running totals (X report), close it with
// its totals kept (Z report), reprint or export any closed one; prints that failed wait here with Retry.
import { useOnMount } from '../components/useOnChange';
import { useShallow } from 'zustand/react/shallow';
import { ScreenHead } from '../components/ScreenHead';
import { useNow } from '../components/useNow';
import { useReceipts } from '../stores/receipt-store';
import { useShift } from '../stores/shift-store';
import { useDrop } from '../stores/drop-store';
import { BrowserPrintRoot } from './receipt/ReceiptPaper';
import { FailedPrints } from './receipt/PrintJobList';
import { CloseShiftPanel } from './shift/CloseShiftPanel';
import { DropForm } from './shift/DropForm';
import { OpenShiftForm } from './shift/OpenShiftForm';
import { PrinterCard } from './shift/PrinterCard';
import { ReportList } from './shift/ReportList';
import { ReportView } from './shift/ReportView';
import { ShiftFigures } from './shift/ShiftFigures';
import { elapsedText, formatLagosDateTime, formatLagosTime } from '../format';
import { Banner, outcome } from '../components/Banner';
import '../shift-screen.css';
import '../data-table.css';

export function ShiftScreen() {
  const s = useShift(
    useShallow((st) => ({
      loaded: st.loaded,
      current: st.current,
      running: st.running,
      loadError: st.loadError,
      busy: st.busy,
      message: st.message,
      closing: st.closing,
      shown: st.shown,
      load: st.load,
      startClose: st.startClose,
      print: st.print,
      exportCsv: st.exportCsv,
    })),
  );
  const loadFailed = useReceipts((r) => r.loadFailed);
  const drop = useDrop(useShallow((d) => ({ open: d.open, start: d.start })));
  const now = useNow(!!s.current);

  useOnMount(() => {
    void s.load();
    void loadFailed();
  });

  return (
    <section aria-labelledby="screen-title" className="screen records-screen">
      <ScreenHead title="Shift" loadError={s.loadError && `The shift cannot be loaded: ${s.loadError}`}>
        {s.current && !s.closing && (
          <button type="button" className="primary" disabled={s.busy} onClick={() => void s.startClose()}>
            Close shift…
          </button>
        )}
      </ScreenHead>
      {s.message && (
        <Banner {...outcome(s.message.kind === 'ok')} data-testid="shift-message">
          {s.message.text}
        </Banner>
      )}
      <FailedPrints />

      {!s.loaded ? (
        <p>Loading…</p>
      ) : s.closing ? (
        <CloseShiftPanel />
      ) : s.current ? (
        <div className="card shift-open" data-testid="shift-open">
          <div className="shift-head">
            <div>
              <h2>
                {s.current.cashier}’s shift{' '}
                <span className="pill" data-tone="good">
                  Open
                </span>
                {s.current.profile === 'demo' && (
                  <span className="pill" data-tone="warn">
                    Demo shift
                  </span>
                )}
              </h2>
              <p className="hint">
                {s.current.profile === 'demo'
                  ? 'Opened in the Demo profile: its totals are Demo sales (play money) and any real sale made while it is open.'
                  : 'Demo sales (play money) are never counted in this shift.'}
              </p>
              <p className="hint">
                Since {formatLagosTime(s.current.openedAt)} ({elapsedText(s.current.openedAt, now)}) ·{' '}
                {formatLagosDateTime(s.current.openedAt).split(',')[0]}
              </p>
            </div>
          </div>
          <h3>Running totals (X report)</h3>
          {s.running ? <ShiftFigures report={s.running.report} /> : <p>Loading the totals…</p>}
          <div className="actions">
            <button type="button" disabled={s.busy} onClick={() => void s.print()}>
              Print X report
            </button>
            <button type="button" onClick={() => void s.exportCsv()}>
              Export as CSV
            </button>
            {!drop.open && (
              <button type="button" disabled={s.busy} onClick={drop.start}>
                Cash drop…
              </button>
            )}
          </div>
          {drop.open && <DropForm />}
        </div>
      ) : null}

      <ReportView />
      {s.loaded && !s.current && !s.closing && <OpenShiftForm focus={!s.shown} />}
      {!s.closing && <ReportList />}
      <PrinterCard />
      <BrowserPrintRoot />
    </section>
  );
}
