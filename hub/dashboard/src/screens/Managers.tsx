// Managers (head office): every manager account with its branch, state, last login and open sessions;
// disable or enable one, set a new password (shown once, to hand over), remove one who left (confirmed
// by name), see and end their sessions; add a manager. Each refusal of the Hub is shown on the manager
// or the field it concerns.
import { useState } from 'react';
import { z } from 'zod';
import { ManagersListSchema, type ManagerRosterEntry } from '../../../../shared/hub-dashboard-contract';
import { api, errorText } from '../api';
import { useBranchLabel } from '../branch-names';
import { Banner, Link, Loading, ScreenTitle } from '../components/bits';
import { AddManager } from '../components/AddManager';
import { ManagerSessions } from '../components/ManagerSessions';
import { OneTimePassword } from '../components/OneTimePassword';
import { agoText, formatCount, lagosDayTime } from '../format';
import { managerState, managerWhere, newOneTimePassword } from '../manager-view';
import { BASE, useDash } from '../store';
import { useLoad, useNow } from '../use-load';
import '../managers.css';

const Done = z.object({ sessionsEnded: z.number().int().optional() }).passthrough();
type Asking = 'remove' | 'reset' | null;

function ManagerCard({
  m,
  me,
  now,
  onChanged,
}: {
  m: ManagerRosterEntry;
  me: boolean;
  now: number;
  onChanged: () => void;
}) {
  const label = useBranchLabel();
  const [asking, setAsking] = useState<Asking>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [otp, setOtp] = useState<string | null>(null);
  const [showSessions, setShowSessions] = useState(false);
  const state = managerState(m);
  const base = `/managers/${encodeURIComponent(m.id)}`;

  async function act(what: 'disable' | 'enable' | 'remove' | 'reset-password') {
    setBusy(true);
    setError(null);
    try {
      if (what === 'reset-password') {
        const password = newOneTimePassword();
        await api.post(`${base}/reset-password`, Done, { password });
        setOtp(password);
      } else {
        await api.post(`${base}/${what}`, Done);
      }
      setAsking(null);
      onChanged();
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <li className="card manager" data-manager={m.name} data-state={state.label.toLowerCase()}>
      <div className="shift-head">
        <span className="pill" data-tone={state.tone}>
          {state.label}
        </span>
        <strong className="manager-name">{m.name}</strong>
        <span className="hint">{managerWhere(m, label)}</span>
        {me ? (
          <span className="pill" data-tone="info">
            You
          </span>
        ) : null}
      </div>
      <dl className="shift-facts">
        <div>
          <dt>Last login</dt>
          <dd data-testid="last-login">
            {m.lastLoginAt === null ? 'never' : `${lagosDayTime(m.lastLoginAt)} (${agoText(m.lastLoginAt, now)})`}
          </dd>
        </div>
        <div>
          <dt>From</dt>
          <dd>{m.lastLoginAddress ?? '—'}</dd>
        </div>
        <div>
          <dt>Open sessions</dt>
          <dd data-testid="open-sessions">{formatCount(m.sessions)}</dd>
        </div>
        <div>
          <dt>Account since</dt>
          <dd>{lagosDayTime(m.createdAt)}</dd>
        </div>
      </dl>
      {otp ? <OneTimePassword name={m.name} password={otp} onHide={() => setOtp(null)} /> : null}
      {asking === 'remove' ? (
        <div role="group" aria-label={`Remove ${m.name}?`} className="confirm">
          <p>
            <strong>Remove {m.name}?</strong> They can no longer log in, and every session of theirs ends now. The audit
            log keeps their name; the name is free for a new account. This cannot be undone: to let them back, create a
            new account.
          </p>
          <div className="actions">
            <button type="button" className="danger" autoFocus disabled={busy} onClick={() => void act('remove')}>
              Remove {m.name}
            </button>
            <button type="button" onClick={() => setAsking(null)}>
              Keep {m.name}
            </button>
          </div>
        </div>
      ) : asking === 'reset' ? (
        <div role="group" aria-label={`Set a new password for ${m.name}?`} className="confirm">
          <p>
            <strong>Set a new password for {m.name}?</strong> Their password stops working and every session of theirs
            ends now. The new password is shown here once, for you to hand over.
          </p>
          <div className="actions">
            <button
              type="button"
              className="danger"
              autoFocus
              disabled={busy}
              onClick={() => void act('reset-password')}
            >
              Set a new password for {m.name}
            </button>
            <button type="button" onClick={() => setAsking(null)}>
              Cancel
            </button>
          </div>
        </div>
      ) : me ? (
        <p className="hint">
          This is your own account: another head-office manager disables or removes it.{' '}
          <Link to={`${BASE}account`}>Change my password</Link>.
        </p>
      ) : (
        <div className="actions">
          {m.disabled ? (
            <button type="button" disabled={busy} onClick={() => void act('enable')}>
              Enable {m.name}
            </button>
          ) : (
            <button type="button" disabled={busy} onClick={() => void act('disable')}>
              Disable {m.name}
            </button>
          )}
          <button type="button" onClick={() => setAsking('reset')}>
            Set a new password…
          </button>
          <button type="button" className="danger-quiet" onClick={() => setAsking('remove')}>
            Remove…
          </button>
        </div>
      )}
      <div className="actions sessions-toggle">
        <button type="button" aria-expanded={showSessions} onClick={() => setShowSessions(!showSessions)}>
          {showSessions ? 'Hide sessions' : `Sessions (${formatCount(m.sessions)})`}
        </button>
      </div>
      {showSessions ? <ManagerSessions m={m} onEnded={onChanged} /> : null}
      {error ? (
        <Banner tone="bad" testId="manager-error">
          {error}
        </Banner>
      ) : null}
    </li>
  );
}

export function ManagersScreen() {
  const session = useDash((s) => s.session)!;
  const headOffice = session.manager.role === 'head-office';
  const r = useLoad(`managers:${headOffice}`, () =>
    headOffice ? api.get('/managers', ManagersListSchema) : Promise.resolve({ managers: [] }),
  );
  const now = useNow(30_000);
  if (!headOffice) {
    return (
      <section className="screen" aria-labelledby="screen-title">
        <ScreenTitle>
          <span id="screen-title">Managers</span>
        </ScreenTitle>
        <Banner tone="info">
          Only head office manages manager accounts. To change your own password, open{' '}
          <Link to={`${BASE}account`}>My account</Link>.
        </Banner>
      </section>
    );
  }
  const list = r.data?.managers ?? [];
  const disabled = list.filter((m) => m.disabled).length;
  return (
    <section className="screen" aria-labelledby="screen-title">
      <ScreenTitle
        aside={
          <button type="button" onClick={r.reload}>
            Refresh
          </button>
        }
      >
        <span id="screen-title">Managers</span>
      </ScreenTitle>
      <p className="hint">
        {formatCount(list.length)} manager account{list.length === 1 ? '' : 's'}
        {disabled ? `, ${formatCount(disabled)} disabled` : ''}. When a manager leaves, remove their account: it ends
        their sessions at once.
      </p>
      {r.error ? <Banner tone="bad">{r.error}</Banner> : null}
      {!r.data ? (
        r.error ? null : (
          <Loading what="the managers" />
        )
      ) : (
        <ul className="manager-list" data-testid="manager-list">
          {list.map((m) => (
            <ManagerCard key={m.id} m={m} me={m.id === session.manager.id} now={now} onChanged={r.reload} />
          ))}
        </ul>
      )}
      <AddManager onAdded={r.reload} />
    </section>
  );
}
