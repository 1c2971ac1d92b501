// The Batch tab: import a CSV (template offered), see every problem by line and column before
// anything is sent, optionally check all betting customers, send in chunks, follow the progress
// and each result, export the results.
import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { BATCH_STATE_LABELS, type BatchView } from '../../../../shared/topups';
import { Field } from '../../components/Field';
import { useBatch } from '../../stores/batch-store';
import { BatchProgress } from './BatchProgress';
import { formatCount, formatLagosDateTime, formatNaira } from '../../format';
import { Banner } from '../../components/Banner';
import { CsvErrorTable, CsvPicker } from '../../components/CsvImport';

function ImportCard() {
  const s = useBatch(
    useShallow((st) => ({
      importing: st.importing,
      importFile: st.importFile,
      downloadTemplate: st.downloadTemplate,
      busy: st.busy,
      batch: st.batch,
    })),
  );
  const [over, setOver] = useState(false);
  return (
    <section
      className="card tu-import"
      data-over={over ? 'true' : undefined}
      aria-labelledby="tu-import-title"
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        e.preventDefault();
        setOver(false);
        const f = e.dataTransfer.files[0];
        if (f) void s.importFile(f);
      }}
    >
      <h2 id="tu-import-title">{s.batch ? 'Import another file' : 'Import a batch file'}</h2>
      <p>
        A CSV with the columns <code>type, provider, customerId, amount, reference</code>: type is airtime or betting;
        amount in naira; reference may be left empty. Up to 10,000 rows. Every row is checked before anything is sent.
      </p>
      <CsvPicker
        pickLabel="Choose CSV file…"
        fileLabel="Batch CSV file"
        primary={!s.batch}
        importing={s.importing}
        onFile={(f) => void s.importFile(f)}
        onTemplate={() => void s.downloadTemplate()}
        templateDisabled={s.busy}
      >
        <span className="hint">or drop the file here</span>
      </CsvPicker>
    </section>
  );
}

function RowErrors() {
  const s = useBatch(useShallow((st) => ({ errors: st.errors, count: st.errorCount })));
  if (s.count === 0) return null;
  return (
    <section className="card tu-errors" aria-labelledby="tu-errors-title">
      <h2 id="tu-errors-title">
        {formatCount(s.count)} problem{s.count === 1 ? '' : 's'} to fix in the file
      </h2>
      <p className="hint">
        These rows will not be sent. Fix them in the file and import it again, or send the good rows now.
      </p>
      <div className="tu-table-wrap">
        <CsvErrorTable errors={s.errors} />
      </div>
      {s.count > s.errors.length && <p className="hint">…and {formatCount(s.count - s.errors.length)} more.</p>}
    </section>
  );
}

