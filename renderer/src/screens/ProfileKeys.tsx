// A profile's keys on its form: write-only. A key once saved shows only "Set" and its fingerprint;
// a box left empty keeps it, a key pasted replaces it. PEM keys get a text area.
import { SECRET_LABELS, SECRET_NAMES, type ProfileView, type SecretName } from '../../../shared/settings';
import { Field } from '../components/Field';

export function KeyFields({
  status,
  typed,
  onChange,
  errorOf,
}: {
  status: ProfileView['secrets'];
  /** What the admin typed, by key: sent with the save, cleared after it. */
  typed: Partial<Record<SecretName, string>>;
  onChange: (typed: Partial<Record<SecretName, string>>) => void;
  errorOf: (name: SecretName) => string | undefined;
}) {
  return (
    <fieldset className="card">
      <legend>Keys</legend>
      <p className="hint">
        Keys are never shown again once saved. Paste a new one to replace it; leave the box empty to keep it.
      </p>
      <div className="grid">
        {SECRET_NAMES.map((name) => {
          const st = status[name];
          const pem = name === 'merchantPrivateKey' || name === 'providerPublicKey';
          const error = errorOf(name);
          return (
            <Field
              key={name}
              label={SECRET_LABELS[name]}
              error={error}
              hint={
                <span data-testid={`secret-status-${name}`}>{st?.set ? `Set · ${st.fingerprint}` : 'Not set'}</span>
              }
            >
              {(id, d) =>
                pem ? (
                  <textarea
                    id={id}
                    name={name}
                    aria-describedby={d}
                    aria-invalid={error ? true : undefined}
                    rows={3}
                    spellCheck={false}
                    autoComplete="off"
                    placeholder={st?.set ? 'Paste to replace' : 'Paste the PEM'}
                    value={typed[name] ?? ''}
                    onChange={(e) => onChange({ ...typed, [name]: e.target.value })}
                  />
                ) : (
                  <input
                    id={id}
                    name={name}
                    aria-describedby={d}
                    aria-invalid={error ? true : undefined}
                    type="password"
                    autoComplete="off"
                    placeholder={st?.set ? 'Type to replace' : 'Not set'}
                    value={typed[name] ?? ''}
                    onChange={(e) => onChange({ ...typed, [name]: e.target.value })}
                  />
                )
              }
            </Field>
          );
        })}
      </div>
    </fieldset>
  );
}
