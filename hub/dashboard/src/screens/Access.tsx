// First login (from the setup link `npm run hub` prints: the token is in the #fragment) and login.
// A refusal is said plainly, with the wait counting down when the Hub asks us to wait.
import { useState, type FormEvent } from 'react';
import { SessionViewSchema } from '../../../../shared/hub-dashboard-contract';
import { api, ApiError, errorText } from '../api';
import { Banner } from '../components/bits';
import { loginRefusal, waitText } from '../format';
import { useDash } from '../store';
import { useNow } from '../use-load';

function AccessFrame({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <main className="access">
      <div className="access-card card">
        <p className="brand">
          <span className="brand-mark" aria-hidden="true">
            ₦
          </span>
          CounterPay Hub
        </p>
        <h1>{title}</h1>
        {children}
      </div>
    </main>
  );
}

export function LoginScreen() {
  const signedIn = useDash((s) => s.signedIn);
  const reason = useDash((s) => s.loggedOutReason);
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<{
    code: string;
    message: string;
    retryAfterMs: number | null;
    at: number;
  } | null>(null);
  const now = useNow(1000);
  const waitLeft = refusal?.retryAfterMs != null ? refusal.at + refusal.retryAfterMs - now : 0;

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    try {
      signedIn(await api.post('/login', SessionViewSchema, { name, password }, true));
    } catch (err) {
      setRefusal(
        err instanceof ApiError
          ? { code: err.code, message: err.message, retryAfterMs: err.retryAfterMs, at: Date.now() }
          : { code: 'X', message: errorText(err), retryAfterMs: null, at: Date.now() },
      );
      setPassword('');
    } finally {
      setBusy(false);
    }
  }

  let message: string | null = null;
  if (refusal) {
    if (refusal.retryAfterMs != null && waitLeft > 0) message = loginRefusal({ ...refusal, retryAfterMs: waitLeft });
    else if (refusal.retryAfterMs != null) message = 'You may try again now.';
    else message = refusal.message;
  }

  return (
    <AccessFrame title="Manager login">
      {reason ? (
        <Banner tone="info" testId="logged-out-reason">
          {reason}
        </Banner>
      ) : null}
      <form onSubmit={submit} className="stack" aria-describedby={message ? 'login-message' : undefined}>
        <div className="field">
          <label htmlFor="login-name">Manager name</label>
          <input
            id="login-name"
            autoComplete="username"
            value={name}
            onChange={(e) => setName(e.target.value)}
            autoFocus
            required
          />
        </div>
        <div className="field">
          <label htmlFor="login-password">Password</label>
          <input
            id="login-password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            required
          />
        </div>
        {message ? (
          <div id="login-message">
            <Banner tone={refusal?.retryAfterMs != null && waitLeft <= 0 ? 'info' : 'bad'} testId="login-message">
              {message}
            </Banner>
          </div>
        ) : null}
        <button className="primary" type="submit" disabled={busy || waitLeft > 0}>
          {busy ? 'Checking…' : waitLeft > 0 ? `Wait ${waitText(waitLeft)}` : 'Log in'}
        </button>
      </form>
      <p className="hint">
        No account yet? Head office creates one (<code>npm run hub -- create-manager NAME</code>).
      </p>
    </AccessFrame>
  );
}

export function SetupScreen() {
  const signedIn = useDash((s) => s.signedIn);
  const navigate = useDash((s) => s.navigate);
  const token = /^#setup=([A-Za-z0-9_-]+)$/.exec(location.hash)?.[1] ?? '';
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (password !== again) {
      setError('The two passwords differ: type the same password twice.');
      return;
    }
    setBusy(true);
    try {
      const s = await api.post('/setup', SessionViewSchema, { token, name, password }, true);
      // The token is used up: take it out of the address bar and the history.
      navigate('/dashboard/today', true);
      signedIn(s);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <AccessFrame title="First start: create the head-office manager">
      <p>
        This link works once, for 60 minutes after the Hub started. The manager you create here sees every branch and
        can add branch managers.
      </p>
      <form onSubmit={submit} className="stack">
        <div className="field">
          <label htmlFor="setup-name">Your manager name</label>
          <input
            id="setup-name"
            autoComplete="username"
            value={name}
            onChange={(e) => setName(e.target.value)}
            autoFocus
            required
            minLength={2}
            maxLength={60}
          />
          <span className="hint">Letters, digits, spaces and . _ @ - (2 to 60 characters).</span>
        </div>
        <div className="field">
          <label htmlFor="setup-password">Password (at least 10 characters)</label>
          <input
            id="setup-password"
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            required
            minLength={10}
          />
        </div>
        <div className="field">
          <label htmlFor="setup-again">Same password again</label>
          <input
            id="setup-again"
            type="password"
            autoComplete="new-password"
            value={again}
            onChange={(e) => setAgain(e.target.value)}
            required
            minLength={10}
          />
        </div>
        {error ? (
          <Banner tone="bad" testId="setup-message">
            {error}
          </Banner>
        ) : null}
        <button className="primary" type="submit" disabled={busy}>
          {busy ? 'Creating…' : 'Create and log in'}
        </button>
      </form>
      <p className="hint">
        Link already used? <a href="/dashboard/">Log in</a> instead.
      </p>
    </AccessFrame>
  );
}