function DraftPanel({ b }: { b: BatchView }) {
  const s = useBatch(
    useShallow((st) => ({
      busy: st.busy,
      chunkSize: st.chunkSize,
      chunkError: st.chunkError,
      setChunkSize: st.setChunkSize,
      start: st.start,
      cancel: st.cancel,
      checkCustomers: st.checkCustomers,
    })),
  );
  const ready = b.counts.draft;
  const checking = b.check.state === 'running';
  return (
    <section className="card tu-draft" aria-labelledby="tu-draft-title">
      <h2 id="tu-draft-title">{b.fileName}: checked, nothing sent yet</h2>
      <ul className="tu-summary">
        <li>
          <strong>{formatCount(b.totalRows)}</strong> rows in the file
        </li>
        <li data-tone="good">
          <strong>{formatCount(ready)}</strong> ready to send
        </li>
        {b.badRows > 0 && (
          <li data-tone="bad">
            <strong>{formatCount(b.badRows)}</strong> with problems (listed below)
          </li>
        )}
        {b.check.notFound > 0 && (
          <li data-tone="bad">
            <strong>{formatCount(b.check.notFound)}</strong> taken out: customer not found
          </li>
        )}
      </ul>
      {b.bettingRows > 0 && (
        <div className="tu-check">
          <button
            type="button"
            onClick={() => void s.checkCustomers()}
            disabled={checking || s.busy || b.check.state === 'done'}
          >
            {checking
              ? 'Checking customers…'
              : b.check.state === 'done'
                ? 'Customers checked'
                : `Check all customers (${formatCount(b.bettingRows)} betting rows)`}
          </button>
          {b.check.state !== 'none' && (
            <span className="hint" role="status">
              {formatCount(b.check.checked)} of {formatCount(b.check.total)} customers checked
              {b.check.unchecked > 0
                ? ` · ${formatCount(b.check.unchecked)} rows could not be checked (they stay in)`
                : ''}
            </span>
          )}
          {checking && <progress max={b.check.total || 1} value={b.check.checked} aria-label="Customers checked" />}
        </div>
      )}
      <div className="tu-start">
        <div className="actions">
          <button
            type="button"
            className="primary tu-send"
            onClick={() => void s.start()}
            disabled={s.busy || checking || ready === 0}
          >
            Send {formatCount(ready)} top-up{ready === 1 ? '' : 's'} ({formatNaira(b.amounts.draft)})
          </button>
          <button type="button" onClick={() => void s.cancel()} disabled={s.busy}>
            Discard
          </button>
        </div>
        <details className="tu-advanced" open={s.chunkError ? true : undefined}>
          <summary>Top-ups per request: {s.chunkSize}</summary>
          <Field
            label="Top-ups per request"
            error={s.chunkError ?? undefined}
            hint="Lower it if the provider refuses large requests."
          >
            {(id, d) => (
              <input
                id={id}
                aria-describedby={d}
                inputMode="numeric"
                value={s.chunkSize}
                onChange={(e) => s.setChunkSize(e.target.value)}
                className="tu-chunk"
              />
            )}
          </Field>
        </details>
      </div>
    </section>
  );
}

function EarlierBatches() {
  const s = useBatch(useShallow((st) => ({ list: st.list, open: st.open, current: st.batch?.id })));
  const others = s.list.filter((b) => b.id !== s.current);
  if (others.length === 0) return null;
  return (
    <section className="card tu-earlier" aria-labelledby="tu-earlier-title">
      <h2 id="tu-earlier-title">Earlier batches</h2>
      <ul>
        {others.map((b) => (
          <li key={b.id}>
            <button type="button" onClick={() => void s.open(b.id)}>
              <span>
                <strong>{b.fileName}</strong> · {formatLagosDateTime(b.createdAt)}
              </span>
              <span className="hint">
                {BATCH_STATE_LABELS[b.state]} · {formatCount(b.counts.success)} successful ·{' '}
                {formatCount(b.counts.fail)} failed · {formatCount(b.items)} items
              </span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function BatchTopups() {
  const s = useBatch(
    useShallow((st) => ({ batch: st.batch, refused: st.refused, message: st.message, close: st.close })),
  );
  const b = s.batch;
  return (
    <div className="tu-batch">
      {s.message && (
        <Banner tone={s.message.tone} role={s.message.tone === 'bad' ? 'alert' : 'status'}>
          {s.message.text}
        </Banner>
      )}
      {s.refused && (
        <Banner tone="bad" role="alert">
          {s.refused.fileName} cannot be used: fix the problems below and import it again. Nothing was sent.
        </Banner>
      )}
      {b && b.state === 'draft' && <DraftPanel b={b} />}
      {b && b.state !== 'draft' && b.state !== 'discarded' && <BatchProgress b={b} />}
      {(!b || b.state === 'draft') && <RowErrors />}
      {(!b || b.state === 'done' || b.state === 'draft') && <ImportCard />}
      {b && b.state === 'done' && (
        <div className="actions">
          <button type="button" onClick={s.close}>
            Close this batch
          </button>
        </div>
      )}
      <EarlierBatches />
    </div>
  );
}
