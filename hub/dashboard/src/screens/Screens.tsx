// Screens: the branch's screens (the programme's, and any with a layout), each with its capacity and
// seat map; head office uploads a screen's layout file (JSON, or the CSV shorthand `row,seats`):
// it is checked first, a file with any problem changes nothing (its problems listed by row and
// seat), and a good one reaches the branch's counters with the programme.
import { useState } from 'react';
import { ScreensViewSchema, UploadLayoutResultSchema, type ScreenRow } from '../../../../shared/hub-seats-contract';
import { MAX_LAYOUT_CHARS } from '../../../../shared/seats';
import { api } from '../api';
import { Banner, Loading, ScreenTitle } from '../components/bits';
import { SeatMapRead } from '../components/SeatMapRead';
import { useFileSend } from '../components/useFileSend';
import { formatCount, lagosDayTime } from '../format';
import { branchQuery, currentBranch, useDash } from '../store';
import { useLoad } from '../use-load';

export function ScreensScreen() {
  const route = useDash((s) => s.route);
  const session = useDash((s) => s.session);
  const headOffice = session?.manager.role === 'head-office';
  const q = branchQuery({ session, route });
  const r = useLoad(`screens?${q}`, () => api.get('/screens', ScreensViewSchema, q));
  const branch = headOffice ? currentBranch({ session, route }) : null;
  const v = r.data;
  return (
    <section className="screen" aria-labelledby="screen-title">
      <ScreenTitle>
        <span id="screen-title">Screens</span>
        {v ? <span className="title-day"> · branch {v.branch}</span> : null}
      </ScreenTitle>
      {r.error ? (
        <Banner tone="bad">
          {r.error}{' '}
          <button type="button" onClick={r.reload}>
            Try again
          </button>
        </Banner>
      ) : null}
      {headOffice ? <UploadCard branch={branch} onDone={r.reload} /> : null}
      {!v ? (
        r.error ? null : (
          <Loading what="the screens" />
        )
      ) : v.screens.length === 0 ? (
        <p className="hint" data-testid="screens-empty">
          No screens yet: they come with the programme, or with a layout file uploaded here by head office.
        </p>
      ) : (
        <ul className="screen-list" data-testid="screen-list">
          {v.screens.map((s) => (
            <ScreenCard key={s.screen} s={s} />
          ))}
        </ul>
      )}
    </section>
  );
}

function ScreenCard({ s }: { s: ScreenRow }) {
  const [open, setOpen] = useState(false);
  return (
    <li className="card" data-screen={s.screen}>
      <h2>{s.screen}</h2>
      <p data-testid="screen-capacity">
        {s.layout
          ? `${formatCount(s.layout.capacity)} seats in ${formatCount(s.layout.rows.length)} rows`
          : 'No layout: its shows are sold with typed seats.'}
        {s.inProgramme ? '' : ' · not in the programme'}
      </p>
      {s.layout && s.updatedAt !== null ? (
        <p className="hint">
          {s.fileName ?? 'Layout'} · uploaded {lagosDayTime(s.updatedAt)}
          {s.updatedBy ? ` by ${s.updatedBy}` : ''}
        </p>
      ) : null}
      {s.layout ? (
        <>
          <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>
            {open ? 'Hide the seat map' : 'Seat map'}
            <span className="visually-hidden"> of {s.screen}</span>
          </button>
          {open ? (
            <SeatMapRead
              layout={s.layout}
              taken={[]}
              summary={`Seat map of ${s.screen}: ${formatCount(s.layout.capacity)} seats`}
            />
          ) : null}
        </>
      ) : null}
    </li>
  );
}

function UploadCard({ branch, onDone }: { branch: string | null; onDone: () => void }) {
  const { file, busy, result, problem, choose, send, out, picker } = useFileSend({
    maxChars: MAX_LAYOUT_CHARS,
    tooLarge: (name) => `${name} is too large for a layout file (at most ${Math.floor(MAX_LAYOUT_CHARS / 1000)} kB).`,
    send: (f) => api.post('/screens/layout', UploadLayoutResultSchema, { branch, text: f.text, fileName: f.name }),
    taken: (r) => {
      if (r.result.kind !== 'imported') return false;
      onDone();
      return true;
    },
  });
  const res = result?.r.result;

  return (
    <section className="card" aria-labelledby="layout-upload-title">
      <h2 id="layout-upload-title">Upload a screen's layout</h2>
      <p className="hint">
        A layout file (JSON, format <code>counterpay-seat-layout/1</code>, or the CSV shorthand <code>row,seats</code>)
        replaces that screen's whole layout and reaches the branch's counters with the programme. It is checked first:
        if anything is wrong, nothing changes.
      </p>
      <div className="actions">
        <label className="field file-field">
          <span>Layout file (JSON or CSV)</span>
          <input
            ref={picker}
            type="file"
            accept=".json,.csv,application/json,text/csv"
            onChange={(e) => void choose(e.target.files?.[0])}
            data-testid="layout-file"
          />
        </label>
        <button type="button" className="primary" disabled={!file || busy} onClick={() => void send()}>
          {busy ? 'Uploading…' : file ? `Upload ${file.name}` : 'Upload'}
        </button>
      </div>
      <div ref={out} tabIndex={-1} className="import-outcome" data-testid="layout-outcome">
        {problem ? <Banner tone="bad">{problem}</Banner> : null}
        {res?.kind === 'imported' ? (
          <Banner tone="good" testId="layout-message">
            {res.screen}: {formatCount(res.capacity)} seats, from {result!.fileName}. The branch's counters get it with
            the programme.
          </Banner>
        ) : null}
        {res?.kind === 'refused' ? (
          <>
            <Banner tone="bad" testId="layout-message">
              Nothing changed: {formatCount(res.errors.length)} problem{res.errors.length === 1 ? '' : 's'} in{' '}
              {result!.fileName}. Fix {res.errors.length === 1 ? 'it' : 'them'} in the file and upload it again.
            </Banner>
            <div className="table-wrap">
              <table className="import-errors" data-testid="layout-errors">
                <caption className="visually-hidden">Problems in {result!.fileName}, by row and seat</caption>
                <thead>
                  <tr>
                    <th scope="col">Row</th>
                    <th scope="col">Seat</th>
                    <th scope="col">What to fix</th>
                  </tr>
                </thead>
                <tbody>
                  {res.errors.map((e, i) => (
                    <tr key={i}>
                      <td>{e.row ?? 'the file'}</td>
                      <td>
                        <code>{e.cell ?? 'whole row'}</code>
                      </td>
                      <td className="wrap">{e.message}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        ) : null}
      </div>
    </section>
  );
}
