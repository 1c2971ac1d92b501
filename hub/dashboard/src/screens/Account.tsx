// My account: who I am and "Change my password" (the current password first; every other session of
// mine ends, this one stays). Each refusal is shown next to the field it concerns.
import { useState, type FormEvent } from 'react';
import { z } from 'zod';
import { PasswordSchema } from '../../../../shared/hub-dashboard-contract';
import { api, ApiError, errorText } from '../api';
import { Banner, ScreenTitle } from '../components/bits';
import { useBranchLabel } from '../branch-names';
import { managerWhere } from '../manager-view';
import { useDash } from '../store';
import '../managers.css';

const Changed = z.object({ changed: z.literal(true), sessionsEnded: z.number().int() });
type Field = 'current' | 'password' | 'again';

/** Which field a refusal of POST /password concerns (null: the form as a whole). */
function fieldOf(e: unknown): Partial<Record<Field, string>> | null {
  if (!(e instanceof ApiError)) return null;
  if (/current password/i.test(e.message)) return { current: e.message };
  const byField: Partial<Record<Field, string>> = {};
  for (const i of e.issues)
    if (i.path === 'password' || i.path === 'current') byField[i.path] = `The Hub says: ${i.message}.`;
  return Object.keys(byField).length ? byField : null;
}

function FieldError({ id, text }: { id: string; text: string | undefined }) {
  return text ? (
    <span id={id} className="field-error" role="alert">
      {text}
    </span>
  ) : null;
}

function ChangePassword() {
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setDone(null);
    setProblem(null);
    const mine: Partial<Record<Field, string>> = {};
    if (!current) mine.current = 'Type the password you logged in with.';
    const p = PasswordSchema.safeParse(password);
    if (!p.success)
      mine.password = `The new password is too ${password.length < 10 ? 'short: it needs at least 10 characters' : 'long: at most 200 characters'}.`;
    else if (password === current) mine.password = 'The new password must differ from the current one.';
    if (!mine.password && again !== password) mine.again = 'The two new passwords differ: type the same one twice.';
    setErrors(mine);
    if (Object.keys(mine).length) return;
    setBusy(true);
    try {
      const r = await api.post('/password', Changed, { current, password });
      setCurrent('');
      setPassword('');
      setAgain('');
      setDone(
        `Password changed. ${r.sessionsEnded === 0 ? 'You had no other session open.' : `${r.sessionsEnded} other session${r.sessionsEnded === 1 ? '' : 's'} of yours ended (other computers or phones log in again with the new password).`}`,
      );
    } catch (err) {
      const f = fieldOf(err);
      if (f) setErrors(f);
      else setProblem(errorText(err));
    } finally {
      setBusy(false);
    }
  }

  const describe = (f: Field, hint?: string) =>
    [errors[f] ? `${f}-error` : null, hint].filter(Boolean).join(' ') || undefined;
  return (
    <section className="card" aria-labelledby="change-password-title">
      <h2 id="change-password-title">Change my password</h2>
      <form className="stack narrow-form" onSubmit={submit} noValidate data-testid="change-password">
        <div className="field">
          <label htmlFor="pw-current">Current password</label>
          <input
            id="pw-current"
            type="password"
            autoComplete="current-password"
            value={current}
            onChange={(e) => setCurrent(e.target.value)}
            aria-invalid={errors.current ? true : undefined}
            aria-describedby={describe('current')}
          />
          <FieldError id="current-error" text={errors.current} />
        </div>
        <div className="field">
          <label htmlFor="pw-new">New password</label>
          <input
            id="pw-new"
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            aria-invalid={errors.password ? true : undefined}
            aria-describedby={describe('password', 'pw-new-hint')}
          />
          <span id="pw-new-hint" className="hint">
            At least 10 characters; a few words you will remember are best.
          </span>
          <FieldError id="password-error" text={errors.password} />
        </div>
        <div className="field">
          <label htmlFor="pw-again">New password again</label>
          <input
            id="pw-again"
            type="password"
            autoComplete="new-password"
            value={again}
            onChange={(e) => setAgain(e.target.value)}
            aria-invalid={errors.again ? true : undefined}
            aria-describedby={describe('again')}
          />
          <FieldError id="again-error" text={errors.again} />
        </div>
        {problem ? <Banner tone="bad">{problem}</Banner> : null}
        {done ? (
          <Banner tone="good" testId="password-changed">
            {done}
          </Banner>
        ) : null}
        <div className="actions">
          <button className="primary" type="submit" disabled={busy}>
            {busy ? 'Changing…' : 'Change my password'}
          </button>
        </div>
      </form>
    </section>
  );
}

export function AccountScreen() {
  const session = useDash((s) => s.session)!;
  const label = useBranchLabel();
  const m = session.manager;
  return (
    <section className="screen" aria-labelledby="screen-title">
      <ScreenTitle>
        <span id="screen-title">My account</span>
      </ScreenTitle>
      <p data-testid="my-account">
        <strong>{m.name}</strong> · {managerWhere(m, label)}
      </p>
      <ChangePassword />
    </section>
  );
}
