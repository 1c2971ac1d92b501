// Always-visible facts a cashier needs: profile, provider reachability, terminal, queue, and a
// full disk before it stops sales.
import { useShallow } from 'zustand/react/shallow';
import { PROFILE_LABELS } from '../../../shared/settings';
import { useApp } from '../stores/app-store';

const PROVIDER_TEXT = {
  unknown: 'Provider: not connected yet',
  reachable: 'Provider: online',
  unreachable: 'Provider: OFFLINE',
  'not-configured': 'Provider: not set up',
  'sandbox-not-running': 'Sandbox not running',
} as const;

export function StatusBar() {
  const { status, connected } = useApp(useShallow((s) => ({ status: s.status, connected: s.connected })));
  if (!status) return <footer className="statusbar">Connecting…</footer>;
  const providerTone = status.provider.state === 'reachable' ? 'good' : status.provider.state === 'unreachable' ? 'bad' : 'warn';
  const terminalText =
    status.terminal.state === 'connected' || status.terminal.state === 'manual'
      ? `Terminal ${status.terminal.sn ?? ''}`.trim()
      : status.terminal.state === 'connecting'
        ? 'Terminal: connecting…'
        : 'Terminal: not connected yet';
  return (
    <footer className="statusbar" aria-label="Status">
      <span className="pill" data-tone={status.profile === 'production' ? 'good' : 'info'}>
        {PROFILE_LABELS[status.profile]} · {status.counterName}
      </span>
      <span className="pill" data-tone={providerTone} title={status.provider.detail}>
        {PROVIDER_TEXT[status.provider.state]}
      </span>
      <span className="pill" data-tone={status.terminal.state === 'connected' || status.terminal.state === 'manual' ? 'good' : 'warn'} title={status.terminal.detail}>
        {terminalText}
      </span>
      <span className="pill" data-tone={status.queue.length > 0 ? 'warn' : 'neutral'}>
        Queue: {status.queue.length}
        {status.queue.online ? '' : ' · offline'}
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
    </footer>
  );
}
