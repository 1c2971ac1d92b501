// One order's receipt: the preview as it will print, Print (or Reprint), Save as PDF where the app
// can, and every print of it with its outcome; a failed print shows why, with Retry. A paid sale
// with concessions also shows its pickup slip for the stand, with Print (or Reprint) pickup slip.
// Mount it for a final order (the payment view, an order opened on the Orders screen).
import { useRef } from 'react';
import { useOnChange } from '../../components/useOnChange';
import { useShallow } from 'zustand/react/shallow';
import { printsInBrowser, useReceipts } from '../../stores/receipt-store';
import { PrintJobList } from './PrintJobList';
import { BrowserPrintRoot, ReceiptPaper } from './ReceiptPaper';
import { formatLagosTime } from '../../format';
import { Banner } from '../../components/Banner';
import '../../receipt-panel.css';

export function ReceiptPanel({ orderId, autoPrint = false }: { orderId: number; autoPrint?: boolean }) {
  const r = useReceipts(
    useShallow((s) => ({
      settings: s.settings,
      preview: s.previews[orderId],
      previewError: s.previewErrors[orderId],
      jobs: s.jobs[orderId],
      busy: s.busy,
      messages: s.messages,
      loadSettings: s.loadSettings,
      loadReceipt: s.loadReceipt,
      print: s.print,
      printPickup: s.printPickup,
      savePdf: s.savePdf,
    })),
  );
  const autoDone = useRef(false);

  useOnChange(() => {
    if (!r.settings) void r.loadSettings();
    void r.loadReceipt(orderId);
  }, [orderId]);

  // When the browser is the printer, "print automatically" is done here, once, for a new receipt.
  useOnChange(() => {
    if (!autoPrint || autoDone.current || !r.settings || !r.jobs || !r.preview) return;
    if (
      !r.settings.printing.autoPrint ||
      !printsInBrowser(r.settings) ||
      r.jobs.some((j) => j.kind === 'receipt') ||
      r.preview.receipt.state !== 'paid'
    )
      return;
    autoDone.current = true;
    // The pickup slip comes with it, on its own page, when the sale has concessions.
    void r.print(orderId, { withPickup: true });
  }, [autoPrint, r.settings, r.jobs, r.preview, orderId]);

  const printedOf = (kind: 'receipt' | 'pickup-slip') =>
    (r.jobs ?? []).filter((j) => j.kind === kind && j.status === 'printed').at(-1);
  const firstPrint = printedOf('receipt');
  const printed = firstPrint !== undefined;
  const slipPrinted = printedOf('pickup-slip') !== undefined;
  const slipBusy = !!r.busy[`pickup:${orderId}`];
  const browser = printsInBrowser(r.settings);
  const busy = !!r.busy[`order:${orderId}`];
  const where = r.settings ? (browser ? 'the browser’s print window' : describePrinter(r.settings.printing)) : '';

  return (
    <div className="receipt-panel" data-testid="receipt-panel">
      {r.previewError ? (
        <Banner tone="bad" role="alert">
          The receipt cannot be shown: {r.previewError}
        </Banner>
      ) : !r.preview ? (
        <p>Loading the receipt…</p>
      ) : (
        <div className="receipt-paper-col">
          <p className="receipt-caption">
            {firstPrint
              ? `Printed at ${formatLagosTime(firstPrint.updatedAt)}. Another copy will look like this, marked REPRINT:`
              : 'The receipt as it will print:'}
          </p>
          <ReceiptPaper
            html={r.preview.html}
            label={`Receipt of order ${r.preview.receipt.outOrderNo}`}
            testId="receipt-preview"
          />
          {r.preview.pickupHtml && (
            <>
              <p className="receipt-caption">The pickup slip for the concession stand:</p>
              <ReceiptPaper
                html={r.preview.pickupHtml}
                label={`Pickup slip of order ${r.preview.receipt.outOrderNo}`}
                testId="pickup-preview"
              />
            </>
          )}
        </div>
      )}
      <div className="receipt-actions">
        <div className="actions">
          <button
            type="button"
            className={printed ? undefined : 'primary'}
            disabled={busy || !r.preview}
            onClick={() => void r.print(orderId)}
          >
            {busy ? 'Printing…' : printed ? 'Reprint receipt' : 'Print receipt'}
          </button>
          {r.settings?.systemPrinting.available && (
            <button
              type="button"
              disabled={!!r.busy[`pdf:${orderId}`] || !r.preview}
              onClick={() => void r.savePdf(orderId)}
            >
              Save as PDF
            </button>
          )}
          {r.preview?.pickupHtml && (
            <button
              type="button"
              data-testid="print-pickup"
              disabled={slipBusy}
              onClick={() => void r.printPickup(orderId)}
            >
              {slipBusy ? 'Printing…' : slipPrinted ? 'Reprint pickup slip' : 'Print pickup slip'}
            </button>
          )}
        </div>
        {where && (
          <p className="hint">
            Prints to {where}
            {printed ? '; a new copy is marked REPRINT.' : '.'}
          </p>
        )}
        {r.messages[`order:${orderId}`] && (
          <Banner tone="bad" role="alert">
            {r.messages[`order:${orderId}`]}
          </Banner>
        )}
        {r.messages[`pickup:${orderId}`] && (
          <Banner tone="bad" role="alert">
            {r.messages[`pickup:${orderId}`]}
          </Banner>
        )}
        {r.messages[`pdf:${orderId}`] && (
          <p className="hint" role="status">
            {r.messages[`pdf:${orderId}`]}
          </p>
        )}
        <PrintJobList jobs={r.jobs ?? []} />
      </div>
      <BrowserPrintRoot />
    </div>
  );
}

export function describePrinter(p: {
  kind: string;
  host: string;
  port: number;
  serialPath: string;
  systemPrinterName: string;
  paper: string;
}): string {
  const paper = `${p.paper} mm paper`;
  if (p.kind === 'network') return `the network printer ${p.host}:${p.port} (${paper})`;
  if (p.kind === 'serial') return `the serial printer on ${p.serialPath} (${paper})`;
  return `${p.systemPrinterName ? `the printer “${p.systemPrinterName}”` : 'the computer’s default printer'} (${paper})`;
}
