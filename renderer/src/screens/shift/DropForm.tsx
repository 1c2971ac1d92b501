// A cash drop: cash taken from the drawer to the safe mid-shift, with an optional note. The engine
// refuses more than the drawer should hold and says how much that is; who and when are recorded.
import { useState, type FormEvent, type KeyboardEvent } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { Field } from '../../components/Field';
import { useShift } from '../../stores/shift-store';
import { useDrop } from '../../stores/drop-store';
import { formatNaira } from '../../format';

export function DropForm() {
  const s = useDrop(useShallow((st) => ({ busy: st.busy, errors: st.errors, drop: st.drop, cancelDrop: st.cancel })));
  const drawer = useShift((st) => st.running?.report.totals.drawer ?? null);
  const [amount, setAmount] = useState('');
  const [note, setNote] = useState('');

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (await s.drop(amount, note)) {
      setAmount('');
      setNote('');
    }
  };
  const escape = (e: KeyboardEvent) => {
    if (e.key === 'Escape') s.cancelDrop();
  };

  return (
    <form
      className="card drop-form"
      onSubmit={submit}
      onKeyDown={escape}
      aria-labelledby="drop-title"
      data-testid="drop-form"
      noValidate
    >
      <h3 id="drop-title">Cash drop to the safe</h3>
      {drawer && (
        <p className="hint" data-testid="drop-expected">
          The drawer should hold {formatNaira(drawer.expectedKobo)} now.
        </p>
      )}
      <div className="grid">
        <Field label="Amount taken to the safe (₦)" error={s.errors.amount}>
          {(id, d) => (
            <input
              id={id}
              aria-describedby={d}
              aria-invalid={!!s.errors.amount}
              inputMode="decimal"
              value={amount}
              onChange={(e) => setAmount(e.target.value)}
              autoComplete="off"
              autoFocus
            />
          )}
        </Field>
        <Field label="Note (optional)" error={s.errors.note}>
          {(id, d) => (
            <input
              id={id}
              aria-describedby={d}
              aria-invalid={!!s.errors.note}
              value={note}
              maxLength={120}
              onChange={(e) => setNote(e.target.value)}
              autoComplete="off"
            />
          )}
        </Field>
      </div>
      <div className="actions">
        <button type="submit" className="primary" disabled={s.busy}>
          {s.busy ? 'Recording…' : 'Record the drop'}
        </button>
        <button type="button" onClick={s.cancelDrop}>
          Cancel (Esc)
        </button>
      </div>
    </form>
  );
}
