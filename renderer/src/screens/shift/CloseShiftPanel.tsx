// Closing the shift: the final totals to read first; the cash counted in the drawer (expected shown,
// over/short on the Z once kept); payments still open are listed and must be confirmed ("close
// anyway") before the shift closes and its Z report is kept.
import { useEffect, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useShift } from '../../stores/shift-store';
import { OpenItemsList } from './OpenItemsList';
import { ShiftFigures } from './ShiftFigures';
import { formatLagosDateTime } from '../../format';
import { Banner } from '../../components/Banner';
import { Field } from '../../components/Field';
import { formatNaira } from '../../format';
import { countNeeded } from '../../../../shared/ledger-basket-lines';

export function CloseShiftPanel() {
  const s = useShift(
    useShallow((st) => ({
      closing: st.closing,
      refusedOpen: st.refusedOpen,
      busy: st.busy,
      close: st.close,
      cancelClose: st.cancelClose,
      errors: st.closeErrors,
    })),
  );
  const [accept, setAccept] = useState(false);
  const [counted, setCounted] = useState('');
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  if (!s.closing) return null;
  const r = s.closing.report;
  const open = s.refusedOpen ?? r.totals.openItems;
  const drawer = r.totals.drawer;
  // The rule of when a count is needed (a float, cash taken) is the engine's; the field is always offered.
  const needed = !!drawer && countNeeded(drawer);

  return (
    <section className="card close-shift" aria-labelledby="close-shift-title" data-testid="close-shift">
      <h2 id="close-shift-title" ref={headingRef} tabIndex={-1}>
        Close the shift of {r.shift.cashier}?
      </h2>
      <p className="hint">
        Open since {formatLagosDateTime(r.shift.openedAt)}. These totals are kept as the Z report and cannot change
        after the close.
      </p>
      <ShiftFigures report={r} />
      {open.length > 0 && (
        <Banner as="div" className="close-warning" tone="warn" role="alert">
          <div>
            <strong>
              {open.length} payment{open.length === 1 ? ' has' : 's have'} no outcome yet.
            </strong>{' '}
            {open.length === 1 ? 'It is' : 'They are'} not in the totals. Check {open.length === 1 ? 'it' : 'them'} on
            the Orders screen first if the customer is still here.
          </div>
        </Banner>
      )}
      {open.length > 0 && <OpenItemsList items={open} />}
      {open.length > 0 && (
        <label className="check">
          <input type="checkbox" checked={accept} onChange={(e) => setAccept(e.target.checked)} />I have seen these:
          close the shift anyway
        </label>
      )}
      {drawer && (
        <div className="drawer-count" data-testid="drawer-count">
          <p data-testid="drawer-expected">
            Expected in the drawer: <strong>{formatNaira(drawer.expectedKobo)}</strong>
          </p>
          <Field
            label={`Cash counted in the drawer (₦${needed ? '' : ', optional: no float, no cash taken'})`}
            error={s.errors.counted}
            hint="Count every note and coin in the drawer. Over or short shows on the Z report."
          >
            {(id, d) => (
              <input
                id={id}
                aria-describedby={d}
                aria-invalid={!!s.errors.counted}
                inputMode="decimal"
                value={counted}
                onChange={(e) => {
                  setCounted(e.target.value);
                  if (s.errors.counted) useShift.setState({ closeErrors: {} });
                }}
                onKeyDown={(e) => {
                  if (e.key === 'Enter' && !(open.length > 0 && !accept))
                    void s.close(open.length > 0 && accept, counted);
                }}
                autoComplete="off"
              />
            )}
          </Field>
        </div>
      )}
      <div className="actions">
        <button
          type="button"
          className="primary"
          disabled={s.busy || (open.length > 0 && !accept)}
          onClick={() => void s.close(open.length > 0 && accept, counted)}
        >
          {s.busy ? 'Closing…' : 'Close shift and keep the Z report'}
        </button>
        <button type="button" onClick={s.cancelClose}>
          Back (keep the shift open)
        </button>
      </div>
    </section>
  );
}
