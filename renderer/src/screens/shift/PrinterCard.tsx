// The receipt printer at a glance on the Shift screen, with a test page, and its settings one
// click away (they need the admin PIN to change).
import { useOnMount } from '../../components/useOnChange';
import { useShallow } from 'zustand/react/shallow';
import { printsInBrowser, useReceipts } from '../../stores/receipt-store';
import { describePrinter } from '../receipt/ReceiptPanel';
import { ReceiptSettingsPanel } from '../receipt/ReceiptSettingsPanel';
import '../../printer-settings.css';

export function PrinterCard() {
  const r = useReceipts(useShallow((s) => ({ settings: s.settings, loadSettings: s.loadSettings })));
  useOnMount(() => {
    if (!r.settings) void r.loadSettings();
  });
  const where = r.settings
    ? printsInBrowser(r.settings)
      ? 'the browser’s print window (choose the printer there)'
      : describePrinter(r.settings.printing)
    : '…';
  return (
    <details className="card printer-card">
      <summary>
        Receipt printer: <span data-testid="printer-summary">{where}</span>
        {r.settings?.printing.autoPrint ? ' · prints by itself when paid' : ''}
      </summary>
      <ReceiptSettingsPanel />
    </details>
  );
}
