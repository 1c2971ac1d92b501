// Settings → Screens: each screen of the programme with its layout's seats (or none:
// its shows keep typed seats), and a layout file import (JSON `counterpay-seat-layout/1`, or the CSV
// shorthand `row,seats`): checked first, errors by row and seat, the screen's layout replaced whole
// or not at all. A layout from the Hub arrives with the programme.
import { useEffect, useRef, useState } from 'react';
import type { ScreenLayoutEntry } from '../../../../shared/contract-seats';
import type { LayoutImportResult } from '../../../../shared/seats';
import { Banner, outcome } from '../../components/Banner';
import { Field } from '../../components/Field';
import { formatCount } from '../../format';
import { useApp } from '../../stores/app-store';
import { errorText } from '../../stores/call-errors';
import { useProgramme } from '../../stores/programme-store';
import { call } from '../../transport/bridge';
import '../../seat-map.css';

export function LayoutsPanel() {
  const [screens, setScreens] = useState<ScreenLayoutEntry[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [by, setBy] = useState('');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ r: LayoutImportResult; fileName: string } | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const demo = useApp((a) => a.status?.profile === 'demo');
  const [demoLoaded, setDemoLoaded] = useState<string | null>(null);

  const load = async () => {
    try {
      setScreens(await call('seats.screens', {}));
      setLoadError(null);
    } catch (e) {
      setLoadError(errorText(e));
    }
  };
  useEffect(() => {
    void load();
  }, []);

  const importFile = async (f: File) => {
    setResult(null);
    setMessage(null);
    if (!by.trim()) {
      setMessage('Fill in "Imported by" first.');
      return;
    }
    setBusy(true);
    try {
      const r = await call('seats.importLayout', { text: await f.text(), fileName: f.name, by });
      setResult({ r, fileName: f.name });
      if (r.kind === 'imported') void load();
    } catch (e) {
      setMessage(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  // Demo only: a programme with Screen 1's example layout, to try the seat map.
  const loadDemo = async () => {
    setResult(null);
    setMessage(null);
    setDemoLoaded(null);
    setBusy(true);
    try {
      const sum = await call('seats.loadDemoProgramme', {});
      setDemoLoaded(`Demo programme loaded: ${formatCount(sum.shows)} shows of ${formatCount(sum.films)} films.`);
      void load();
      void useProgramme.getState().loadSummary();
      void useProgramme.getState().loadNext();
    } catch (e) {
      setMessage(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  const res = result?.r;
  return (
    <section className="card layouts-panel" aria-labelledby="layouts-title">
      <h2 id="layouts-title">Screens</h2>
      {loadError && (
        <Banner as="p" tone="warn">
          The screens could not be read: {loadError}
        </Banner>
      )}
      {screens && screens.length > 0 ? (
        <ul className="layout-screens" data-testid="layout-screens">
          {screens.map((s) => (
            <li key={s.screen}>
              <strong>{s.screen}</strong>:{' '}
              {s.layout
                ? `${formatCount(s.layout.capacity)} seats in ${formatCount(s.layout.rows.length)} rows (${s.source === 'hub' ? 'from the Hub' : 'imported here'})`
                : 'no layout: its shows are sold with typed seats'}
            </li>
          ))}
        </ul>
      ) : (
        screens && <p className="hint">No screens yet: they come with the programme.</p>
      )}
      <p className="hint">
        A layout file names the screen and lists its rows from the screen backwards, e.g.{' '}
        <code>{'{"row":"F","seats":"1-6 _ 7-20:vip _ 21x 22w 23c"}'}</code> (<code>_</code> an aisle, <code>x</code>{' '}
        blocked, <code>w</code> a wheelchair place, <code>c</code> its companion seat, <code>:vip</code> a zone). It
        replaces that screen's layout only when the whole file is right.
      </p>
      <div className="programme-import">
        <Field label="Layout imported by" hint="Recorded with the layout.">
          {(id, d) => (
            <input
              id={id}
              aria-describedby={d}
              autoComplete="off"
              maxLength={40}
              value={by}
              onChange={(e) => setBy(e.target.value)}
            />
          )}
        </Field>
        <div className="actions">
          <button type="button" onClick={() => input.current?.click()} disabled={busy}>
            {busy ? 'Checking the file…' : 'Import a layout file…'}
          </button>
          {demo && (
            <button type="button" onClick={() => void loadDemo()} disabled={busy}>
              Load the Demo programme
            </button>
          )}
        </div>
        <input
          ref={input}
          type="file"
          accept=".json,.csv,application/json,text/csv"
          className="tu-file"
          aria-label="Layout file"
          tabIndex={-1}
          onChange={(e) => {
            const f = e.target.files?.[0];
            e.target.value = '';
            if (f) void importFile(f);
          }}
        />
      </div>
      {message && (
        <Banner as="p" {...outcome(false)} data-testid="layout-message">
          {message}
        </Banner>
      )}
      {demoLoaded && (
        <Banner as="p" {...outcome(true)} data-testid="layout-message">
          {demoLoaded}
        </Banner>
      )}
      {res && (
        <Banner as="p" {...outcome(res.kind === 'imported')} data-testid="layout-message">
          {res.kind === 'imported'
            ? `${result.fileName} imported: ${res.screen}, ${formatCount(res.capacity)} seats.`
            : `${result.fileName} was not imported: fix the ${res.errors.length === 1 ? 'problem' : `${res.errors.length} problems`} below.`}
        </Banner>
      )}
      {res?.kind === 'refused' && (
        <div className="tu-table-wrap">
          <table className="tu-table" data-testid="layout-errors">
            <caption className="sr-only">Problems in the layout file, by row and seat</caption>
            <thead>
              <tr>
                <th scope="col">Row</th>
                <th scope="col">Seat</th>
                <th scope="col">Problem</th>
              </tr>
            </thead>
            <tbody>
              {res.errors.map((e, i) => (
                <tr key={i}>
                  <td>{e.row ?? 'the file'}</td>
                  <td>{e.cell ?? 'whole row'}</td>
                  <td>{e.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
