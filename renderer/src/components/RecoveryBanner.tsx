// What CounterPay repaired or set aside when it started (a settings file that could not be read,
// a damaged journal, a restore): shown on every screen until someone presses "Understood".
import { useEffect } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useApp } from '../stores/app-store';
import { useBackups } from '../stores/backups-store';
import { formatLagosDateTime } from '../format';
import { Banner } from './Banner';
import '../backups.css';

const TITLE = {
  'settings-restored': 'Settings were repaired',
  'settings-reset': 'Settings were reset',
  'keys-restored': 'Keys were repaired',
  'keys-reset': 'Keys must be entered again',
  'journal-damaged': 'The sales journal was damaged',
  'restore-finished': 'A backup was restored',
} as const;

export function RecoveryBanner() {
  const { notices, loadNotices, dismissNotices } = useBackups(
    useShallow((s) => ({ notices: s.notices, loadNotices: s.loadNotices, dismissNotices: s.dismissNotices })),
  );
  const go = useApp((s) => s.go);
  useEffect(() => {
    void loadNotices();
  }, [loadNotices]);
  if (notices.length === 0) return null;
  const bad = notices.some((n) => n.kind === 'journal-damaged' || n.kind.endsWith('-reset'));
  return (
    <Banner
      as="section"
      className="recovery-banner"
      tone={bad ? 'bad' : 'warn'}
      role="alert"
      aria-label="What CounterPay repaired at start"
    >
      {notices.map((n) => (
        <div key={`${n.kind}-${n.at}`} className="recovery-item">
          <h2>{TITLE[n.kind]}</h2>
          <p>{n.message}</p>
          {n.keptAs && (
            <p className="recovery-kept">
              Kept as: <code>{n.keptAs}</code> · {formatLagosDateTime(n.at)}
            </p>
          )}
        </div>
      ))}
      <div className="actions">
        {notices.some((n) => n.kind === 'journal-damaged') && (
          <button type="button" onClick={() => go('settings')}>
            Open Settings → Backups
          </button>
        )}
        <button type="button" onClick={() => void dismissNotices()}>
          Understood
        </button>
      </div>
    </Banner>
  );
}
