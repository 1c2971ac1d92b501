// Settings → Programme: where the counter's programme came from, and a CSV import (template
// offered; every row checked first; errors by line and column; all of the file or none of it).
import { useOnMount } from '../../components/useOnChange';
import { useShallow } from 'zustand/react/shallow';
import type { ProgrammeSource } from '../../../../shared/programme';
import { Banner, outcome } from '../../components/Banner';
import { CsvErrorTable, CsvPicker } from '../../components/CsvImport';
import { Field } from '../../components/Field';
import { formatCount, formatLagosDateTime, showDateText } from '../../format';
import { useProgramme } from '../../stores/programme-store';
import '../../programme.css';
import '../../topups-screen.css';

function sourceText(src: ProgrammeSource): string {
  return src.kind === 'csv'
    ? `Imported from ${src.fileName} by ${src.by}, ${formatLagosDateTime(src.importedAt)}`
    : `Version ${src.version} from the Hub, received ${formatLagosDateTime(src.receivedAt)}`;
}

export function ProgrammePanel() {
  const s = useProgramme(
    useShallow((st) => ({
      summary: st.summary,
      importing: st.importing,
      result: st.result,
      message: st.message,
      by: st.by,
      loadSummary: st.loadSummary,
      setBy: st.setBy,
      downloadTemplate: st.downloadTemplate,
      importFile: st.importFile,
    })),
  );
  useOnMount(() => {
    void s.loadSummary();
  });

  const sum = s.summary;
  const errors = s.result && !s.result.imported ? s.result.errors : [];
  return (
    <section className="card programme-panel" aria-labelledby="programme-title">
      <h2 id="programme-title">Programme</h2>
      {sum && sum.source ? (
        <p className="programme-now" data-testid="programme-now">
          <strong>
            {formatCount(sum.shows)} show{sum.shows === 1 ? '' : 's'} of {formatCount(sum.films)} film
            {sum.films === 1 ? '' : 's'} on {formatCount(sum.screens)} screen{sum.screens === 1 ? '' : 's'}
          </strong>
          {sum.firstDate && sum.lastDate
            ? sum.firstDate === sum.lastDate
              ? `, on ${showDateText(sum.firstDate)}`
              : `, ${showDateText(sum.firstDate)} to ${showDateText(sum.lastDate)}`
            : ''}
          . {sourceText(sum.source)}.
        </p>
      ) : (
        <p className="programme-now">
          No programme on this counter yet: the Sell screen shows the hand-typed form until one is imported.
        </p>
      )}
      <p className="hint">
        One line per ticket type of a show:{' '}
        <code>film, title, rating, screen, date, time, ticketType, price, bookingFee</code>. Price and booking fee are
        per ticket, in naira (4500 or 4500.50). Every line is checked first; the programme in use is replaced only when
        the whole file is right.
      </p>
      <div className="programme-import">
        <Field label="Imported by" hint="Recorded with the programme.">
          {(id, d) => (
            <input
              id={id}
              aria-describedby={d}
              autoComplete="off"
              maxLength={40}
              value={s.by}
              onChange={(e) => s.setBy(e.target.value)}
            />
          )}
        </Field>
        <CsvPicker
          pickLabel="Import programme CSV…"
          fileLabel="Programme CSV file"
          primary
          importing={s.importing}
          onFile={(f) => void s.importFile(f)}
          onTemplate={() => void s.downloadTemplate()}
        />
      </div>
      {s.message && (
        <Banner as="p" {...outcome(s.message.kind === 'ok')} data-testid="programme-message">
          {s.message.text}
        </Banner>
      )}
      {errors.length > 0 && (
        <div className="tu-table-wrap">
          <CsvErrorTable errors={errors} className="tu-table programme-errors" caption="Problems in the file" />
          {s.result && s.result.errorCount > errors.length && (
            <p className="hint">…and {formatCount(s.result.errorCount - errors.length)} more.</p>
          )}
        </div>
      )}
    </section>
  );
}
