// Always-visible facts a cashier needs: profile, provider (measured: checking / online /
// unreachable / refusing), this computer's clock when it is off, terminal, queue, the Hub link, and a full disk
// before it stops sales. When the provider is not online, a second line says what it said and
// what to do, with Check now.
import { useEffect, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { StatusSnapshot } from '../../../shared/contract';
import { PROFILE_LABELS } from '../../../shared/settings';
import { useApp } from '../stores/app-store';
import { useShift } from '../stores/shift-store';
import { terminalVerdict } from '../stores/terminal-verdict';
import { HUB_PILL_TONE, hubPillHint, hubPillText } from '../stores/hub-link-text';
import { call } from '../transport/bridge';
import { LateCountPill } from './LatePaymentAlert';

type Provider = StatusSnapshot['provider'];

const PROVIDER_TEXT: Record<Provider['state'], string> = {
  checking: 'Provider: checking…',
  online: 'Provider: online',
  unreachable: 'Provider: unreachable',
  refusing: 'Provider: refusing our requests',
  'not-configured': 'Provider: not set up',
  'sandbox-not-running': 'Sandbox not running',
};

const PROVIDER_TONE: Record<Provider['state'], string> = {
  checking: 'info',
  online: 'good',
  unreachable: 'bad',
  refusing: 'bad',
  'not-configured': 'warn',
  'sandbox-not-running': 'warn',
};

function ProviderAlert({ provider }: { provider: Provider }) {
  const [busy, setBusy] = useState(false);
  // The provider's own words, unless the detail already quotes them.
  const said =
    provider.code && !provider.detail.includes(`code ${provider.code}`)
      ? `Provider said: code ${provider.code}${provider.providerMessage ? ` "${provider.providerMessage}"` : ''}.`
      : '';
  const check = async () => {
    setBusy(true);
    try {
      const status = await call('status.checkProvider', {});
      useApp.setState({ status });
    } catch {
      // The status bar shows the probe's own verdict through status.changed.
    } finally {
      setBusy(false);
    }
  };
  return (
    <div
      className="statusbar-alert"
      role="status"
      data-testid="provider-alert"
      data-tone={PROVIDER_TONE[provider.state]}
    >
      <p>
        <strong>{provider.detail}</strong>
        {said && <span data-testid="provider-said"> {said}</span>}
      </p>
      {provider.action && <p data-testid="provider-action">What to do: {provider.action}</p>}
      {(provider.state === 'unreachable' || provider.state === 'refusing') && (
        <button type="button" onClick={() => void check()} disabled={busy}>
          {busy ? 'Checking…' : 'Check now'}
        </button>
      )}
    </div>
  );
}

/** Whose shift is open, or a red "No shift open" that opens the Shift screen (Alt+4): nothing is charged without one. */
function ShiftPill() {
  const { loaded, current, load } = useShift(
    useShallow((s) => ({ loaded: s.loaded, current: s.current, load: s.load })),
  );
  const go = useApp((s) => s.go);
  useEffect(() => {
    if (!loaded) void load();
  }, [loaded, load]);
  if (!loaded) return null;
  if (current) {
    return (
      <span className="pill" data-tone="good" data-testid="shift-pill">
        Shift: {current.cashier}
      </span>
    );
  }
  return (
    <button
      type="button"
      className="pill pill-button"
      data-tone="bad"
      data-testid="shift-pill"
      onClick={() => go('shift')}
    >
      No shift open · Alt+4
    </button>
  );
}

export function StatusBar() {
  const { status, connected } = useApp(useShallow((s) => ({ status: s.status, connected: s.connected })));
  if (!status) return <footer className="statusbar">Connecting…</footer>;
  const { provider, clock } = status;
  // The same verdict as the Terminal box: green only with a serial number to charge on.
  const terminal = terminalVerdict({ status: status.terminal.state, sn: status.terminal.sn });
  const terminalText =
    terminal.tone === 'good'
      ? `Terminal ${status.terminal.sn ?? ''}`.trim()
      : `Terminal: ${terminal.text.toLowerCase()}`;
  const alert = provider.state === 'unreachable' || provider.state === 'refusing';
  return (
    <footer className="statusbar" aria-label="Status">
      <span className="pill" data-tone={status.profile === 'production' ? 'good' : 'info'}>
        {PROFILE_LABELS[status.profile]} · {status.counterName}
      </span>
      <span
        className="pill"
        data-tone={PROVIDER_TONE[provider.state]}
        title={provider.detail}
        data-testid="provider-pill"
      >
        {PROVIDER_TEXT[provider.state]}
      </span>
      {clock.detail && (
        <span
          className="pill"
          data-tone={clock.correcting ? 'warn' : 'bad'}
          title={clock.detail}
          data-testid="clock-pill"
        >
          {clock.correcting ? 'Clock off: corrected' : 'Clock off: fix the date and time'}
        </span>
      )}
      <span
        className="pill"
        data-tone={terminal.tone}
        title={terminal.next ?? status.terminal.detail}
        data-testid="terminal-pill"
      >
        {terminalText}
      </span>
      <LateCountPill />
      <ShiftPill />
      <span className="pill" data-tone={status.queue.length > 0 ? 'warn' : 'neutral'}>
        Queue: {status.queue.length}
        {status.queue.online ? '' : ' · offline'}
      </span>
      <span
        className="pill"
        data-tone={HUB_PILL_TONE[status.hub.state]}
        title={hubPillHint(status.hub)}
        data-testid="hub-pill"
      >
        {hubPillText(status.hub)}
      </span>
      {status.disk.state === 'low' && (
        <span className="pill" data-tone="bad" role="status" title={status.disk.detail}>
          Disk almost full: {Math.floor((status.disk.freeBytes ?? 0) / (1024 * 1024))} MB free
        </span>
      )}
      {!connected && (
        <span className="pill" data-tone="bad" role="alert">
          Lost contact with CounterPay, reconnecting…
        </span>
      )}
      {alert && <ProviderAlert provider={provider} />}
      {clock.detail && !alert && (
        <div
          className="statusbar-alert"
          role="status"
          data-testid="clock-alert"
          data-tone={clock.correcting ? 'warn' : 'bad'}
        >
          <p>{clock.detail}</p>
        </div>
      )}
    </footer>
  );
}
