// Opening a shift: the cashier's name (it goes on every receipt) and, if the drawer has one, the cash float.
import { useState, type FormEvent } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { Field } from '../../components/Field';
import { useShift } from '../../stores/shift-store';

export function OpenShiftForm({ focus = true }: { focus?: boolean }) {
  const s = useShift(useShallow((st) => ({ busy: st.busy, openErrors: st.openErrors, open: st.open })));
  const [cashier, setCashier] = useState('');
  const [float, setFloat] = useState('');

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (await s.open(cashier, float)) {
      setCashier('');
      setFloat('');
    }
  };

  return (
    <form className="card open-shift" onSubmit={submit} aria-labelledby="open-shift-title" noValidate>
      <h2 id="open-shift-title">Open a shift</h2>
      <p className="hint">Your name goes on every receipt of this shift. At the end, Close shift gives the totals.</p>
      <div className="grid">
        <Field label="Cashier’s name" error={s.openErrors.cashier}>
          {(id, d) => (
            <input
              id={id}
              aria-describedby={d}
              aria-invalid={!!s.openErrors.cashier}
              value={cashier}
              onChange={(e) => setCashier(e.target.value)}
              autoComplete="off"
              autoFocus={focus}
            />
          )}
        </Field>
        <Field
          label="Opening float in the cash drawer (₦, optional)"
          error={s.openErrors.openingFloat}
          hint="Leave empty when there is no cash drawer."
        >
          {(id, d) => (
            <input
              id={id}
              aria-describedby={d}
              aria-invalid={!!s.openErrors.openingFloat}
              inputMode="decimal"
              value={float}
              onChange={(e) => setFloat(e.target.value)}
              autoComplete="off"
            />
          )}
        </Field>
      </div>
      <div className="actions">
        <button type="submit" className="primary" disabled={s.busy}>
          {s.busy ? 'Opening…' : 'Open shift'}
        </button>
      </div>
    </form>
  );
}
