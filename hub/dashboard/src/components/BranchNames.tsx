// Head office names each branch (Counters screen): one field per branch a counter joined with.
import { useEffect, useState, type FormEvent } from 'react';
import { BranchesViewSchema, BranchNameSchema, type BranchView } from '../../../../shared/hub-branches-contract';
import { api, errorText } from '../api';
import { refreshBranchNames, useBranchNames } from '../branch-names';
import { Banner } from './bits';

function BranchNameForm({ b }: { b: BranchView }) {
  const [name, setName] = useState(b.name ?? '');
  const [msg, setMsg] = useState<{ tone: 'good' | 'bad'; text: string } | null>(null);
  const save = async (e: FormEvent) => {
    e.preventDefault();
    const ok = BranchNameSchema.safeParse(name);
    if (!ok.success)
      return setMsg({ tone: 'bad', text: `Name of ${b.branch}: ${ok.error.issues[0]?.message ?? 'not a name'}.` });
    try {
      const v = await api.put(`/branches/${encodeURIComponent(b.branch)}`, BranchesViewSchema, { name: ok.data });
      useBranchNames.getState().set(v.branches);
      setName(ok.data);
      setMsg({ tone: 'good', text: `Saved: ${b.branch} is now “${ok.data}”.` });
    } catch (err) {
      setMsg({ tone: 'bad', text: errorText(err) });
    }
  };
  return (
    <li className="branch-name" data-branch-id={b.branch}>
      <form onSubmit={(e) => void save(e)} className="branch-name-form">
        <div className="field">
          <label htmlFor={`bn-${b.branch}`}>
            Name of branch <code>{b.branch}</code>
          </label>
          <input
            id={`bn-${b.branch}`}
            value={name}
            maxLength={60}
            onChange={(e) => setName(e.target.value)}
            autoComplete="off"
            placeholder="e.g. Ikeja City Mall"
          />
        </div>
        <button type="submit">Save name</button>
      </form>
      {msg ? <Banner tone={msg.tone}>{msg.text}</Banner> : null}
    </li>
  );
}

/** `counterBranches`: the branches of the counters listed beside it; one the names do not know yet (a counter joined since they were read) reads them again. */
export function BranchNames({ counterBranches }: { counterBranches: readonly string[] }) {
  const list = useBranchNames((s) => s.list);
  const missing = counterBranches.filter((b) => !list.some((x) => x.branch === b)).join(' ');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (missing)
      refreshBranchNames().then(
        () => setError(null),
        (e) => setError(errorText(e)),
      );
  }, [missing]);
  return (
    <section className="card" aria-labelledby="branch-names-title" data-testid="branch-names">
      <h2 id="branch-names-title">Branch names</h2>
      <p className="hint">The name every screen shows for a branch instead of its merchant id.</p>
      {error ? <Banner tone="bad">Could not read the branches: {error}</Banner> : null}
      {list.length === 0 ? (
        <p className="hint">{counterBranches.length === 0 ? 'No counter has joined yet.' : 'Reading the branches…'}</p>
      ) : (
        <ul className="branch-name-list">
          {list.map((b) => (
            <BranchNameForm key={b.branch} b={b} />
          ))}
        </ul>
      )}
    </section>
  );
}
