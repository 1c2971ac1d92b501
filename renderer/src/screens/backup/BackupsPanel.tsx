// Settings → Backups: when the journal was last backed up, its size and place, "Back up now", a
// second folder (USB disk, network share), and "Restore…" with the admin PIN typed again.
import { useState, type FormEvent } from 'react';
import { useOnMount } from '../../components/useOnChange';
import { useShallow } from 'zustand/react/shallow';
import type { BackupInfo } from '../../../../shared/backups';
import { Banner, outcome } from '../../components/Banner';
import { Field } from '../../components/Field';
import { formatLagosDateTime, formatSize } from '../../format';
import { useBackups } from '../../stores/backups-store';
import '../../backups.css';

const REASON = {
  scheduled: 'Every few hours',
  'shift-close': 'Shift closed',
  manual: 'Backed up by hand',
  'before-restore': 'Before a restore',
} as const;
const PLACE = { main: 'Data folder', second: 'Second folder' } as const;

export function BackupsPanel() {
  const b = useBackups(
    useShallow((s) => ({
      view: s.view,
      busy: s.busy,
      message: s.message,
      load: s.load,
      backupNow: s.backupNow,
      restore: s.restore,
      setSecondFolder: s.setSecondFolder,
    })),
  );
  const [choosing, setChoosing] = useState<BackupInfo | null>(null);
  const [pin, setPin] = useState('');
  const [folder, setFolder] = useState<string | null>(null);

  useOnMount(() => {
    void b.load();
  });

  if (!b.view)
    return (
      <section className="card" aria-labelledby="backups-title">
        <h2 id="backups-title">Backups</h2>
        <p>Loading…</p>
      </section>
    );
  const v = b.view;
  const last = v.backups.find((x) => x.place === 'main') ?? null;
  const folderValue = folder ?? v.secondFolder ?? '';

  const confirmRestore = async (e: FormEvent) => {
    e.preventDefault();
    if (choosing && (await b.restore(choosing, pin))) setChoosing(null);
    setPin('');
  };
  const saveFolder = async (e: FormEvent) => {
    e.preventDefault();
    if (await b.setSecondFolder(folderValue.trim() === '' ? null : folderValue.trim())) setFolder(null);
  };

  return (
    <section className="card" aria-labelledby="backups-title">
      <h2 id="backups-title">Backups</h2>
      {b.message && (
        <Banner as="div" {...outcome(b.message.kind === 'ok')}>
          {b.message.text}
        </Banner>
      )}
      {v.lastError && !b.message && (
        <Banner as="div" tone="bad" role="alert">
          Last attempt failed at {formatLagosDateTime(v.lastError.at)}: {v.lastError.message}
        </Banner>
      )}
      <div className="backup-last">
        {last ? (
          <>
            <span>
              Last backup <strong>{formatLagosDateTime(last.at)}</strong>
            </span>
            <span>{formatSize(last.sizeBytes)}</span>
            <span>{REASON[last.reason]}</span>
          </>
        ) : (
          <strong>No backup yet.</strong>
        )}
      </div>
      <p className="backup-path">
        Kept in {v.folder}
        {v.secondFolder ? ` and copied to ${v.secondFolder}` : ''}. CounterPay also backs up at every shift close and
        every {v.everyHours} hours, keeping one a day for a week and one a week for a month.
      </p>
      <div className="actions">
        <button type="button" className="primary" disabled={b.busy !== null} onClick={() => void b.backupNow()}>
          {b.busy === 'now' ? 'Backing up…' : 'Back up now'}
        </button>
      </div>

      <form className="folder-row" onSubmit={saveFolder} noValidate>
        <Field
          label="Second folder (USB disk or network share)"
          hint="Leave empty to keep backups in the data folder only."
        >
          {(id, describedBy) => (
            <input
              id={id}
              aria-describedby={describedBy}
              value={folderValue}
              placeholder="/media/usb/counterpay-backups"
              onChange={(e) => setFolder(e.target.value)}
            />
          )}
        </Field>
        <button type="submit" disabled={b.busy !== null}>
          Save folder
        </button>
      </form>

      {v.backups.length > 0 && (
        <BackupList
          backups={v.backups}
          disabled={b.busy !== null}
          onChoose={(x) => {
            setChoosing(x);
            setPin('');
          }}
        />
      )}

      {choosing && (
        <form className="backup-restore" onSubmit={confirmRestore} aria-labelledby="restore-title" noValidate>
          <h3 id="restore-title" style={{ margin: 0 }}>
            Restore the journal to {formatLagosDateTime(choosing.at)}?
          </h3>
          <p>
            The journal in use is backed up first, so nothing is deleted. Sales made after{' '}
            {formatLagosDateTime(choosing.at)} will not show on this counter; their sale numbers are on the printed
            receipts.
          </p>
          <Field label="Admin PIN">
            {(id, describedBy) => (
              <input
                id={id}
                aria-describedby={describedBy}
                type="password"
                inputMode="numeric"
                autoComplete="off"
                autoFocus
                value={pin}
                onChange={(e) => setPin(e.target.value)}
              />
            )}
          </Field>
          <div className="actions">
            <button type="submit" className="primary" disabled={b.busy !== null || pin.length < 4}>
              {b.busy === 'restore' ? 'Restoring…' : 'Restore this backup'}
            </button>
            <button type="button" onClick={() => setChoosing(null)} disabled={b.busy === 'restore'}>
              Cancel
            </button>
          </div>
        </form>
      )}
    </section>
  );
}

/** Every backup kept, newest first, each with its Restore… button. */
function BackupList(p: { backups: BackupInfo[]; disabled: boolean; onChoose: (x: BackupInfo) => void }) {
  const { backups, disabled, onChoose } = p;
  return (
    <table className="backup-list">
      <caption className="hint" style={{ textAlign: 'left' }}>
        Backups, newest first
      </caption>
      <thead>
        <tr>
          <th scope="col">Taken</th>
          <th scope="col">Why</th>
          <th scope="col">Where</th>
          <th scope="col" className="num">
            Size
          </th>
          <th scope="col">
            <span className="hint">Action</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {backups.map((x) => (
          <tr key={`${x.place}-${x.name}`}>
            <td>{formatLagosDateTime(x.at)}</td>
            <td>{REASON[x.reason]}</td>
            <td>{PLACE[x.place]}</td>
            <td className="num">{formatSize(x.sizeBytes)}</td>
            <td>
              <button
                type="button"
                disabled={disabled}
                onClick={() => onChoose(x)}
                aria-label={`Restore the backup of ${formatLagosDateTime(x.at)}`}
              >
                Restore…
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
