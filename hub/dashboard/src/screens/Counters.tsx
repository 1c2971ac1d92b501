// Counters: each counter in view with its last contact, version, profile, queue and clock; issue an
// enrollment code for a new counter; revoke one (confirmed first: it must be enrolled again after).
import { useBranchLabel } from '../branch-names';
import { BranchNames } from '../components/BranchNames';
import { useState, type FormEvent } from 'react';
import {
  CountersViewSchema,
  DashIssueCodeResponseSchema,
  type DashCounter,
} from '../../../../shared/hub-dashboard-contract';
import { api, errorText } from '../api';
import { Banner, Loading, ScreenTitle } from '../components/bits';
import { agoText, clockOffsetText, formatCount, lagosDayTime } from '../format';
import { branchQuery, useDash } from '../store';
import { useLoad, useNow } from '../use-load';
import { z } from 'zod';

const Revoked = z.object({ revoked: z.string() });

function IssueCode({
  headOffice,
  branch,
  branches,
}: {
  headOffice: boolean;
  branch: string | null;
  branches: string[];
}) {
  const [ttl, setTtl] = useState('60');
  const [forBranch, setForBranch] = useState(branch ?? '');
  const [code, setCode] = useState<z.infer<typeof DashIssueCodeResponseSchema> | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      setCode(
        await api.post('/counters/enroll-codes', DashIssueCodeResponseSchema, {
          ttlMinutes: Number(ttl),
          branch: headOffice ? forBranch.trim() || null : null,
        }),
      );
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  }
  return (
    <section className="card" aria-labelledby="enroll-title">
      <h2 id="enroll-title">Add a counter</h2>
      <p className="hint">
        Issue a one-time code; on the new counter, type it in Settings → Hub with this Hub's address.
      </p>
      <p className="hint" data-testid="code-names-hint">
        Each counter's name must give its own code, the start of its sale numbers: &ldquo;Ikeja 1&rdquo; makes IKE1-…,
        so a second &ldquo;Counter 1&rdquo; (COU1) in another branch is refused. Revoking a counter frees its code.
      </p>
      <form onSubmit={submit} className="filter-grid">
        <div className="field">
          <label htmlFor="code-ttl">Code valid for</label>
          <select id="code-ttl" value={ttl} onChange={(e) => setTtl(e.target.value)}>
            <option value="15">15 minutes</option>
            <option value="60">1 hour</option>
            <option value="240">4 hours</option>
            <option value="1440">1 day</option>
          </select>
        </div>
        {headOffice ? (
          <div className="field">
            <label htmlFor="code-branch">For branch (merchant id)</label>
            <input
              id="code-branch"
              list="known-branches"
              value={forBranch}
              onChange={(e) => setForBranch(e.target.value)}
              placeholder="its merchant id"
              required
            />
            <datalist id="known-branches">
              {branches.map((b) => (
                <option key={b} value={b} />
              ))}
            </datalist>
          </div>
        ) : (
          <p className="hint">The code enrolls a counter of branch {branch} only.</p>
        )}
        <div className="actions">
          <button className="primary" type="submit" disabled={busy}>
            {busy ? 'Issuing…' : 'Issue a code'}
          </button>
        </div>
      </form>
      {error ? <Banner tone="bad">{error}</Banner> : null}
      {code ? (
        <div className="code-box" role="status" data-testid="enroll-code">
          <span className="hint">
            Enrollment code{code.branch ? ` for branch ${code.branch} only` : ' (any branch)'}: one use, until{' '}
            {lagosDayTime(code.expiresAt)}
          </span>
          <output className="code">{code.code}</output>
        </div>
      ) : null}
    </section>
  );
}

