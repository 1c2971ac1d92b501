// Head office adds a manager (Managers screen): a name, head office or a branch, and a first password
// made here and shown once to hand over. Each refusal of the Hub stands by the field it concerns.
import { useState, type FormEvent } from 'react';
import { ManagerNameSchema, ManagerViewSchema } from '../../../../shared/hub-dashboard-contract';
import { api, ApiError, errorText } from '../api';
import { useBranchLabel, useBranchNames } from '../branch-names';
import { newOneTimePassword } from '../manager-view';
import { Banner } from './bits';
import { OneTimePassword } from './OneTimePassword';

type Field = 'name' | 'branch';

export function AddManager({ onAdded }: { onAdded: () => void }) {
  const branches = useBranchNames((s) => s.list);
  const label = useBranchLabel();
  const [name, setName] = useState('');
  const [role, setRole] = useState<'branch' | 'head-office'>('branch');
  const [branch, setBranch] = useState('');
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [added, setAdded] = useState<{ name: string; password: string } | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setProblem(null);
    const mine: Partial<Record<Field, string>> = {};
    const n = ManagerNameSchema.safeParse(name);
    if (!n.success) mine.name = `The name: ${n.error.issues[0]?.message ?? 'not valid'}.`;
    if (role === 'branch' && !branch.trim())
      mine.branch = 'Pick the branch this manager runs (the merchant id its counters joined with).';
    setErrors(mine);
    if (Object.keys(mine).length) return;
    setBusy(true);
    try {
      const password = newOneTimePassword();
      const m = await api.post('/managers', ManagerViewSchema, {
        name,
        password,
        role,
        branch: role === 'branch' ? branch.trim() : null,
      });
      setAdded({ name: m.name, password });
      setName('');
      setBranch('');
      onAdded();
    } catch (err) {
      if (err instanceof ApiError && /already exists/.test(err.message)) setErrors({ name: err.message });
      else if (err instanceof ApiError && err.issues.some((i) => i.path === 'name' || i.path === 'branch')) {
        setErrors(
          Object.fromEntries(
            err.issues
              .filter((i) => i.path === 'name' || i.path === 'branch')
              .map((i) => [i.path, `The Hub says: ${i.message}.`]),
          ),
        );
      } else setProblem(errorText(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card" aria-labelledby="add-manager-title">
      <h2 id="add-manager-title">Add a manager</h2>
      <form className="filter-grid" onSubmit={submit} noValidate data-testid="add-manager">
        <div className="field">
          <label htmlFor="new-manager-name">Login name</label>
          <input
            id="new-manager-name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            autoComplete="off"
            aria-invalid={errors.name ? true : undefined}
            aria-describedby={errors.name ? 'new-manager-name-error' : undefined}
          />
          {errors.name ? (
            <span id="new-manager-name-error" className="field-error" role="alert">
              {errors.name}
            </span>
          ) : null}
        </div>
        <div className="field">
          <label htmlFor="new-manager-role">Sees</label>
          <select
            id="new-manager-role"
            value={role}
            onChange={(e) => setRole(e.target.value === 'head-office' ? 'head-office' : 'branch')}
          >
            <option value="branch">One branch</option>
            <option value="head-office">Every branch (head office)</option>
          </select>
        </div>
        {role === 'branch' ? (
          <div className="field">
            <label htmlFor="new-manager-branch">Branch (merchant id)</label>
            <input
              id="new-manager-branch"
              list="manager-branches"
              value={branch}
              onChange={(e) => setBranch(e.target.value)}
              autoComplete="off"
              aria-invalid={errors.branch ? true : undefined}
              aria-describedby={errors.branch ? 'new-manager-branch-error' : undefined}
            />
            <datalist id="manager-branches">
              {branches.map((b) => (
                <option key={b.branch} value={b.branch}>
                  {label(b.branch)}
                </option>
              ))}
            </datalist>
            {errors.branch ? (
              <span id="new-manager-branch-error" className="field-error" role="alert">
                {errors.branch}
              </span>
            ) : null}
          </div>
        ) : null}
        <div className="actions">
          <button className="primary" type="submit" disabled={busy}>
            {busy ? 'Adding…' : 'Add the manager'}
          </button>
        </div>
      </form>
      <p className="hint">
        Their first password is made here and shown once below, for you to hand over; they then choose their own.
      </p>
      {problem ? <Banner tone="bad">{problem}</Banner> : null}
      {added ? <OneTimePassword name={added.name} password={added.password} onHide={() => setAdded(null)} /> : null}
    </section>
  );
}
