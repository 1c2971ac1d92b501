// Head office names each branch (Counters screen): one field per branch a counter joined with.
import { useState, type FormEvent } from 'react';
import { BranchesViewSchema, BranchNameSchema, type BranchView } from '../../../../shared/hub-branches-contract';
import { api, errorText } from '../api';
import { useBranchNames } from '../branch-names';
import { Banner } from './bits';

function BranchNameForm({ b }: { b: BranchView }) {
  const [name, setName] = useState(b.name ?? '');
  const [msg, setMsg] = useState<{ tone: 'good' | 'bad'; text: string } | null>(null);
  const save = async (e: FormEvent) => {
    e.preventDefault();
    const ok = BranchNameSchema.safeParse(name);
    if (!ok.success) return setMsg({ tone: 'bad', text: `Name of ${b.branch}: ${ok.error.issues[0]?.message ?? 'not a name'}.` });
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
          <label htmlFor={`bn-${b.branch}`}>Name of branch <code>{b.branch}</code></label>
          <input id={`bn-${b.branch}`} value={name} maxLength={60} onChange={(e) => setName(e.target.value)} autoComplete="off" placeholder="e.g. Ikeja City Mall" />
        </div>
        <button type="submit">Save name</button>
      </form>
      {msg ? <Banner tone={msg.tone}>{msg.text}</Banner> : null}
    </li>
  );
}

export function BranchNames() {
  const list = useBranchNames((s) => s.list);
  return (
    <section className="card" aria-labelledby="branch-names-title" data-testid="branch-names">
      <h2 id="branch-names-title">Branch names</h2>
      <p className="hint">The name every screen shows for a branch instead of its merchant id.</p>
      {list.length === 0 ? <p className="hint">No counter has joined yet.</p> : (
        <ul className="branch-name-list">{list.map((b) => <BranchNameForm key={b.branch} b={b} />)}</ul>
      )}
    </section>
  );
}