function CounterRow({
  c,
  now,
  headOffice,
  onRevoked,
}: {
  c: DashCounter;
  now: number;
  headOffice: boolean;
  onRevoked: () => void;
}) {
  const label = useBranchLabel();
  const [confirm, setConfirm] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const status =
    c.revokedAt !== null
      ? { t: 'Revoked', tone: 'bad' }
      : c.online
        ? { t: 'Online', tone: 'good' }
        : { t: 'Offline', tone: 'warn' };
  async function revoke() {
    try {
      await api.post(`/counters/${encodeURIComponent(c.id)}/revoke`, Revoked);
      setConfirm(false);
      onRevoked();
    } catch (e) {
      setError(errorText(e));
    }
  }
  return (
    <li className="card counter" data-counter={c.name} data-status={status.t.toLowerCase()}>
      <div className="shift-head">
        <span className="pill" data-tone={status.tone}>
          {status.t}
        </span>
        <strong>{c.name}</strong>
        {headOffice ? <span className="hint">{label(c.branch)}</span> : null}
        {c.profile ? (
          <span className="pill" data-tone={c.profile === 'production' ? undefined : 'info'}>
            {c.profile}
          </span>
        ) : null}
      </div>
      <dl className="shift-facts">
        <div>
          <dt>Last seen</dt>
          <dd>{c.lastSeenAt === null ? 'never' : agoText(c.lastSeenAt, now)}</dd>
        </div>
        <div>
          <dt>Last sync</dt>
          <dd>{c.lastSyncAt === null ? 'never' : agoText(c.lastSyncAt, now)}</dd>
        </div>
        <div>
          <dt>Version</dt>
          <dd>{c.appVersion ?? '—'}</dd>
        </div>
        <div>
          <dt>Waiting to send</dt>
          <dd>{c.queueLength === null ? '—' : formatCount(c.queueLength)}</dd>
        </div>
        <div>
          <dt>Open payments</dt>
          <dd>{c.openPayments === null ? '—' : formatCount(c.openPayments)}</dd>
        </div>
        <div>
          <dt>Clock</dt>
          <dd data-off={(c.clockOffsetMs !== null && Math.abs(c.clockOffsetMs) >= 60_000) || undefined}>
            {clockOffsetText(c.clockOffsetMs)}
          </dd>
        </div>
        <div>
          <dt>Enrolled</dt>
          <dd>{lagosDayTime(c.enrolledAt)}</dd>
        </div>
      </dl>
      {c.revokedAt !== null ? (
        <p className="hint">
          Revoked {lagosDayTime(c.revokedAt)}: its calls are refused. To use it again, enroll it with a new code.
        </p>
      ) : confirm ? (
        <div role="group" aria-label={`Revoke ${c.name}?`} className="confirm">
          <p>
            <strong>Revoke {c.name}?</strong> Its next call to the Hub is refused and it stops syncing. Sales on it go
            on, but the Hub no longer sees them until it is enrolled again with a new code.
          </p>
          <div className="actions">
            <button type="button" className="danger" autoFocus onClick={() => void revoke()}>
              Revoke {c.name}
            </button>
            <button type="button" onClick={() => setConfirm(false)}>
              Keep it
            </button>
          </div>
        </div>
      ) : (
        <button type="button" onClick={() => setConfirm(true)}>
          Revoke…
        </button>
      )}
      {error ? <Banner tone="bad">{error}</Banner> : null}
    </li>
  );
}

export function CountersScreen() {
  const session = useDash((s) => s.session);
  const route = useDash((s) => s.route);
  const q = branchQuery({ session, route });
  const r = useLoad(`counters?${q}`, () => api.get('/counters', CountersViewSchema, q));
  const now = useNow(30_000);
  const headOffice = session?.manager.role === 'head-office';
  const list = r.data?.counters ?? [];
  return (
    <section className="screen" aria-labelledby="screen-title">
      <ScreenTitle
        aside={
          <button type="button" onClick={r.reload}>
            Refresh
          </button>
        }
      >
        <span id="screen-title">Counters</span>
      </ScreenTitle>
      {r.error ? <Banner tone="bad">{r.error}</Banner> : null}
      {r.data && !r.data.relayVerifies ? (
        <Banner tone="bad" testId="relay-off">
          <strong>The Hub is not passing on payment notifications: give it the merchant file.</strong>{' '}
          {headOffice
            ? "Restart the Hub with --merchant-config FILE (the clientAuthKey and the provider's public key). Until then each counter checks its payments itself, which takes up to about 20 seconds."
            : 'Tell head office. Until then each counter checks its payments itself, which takes up to about 20 seconds.'}
        </Banner>
      ) : null}
      {!r.data ? (
        r.error ? null : (
          <Loading what="the counters" />
        )
      ) : list.length === 0 ? (
        <p className="hint">No counter has joined yet.</p>
      ) : (
        <ul className="counter-list" data-testid="counter-list">
          {list.map((c) => (
            <CounterRow key={c.id} c={c} now={now} headOffice={headOffice} onRevoked={r.reload} />
          ))}
        </ul>
      )}
      {headOffice ? <BranchNames counterBranches={[...new Set(list.map((c) => c.branch))]} /> : null}
      <IssueCode
        headOffice={headOffice}
        branch={headOffice ? route.query.get('branch') : (session?.manager.branch ?? null)}
        branches={[...new Set(list.map((c) => c.branch))]}
      />
    </section>
  );
}
