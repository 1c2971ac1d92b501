// Programme: the branch's programme as the Hub holds it (version, when and by whom it was set; films;
// shows by day with their ticket types, prices and fees) and a CSV import: pick the file, import it;
// every row is checked first, and a file with any problem changes nothing (its problems listed by line
// and column). Head office works on the branch picked at the top; a branch manager on their own.
import { useState } from 'react';
import { lagosDate } from '../../../../shared/time';
import {
  DashProgrammeViewSchema,
  ImportProgrammeResultSchema,
  type DashProgrammeView,
  type ImportProgrammeResult,
} from '../../../../shared/hub-programme-contract';
import { MAX_PROGRAMME_CSV_CHARS } from '../../../../shared/programme';
import { PROGRAMME_COLUMNS } from '../../../../shared/programme-csv';
import { api, apiUrl } from '../api';
import { Banner, Loading, ScreenTitle } from '../components/bits';
import { CatalogueCard } from '../components/CatalogueCard';
import { useFileSend } from '../components/useFileSend';
import { dayLong, dayShort, formatCount } from '../format';
import { errorLine, importOutcome, programmeDays, ticketTypeText, versionLine } from '../programme-view';
import { currentBranch, useDash } from '../store';
import { useLoad } from '../use-load';

function ProgrammeFacts({ v }: { v: DashProgrammeView }) {
  return (
    <section className="card" aria-labelledby="facts-title" data-testid="programme-facts">
      <h2 id="facts-title">On the Hub for branch {v.branch}</h2>
      <p className="programme-version" data-testid="programme-version">
        {versionLine(v)}
      </p>
      {v.version > 0 ? (
        <dl className="shift-facts">
          <div>
            <dt>Films</dt>
            <dd>{formatCount(v.films)}</dd>
          </div>
          <div>
            <dt>Screens</dt>
            <dd>{formatCount(v.screens)}</dd>
          </div>
          <div>
            <dt>Shows</dt>
            <dd>{formatCount(v.shows)}</dd>
          </div>
          <div>
            <dt>Days</dt>
            <dd>
              {v.firstDate
                ? v.firstDate === v.lastDate
                  ? dayShort(v.firstDate)
                  : `${dayShort(v.firstDate)} to ${dayShort(v.lastDate ?? v.firstDate)}`
                : '—'}
            </dd>
          </div>
        </dl>
      ) : null}
      {v.version > 0 ? (
        <p className="hint">
          Every counter of the branch gets this version within seconds (and when it reconnects after being offline).
        </p>
      ) : null}
    </section>
  );
}

