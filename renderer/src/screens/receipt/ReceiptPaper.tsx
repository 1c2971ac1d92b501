// A receipt (or shift report) exactly as it prints: the HTML main rendered from the one receipt
// model (escaped there, class names only), on a white strip the width of the paper.
import { createPortal } from 'react-dom';
import { useReceipts } from '../../stores/receipt-store';
import 'virtual:receipt-paper.css';
import '../../receipt-panel.css';

export function ReceiptPaper({ html, label, testId }: { html: string; label: string; testId?: string }) {
  return (
    <figure className="receipt-sheet" aria-label={label} data-testid={testId}>
      {/* The HTML comes from main's receipt renderer, which escapes every value and emits no scripts or styles. */}
      <div dangerouslySetInnerHTML={{ __html: html }} />
    </figure>
  );
}

/** The part of the page the browser prints (only while it prints); everything else is hidden for print. */
export function BrowserPrintRoot() {
  const printing = useReceipts((s) => s.printing);
  if (!printing) return null;
  return createPortal(
    <div className="print-root" data-paper={printing.paper} dangerouslySetInnerHTML={{ __html: printing.html }} />,
    document.body,
  );
}
