// A sale's refunds on its detail: each with its number, what went back, by which tender, and where
// it stands (paid from the drawer, owed to the card since…, returned: how, reference, who), its
// refund slip to print, and "Record returned…" for a card refund still owed.
import { useEffect, useRef, useState } from 'react';
import {
  RETURN_HOWS,
  RETURN_HOW_LABELS,
  UNDO_REASON_LABELS,
  type RefundView,
  type ReturnHow,
} from '../../../../shared/refunds';
import { Banner } from '../../components/Banner';
import { Field } from '../../components/Field';
import { SubmitForm } from '../../components/SubmitForm';
import { formatLagosDateTime, formatNaira } from '../../format';
import { call } from '../../transport/bridge';
import { errorText } from '../../stores/call-errors';
import { useRefunds } from '../../stores/refunds-store';
import { printsInBrowser, useReceipts } from '../../stores/receipt-store';

export function refundState(x: RefundView): string {
  if (x.tender === 'cash') return 'Paid in cash from the drawer';
  if (!x.returned) return `Owed to the card since ${formatLagosDateTime(x.at)}`;
  const r = x.returned;
  return `Returned: ${RETURN_HOW_LABELS[r.how]}, ref. ${r.reference}, by ${r.by} (${formatLagosDateTime(r.at)})`;
}

export function RefundList({ refunds, cashier }: { refunds: RefundView[]; cashier: string }) {
  const returning = useRefunds((s) => s.returning);
  const openReturned = useRefunds((s) => s.openReturned);
  if (refunds.length === 0) return null;
  return (
    <div className="refund-list">
      <h3>Refunds of this sale</h3>
      <ul data-testid="refund-list">
        {refunds.map((x) => (
          <li key={x.id} data-testid={`refund-${x.refundNo}`} data-owed={x.tender === 'card' && !x.returned}>
            <div className="refund-head">
              <strong>{x.refundNo}</strong>
              <span className="refund-amount">
                {formatNaira(x.amountKobo)} {x.tender === 'cash' ? 'cash' : 'card'}
              </span>
              <span>
                {[
                  x.seats.length ? `Seats ${x.seats.join(', ')}` : '',
                  ...x.lines.map((l) => `${l.quantity} × ${l.name}`),
                  x.kind === 'exchange' ? 'Exchange to a cheaper show' : '',
                ]
                  .filter(Boolean)
                  .join(' · ')}
              </span>
            </div>
            <div className="hint">
              {UNDO_REASON_LABELS[x.reason]}
              {x.note ? ` (${x.note})` : ''} · by {x.cashier}, approved by {x.approved.by} · {formatLagosDateTime(x.at)}
            </div>
            <div className={x.tender === 'card' && !x.returned ? 'refund-state owed' : 'refund-state'}>
              {refundState(x)}
            </div>
            <div className="actions">
              {x.tender === 'card' && !x.returned && returning !== x.id && (
                <button
                  type="button"
                  className="primary"
                  data-testid={`record-returned-${x.refundNo}`}
                  onClick={() => openReturned(x.id)}
                >
                  Record returned…
                </button>
              )}
              <PrintRefundSlip refundId={x.id} />
            </div>
            {returning === x.id && <ReturnedForm refund={x} cashier={cashier} />}
          </li>
        ))}
      </ul>
    </div>
  );
}

function PrintRefundSlip({ refundId }: { refundId: number }) {
  const [state, setState] = useState<{ busy: boolean; text: string | null }>({ busy: false, text: null });
  const print = async () => {
    setState({ busy: true, text: null });
    try {
      const receipts = useReceipts.getState();
      if (!receipts.settings) await receipts.loadSettings();
      const inBrowser = printsInBrowser(useReceipts.getState().settings);
      const { job, html, paper } = await call('receipts.printRefund', { refundId, inBrowser });
      // In the browser shell the browser's print window prints it.
      if (inBrowser) useReceipts.getState().printInBrowser({ html, paper });
      setState({
        busy: false,
        text:
          job.status === 'failed'
            ? `Not printed: ${job.error ?? 'the printer failed'}`
            : `${job.title}: sent to ${job.target}.`,
      });
    } catch (e) {
      setState({ busy: false, text: errorText(e) });
    }
  };
  return (
    <>
      <button type="button" disabled={state.busy} onClick={() => void print()}>
        {state.busy ? 'Printing…' : 'Print refund slip'}
      </button>
      {state.text && (
        <span className="hint" role="status">
          {state.text}
        </span>
      )}
    </>
  );
}

function ReturnedForm({ refund, cashier }: { refund: RefundView; cashier: string }) {
  const r = useRefunds();
  const [how, setHow] = useState<ReturnHow | ''>('');
  const [reference, setReference] = useState('');
  const [by, setBy] = useState(cashier);
  const ref = useRef<HTMLSelectElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <SubmitForm
      className="returned-form"
      aria-label={`How refund ${refund.refundNo} was returned`}
      data-testid="returned-form"
      onKeyDown={(e) => {
        if (e.key !== 'Escape') return;
        e.preventDefault();
        r.openReturned(null);
      }}
      onSubmit={() => void r.markReturned(refund.id, how as ReturnHow, reference, by)}
    >
      <p>
        <strong>{formatNaira(refund.amountKobo)}</strong> owed to the card of sale {refund.outOrderNo}. Record it only
        once the money is back with the customer.
      </p>
      <Field label="How it was returned" error={r.errors.how}>
        {(id, d) => (
          <select
            id={id}
            ref={ref}
            aria-describedby={d}
            aria-invalid={!!r.errors.how}
            value={how}
            data-testid="returned-how"
            onChange={(e) => (setHow(e.target.value as ReturnHow), r.clearError('how'))}
          >
            <option value="">Choose…</option>
            {RETURN_HOWS.map((h) => (
              <option key={h} value={h}>
                {RETURN_HOW_LABELS[h]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Reference" hint="Of the reversal or the transfer" error={r.errors.reference}>
        {(id, d) => (
          <input
            id={id}
            aria-describedby={d}
            aria-invalid={!!r.errors.reference}
            maxLength={64}
            value={reference}
            data-testid="returned-reference"
            onChange={(e) => (setReference(e.target.value), r.clearError('reference'))}
          />
        )}
      </Field>
      <Field label="Your name" error={r.errors.by}>
        {(id, d) => (
          <input
            id={id}
            aria-describedby={d}
            aria-invalid={!!r.errors.by}
            maxLength={80}
            value={by}
            data-testid="returned-by"
            onChange={(e) => (setBy(e.target.value), r.clearError('by'))}
          />
        )}
      </Field>
      {r.message && (
        <Banner tone="bad" role="alert">
          {r.message}
        </Banner>
      )}
      <div className="actions">
        <button type="submit" className="primary" disabled={r.busy !== null} data-testid="returned-confirm">
          {r.busy === 'returned' ? 'Recording…' : 'Record returned'} <kbd aria-hidden="true">Enter</kbd>
        </button>
        <button type="button" onClick={() => r.openReturned(null)}>
          Not yet <kbd aria-hidden="true">Esc</kbd>
        </button>
      </div>
    </SubmitForm>
  );
}
