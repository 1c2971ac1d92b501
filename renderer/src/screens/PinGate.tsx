// Settings are behind the admin PIN: choose one the first time, enter it afterwards.
import { useState, type FormEvent } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { Field } from '../components/Field';
import { useSettings } from '../stores/settings-store';
import { formatLagosTime } from '../format';

export function PinGate() {
  const { pin, busy, message, setPin, unlock } = useSettings(
    useShallow((s) => ({ pin: s.pin, busy: s.busy, message: s.message, setPin: s.setPin, unlock: s.unlock })),
  );
  const [first, setFirst] = useState('');
  const [second, setSecond] = useState('');
  const [localError, setLocalError] = useState<string | null>(null);
  const choosing = pin?.set === false;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setLocalError(null);
    if (choosing) {
      if (!/^\d{4,12}$/.test(first)) return setLocalError('A PIN is 4 to 12 digits.');
      if (first !== second) return setLocalError('The two PINs are not the same.');
      if (await setPin(first)) setFirst('');
    } else if (await unlock(first)) setFirst('');
    setSecond('');
  };

  const error = localError ?? (message?.kind === 'error' ? message.text : undefined);
  return (
    <form className="card pin-gate" onSubmit={submit} aria-labelledby="pin-title">
      <h2 id="pin-title">{choosing ? 'Choose an admin PIN' : 'Settings are locked'}</h2>
      <p>
        {choosing
          ? 'Only the merchant’s admin should know this PIN. It guards keys and provider settings.'
          : 'Enter the admin PIN to change settings.'}
      </p>
      <Field label={choosing ? 'New admin PIN (4 to 12 digits)' : 'Admin PIN'} error={choosing ? undefined : error}>
        {(id, d) => (
          <input
            id={id}
            aria-describedby={d}
            type="password"
            inputMode="numeric"
            autoComplete="off"
            autoFocus
            value={first}
            onChange={(e) => setFirst(e.target.value)}
          />
        )}
      </Field>
      {choosing && (
        <Field label="Type the PIN again" error={error}>
          {(id, d) => (
            <input
              id={id}
              aria-describedby={d}
              type="password"
              inputMode="numeric"
              autoComplete="off"
              value={second}
              onChange={(e) => setSecond(e.target.value)}
            />
          )}
        </Field>
      )}
      {pin?.lockedUntil ? (
        <p role="alert">
          Too many wrong PINs: Settings stay locked until {formatLagosTime(pin.lockedUntil)}. Each further wrong PIN
          makes the wait longer.
        </p>
      ) : null}
      <button type="submit" className="primary" disabled={busy}>
        {choosing ? 'Save PIN and open Settings' : 'Unlock'}
      </button>
    </form>
  );
}
