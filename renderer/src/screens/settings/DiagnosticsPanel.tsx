// Settings → Export diagnostics: one file for support (recent logs, settings without keys,
// versions, status, the journal's counts, the last provider errors). Main writes a copy into the
// data folder in both shells; the browser shell also downloads it.
import { useState } from 'react';
import type { DiagnosticsExport } from '../../../../shared/contract-diagnostics';
import { useApp } from '../../stores/app-store';
import { errorText } from '../../stores/call-errors';
import { call } from '../../transport/bridge';
import { downloadText } from '../../transport/download';
import { Banner } from '../../components/Banner';

export function DiagnosticsPanel() {
  const info = useApp((s) => s.info);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<DiagnosticsExport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const browser = info?.shell !== 'electron';

  const exportNow = async () => {
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      const out = await call('diagnostics.export', {});
      if (browser) downloadText(out.fileName, out.content, 'application/json');
      setDone(out);
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card" aria-labelledby="diagnostics-title" data-testid="diagnostics-panel">
      <h2 id="diagnostics-title">Export diagnostics</h2>
      <p className="hint">
        One file to send to support when something goes wrong: the recent logs, these settings without any key, the
        versions, the status bar, how many orders and top-ups are in each state and the last errors from the provider.
        Keys and the PIN are never in it.
      </p>
      <div className="actions">
        <button type="button" onClick={() => void exportNow()} disabled={busy}>
          {busy ? 'Exporting…' : 'Export diagnostics'}
        </button>
      </div>
      {done && (
        <Banner as="div" className="in-card" tone="good" role="status" data-testid="diagnostics-done">
          {browser ? 'Downloaded' : 'Saved'} {done.fileName} ({Math.max(1, Math.round(done.bytes / 1024))} KB:{' '}
          {done.logRecords} log lines, {done.providerErrors} provider errors).
          {done.savedTo && (
            <>
              {' '}
              {browser ? 'A copy is also in' : 'It is in'} <code className="path">{done.savedTo}</code>
            </>
          )}
        </Banner>
      )}
      {error && (
        <Banner as="div" className="in-card" tone="bad" role="alert">
          The diagnostics could not be exported: {error}
        </Banner>
      )}
      {info && (
        <p className="hint">
          Logs are kept in the <code className="path">logs</code> folder of the data folder{' '}
          <code className="path">{info.dataDir}</code> (up to six files of 5 MB, one record a line, the oldest removed
          first).
        </p>
      )}
    </section>
  );
}