function ImportCard({ branch, onImported }: { branch: string | null; onImported: (r: ImportProgrammeResult) => void }) {
  const { file, busy, result, problem, choose, send, out, picker } = useFileSend({
    maxChars: MAX_PROGRAMME_CSV_CHARS,
    tooLarge: (name) => `${name} is too large for a programme file. Split the programme by week.`,
    send: (f) => api.post('/programme/import', ImportProgrammeResultSchema, { branch, csv: f.text, fileName: f.name }),
    taken: (r) => {
      if (!r.imported) return false;
      onImported(r);
      return true;
    },
  });
  const outcome = result ? importOutcome(result.r, result.fileName) : null;

  return (
    <section className="card" aria-labelledby="import-title">
      <h2 id="import-title">Import a programme file</h2>
      <p className="hint">
        One line per ticket type of a show, with the columns <code>{PROGRAMME_COLUMNS.join(',')}</code> (prices in
        naira). The file replaces the branch's whole programme. Every row is checked first: if any is wrong, nothing
        changes.
      </p>
      <div className="actions">
        <label className="field file-field">
          <span>Programme file (CSV)</span>
          <input
            ref={picker}
            type="file"
            accept=".csv,text/csv"
            onChange={(e) => void choose(e.target.files?.[0])}
            data-testid="programme-file"
          />
        </label>
        <button type="button" className="primary" disabled={!file || busy} onClick={() => void send()}>
          {busy ? 'Importing…' : file ? `Import ${file.name}` : 'Import'}
        </button>
        <a className="button" href={apiUrl('/programme/template.csv')} download data-testid="programme-template">
          Download the template
        </a>
      </div>
      <div ref={out} tabIndex={-1} className="import-outcome" data-testid="import-outcome">
        {problem ? <Banner tone="bad">{problem}</Banner> : null}
        {outcome ? (
          <Banner tone={outcome.tone} testId="import-message">
            {outcome.text}
          </Banner>
        ) : null}
        {result && !result.r.imported && result.r.errors.length > 0 ? (
          <div className="table-wrap">
            <table className="import-errors" data-testid="import-errors">
              <caption className="visually-hidden">Problems in {result.fileName}, by line and column</caption>
              <thead>
                <tr>
                  <th scope="col" className="num">
                    Line
                  </th>
                  <th scope="col">Column</th>
                  <th scope="col">What to fix</th>
                </tr>
              </thead>
              <tbody>
                {result.r.errors.map((e, i) => (
                  <tr key={i} data-line={e.line} data-column={e.column}>
                    <td className="num">{errorLine(e.line)}</td>
                    <td>
                      <code>{e.column || 'whole line'}</code>
                    </td>
                    <td className="wrap">{e.message}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
      </div>
    </section>
  );
}

function ProgrammeDetail({ v }: { v: DashProgrammeView }) {
  const p = v.programme;
  if (!p) return null;
  const today = lagosDate(Date.now());
  const days = programmeDays(p);
  return (
    <>
      <section className="card" aria-labelledby="films-title">
        <h2 id="films-title">Films</h2>
        <div className="table-wrap">
          <table data-testid="programme-films">
            <thead>
              <tr>
                <th scope="col">Film</th>
                <th scope="col">Title on the ticket</th>
                <th scope="col">Rating</th>
              </tr>
            </thead>
            <tbody>
              {p.films.map((f) => (
                <tr key={f.name}>
                  <th scope="row">{f.name}</th>
                  <td>{f.title}</td>
                  <td>{f.rating || '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      <section className="card" aria-labelledby="days-title">
        <h2 id="days-title">Shows by day</h2>
        {days.length === 0 ? (
          <p className="hint">This programme has no shows.</p>
        ) : (
          days.map((d) => (
            <details key={d.date} className="programme-day" open={d.date >= today} data-day={d.date}>
              <summary>
                <strong>{dayLong(d.date)}</strong>{' '}
                <span className="hint">
                  · {formatCount(d.shows.length)} show{d.shows.length === 1 ? '' : 's'}
                  {d.date < today ? ' · past' : d.date === today ? ' · today' : ''}
                </span>
              </summary>
              <div className="table-wrap">
                <table className="programme-shows">
                  <thead>
                    <tr>
                      <th scope="col">Time</th>
                      <th scope="col">Film</th>
                      <th scope="col">Screen</th>
                      <th scope="col">Ticket types (price + booking fee, per ticket)</th>
                    </tr>
                  </thead>
                  <tbody>
                    {d.shows.map((s) => (
                      <tr key={`${s.time}-${s.screen}`} data-film={s.film} data-time={s.time}>
                        <td className="strong">{s.time}</td>
                        <td>
                          {s.title}
                          {s.rating ? <span className="hint"> · {s.rating}</span> : null}
                        </td>
                        <td>{s.screen}</td>
                        <td>
                          <ul className="ticket-types">
                            {s.ticketTypes.map((t) => (
                              <li key={t.name}>{ticketTypeText(t)}</li>
                            ))}
                          </ul>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </details>
          ))
        )}
      </section>
    </>
  );
}

export function ProgrammeScreen() {
  const session = useDash((s) => s.session);
  const route = useDash((s) => s.route);
  const branch = currentBranch({ session, route });
  const headOffice = session?.manager.role === 'head-office';
  const q = new URLSearchParams(headOffice && branch ? { branch } : {});
  const r = useLoad(`programme?${branch ?? ''}`, () =>
    branch ? api.get('/programme', DashProgrammeViewSchema, q) : Promise.resolve(null),
  );
  const [fresh, setFresh] = useState<DashProgrammeView | null>(null);
  const v = fresh && fresh.branch === branch && (!r.data || fresh.version >= r.data.version) ? fresh : r.data;

  return (
    <section className="screen" aria-labelledby="screen-title">
      <ScreenTitle>
        <span id="screen-title">Programme</span>
        {branch ? <span className="title-day"> branch {branch}</span> : null}
      </ScreenTitle>
      {!branch ? (
        <Banner tone="info" testId="pick-branch">
          Pick a branch at the top (Branch in view): each branch has its own programme, sent to its counters.
        </Banner>
      ) : (
        <>
          {r.error ? (
            <Banner tone="bad">
              {r.error}{' '}
              <button type="button" onClick={r.reload}>
                Try again
              </button>
            </Banner>
          ) : null}
          {!v ? r.error ? null : <Loading what="the programme" /> : <ProgrammeFacts v={v} />}
          <ImportCard key={branch} branch={headOffice ? branch : null} onImported={(res) => setFresh(res.programme)} />
          {v ? <ProgrammeDetail v={v} /> : null}
          <CatalogueCard key={`catalogue-${branch}`} branch={branch} headOffice={headOffice} />
        </>
      )}
    </section>
  );
}
