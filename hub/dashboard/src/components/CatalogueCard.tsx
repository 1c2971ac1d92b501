// A branch's concessions catalogue on the Programme page: upload it (CSV or JSON, the counter's
// format, docs/concessions.md; every line checked first, nothing kept unless all is right), what the
// branch's counters get with the programme, and the stock across counters (the Hub's count: stock
// uploaded minus what paid sales took since; below zero is in Needs attention, no sale is stopped).
import { useState } from 'react';
import { MAX_CATALOGUE_JSON_CHARS } from '../../../../shared/catalogue-json';
import {
  DashCatalogueViewSchema,
  ImportCatalogueResultSchema,
  type DashCatalogueView,
} from '../../../../shared/hub-sales-contract';
import { api } from '../api';
import { formatCount, formatNaira, lagosDayTime } from '../format';
import { errorLine } from '../programme-view';
import { useLoad } from '../use-load';
import { Banner } from './bits';
import { useFileSend } from './useFileSend';

const plural = (n: number, w: string) => `${formatCount(n)} ${w}${n === 1 ? '' : 's'}`;

function StockTable({ v }: { v: DashCatalogueView }) {
  if (!v.catalogue)
    return <p className="hint">No catalogue uploaded for this branch yet: its counters keep their own.</p>;
  const c = v.catalogue;
  const stock = new Map(v.stock.map((s) => [s.code, s]));
  return (
    <>
      <p className="strong" data-testid="catalogue-version">
        Version {v.version}
        {v.updatedAt !== null ? `, uploaded ${lagosDayTime(v.updatedAt)}` : ''}
        {v.updatedBy ? ` by ${v.updatedBy}` : ''}: {plural(c.items.length, 'item')}, {plural(c.combos.length, 'combo')}
      </p>
      <div className="table-wrap">
        <table className="sales-table catalogue-table" data-testid="catalogue-items">
          <caption className="visually-hidden">The catalogue's items and combos, with the stock left</caption>
          <thead>
            <tr>
              <th scope="col">Code</th>
              <th scope="col">Name</th>
              <th scope="col" className="num">
                Price
              </th>
              <th scope="col" className="num">
                Stock left
              </th>
              <th scope="col" className="narrow-hide">
                Category
              </th>
            </tr>
          </thead>
          <tbody>
            {[...c.items, ...c.combos].map((i) => {
              const s = stock.get(i.code);
              return (
                <tr key={i.code} data-code={i.code} data-below={s && s.left < 0 ? true : undefined}>
                  <td>
                    <code>{i.code}</code>
                  </td>
                  <td>
                    {i.name}
                    {i.soldOut ? <span className="pill"> sold out</span> : null}
                  </td>
                  <td className="num">{formatNaira(i.priceKobo)}</td>
                  <td className="num" data-tone={s && s.left < 0 ? 'bad' : undefined}>
                    {s ? (
                      <span title={`${s.uploaded} uploaded, ${s.taken} sold since`}>
                        {formatCount(s.left)} <span className="hint">of {formatCount(s.uploaded)}</span>
                      </span>
                    ) : (
                      <span className="hint">{'components' in i ? 'its items' : 'not counted'}</span>
                    )}
                  </td>
                  <td className="narrow-hide">{i.category}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </>
  );
}

export function CatalogueCard({ branch, headOffice }: { branch: string; headOffice: boolean }) {
  const q = new URLSearchParams(headOffice ? { branch } : {});
  const r = useLoad(`catalogue?${branch}`, () => api.get('/catalogue', DashCatalogueViewSchema, q));
  const [fresh, setFresh] = useState<DashCatalogueView | null>(null);
  const v = fresh && (!r.data || fresh.version >= r.data.version) ? fresh : r.data;
  const { file, busy, result, problem, choose, send, out, picker } = useFileSend({
    maxChars: MAX_CATALOGUE_JSON_CHARS,
    tooLarge: (name) => `${name} is too large for a catalogue file (at most 500 kB).`,
    send: (f) =>
      api.post('/catalogue/import', ImportCatalogueResultSchema, {
        branch: headOffice ? branch : null,
        text: f.text,
        format: /\.json$/i.test(f.name) || f.text.trimStart().startsWith('{') ? 'json' : 'csv',
        fileName: f.name,
      }),
    taken: (res) => {
      if (!res.imported) return false;
      setFresh(res.catalogue);
      return true;
    },
  });
  const res = result?.r;
  return (
    <section className="card" aria-labelledby="catalogue-title" data-testid="catalogue-card">
      <h2 id="catalogue-title">Concessions catalogue</h2>
      <p className="hint">
        The items and combos the branch's counters sell (CSV or JSON, prices in naira, as in the counter's import). The
        file replaces the whole catalogue and goes to the counters with the programme. Every line is checked first: if
        any is wrong, nothing changes.
      </p>
      <div className="actions">
        <label className="field file-field">
          <span>Catalogue file (CSV or JSON)</span>
          <input
            ref={picker}
            type="file"
            accept=".csv,.json,text/csv,application/json"
            onChange={(e) => void choose(e.target.files?.[0])}
            data-testid="catalogue-file"
          />
        </label>
        <button type="button" className="primary" disabled={!file || busy} onClick={() => void send()}>
          {busy ? 'Uploading…' : file ? `Upload ${file.name}` : 'Upload'}
        </button>
      </div>
      <div ref={out} tabIndex={-1} className="import-outcome" data-testid="catalogue-outcome">
        {problem ? <Banner tone="bad">{problem}</Banner> : null}
        {res && result ? (
          <Banner tone={res.imported ? 'good' : 'bad'} testId="catalogue-message">
            {res.imported
              ? `Version ${res.catalogue.version} sent to the branch's counters: ${result.fileName}.`
              : `Nothing changed: ${plural(res.errorCount, 'problem')} in ${result.fileName}. Fix ${res.errorCount === 1 ? 'it' : 'them'} in the file and upload it again.`}
          </Banner>
        ) : null}
        {res && !res.imported && res.errors.length > 0 ? (
          <div className="table-wrap">
            <table className="import-errors" data-testid="catalogue-errors">
              <caption className="visually-hidden">Problems in {result!.fileName}, by line and column</caption>
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
                {res.errors.map((e, i) => (
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
      {r.error ? <Banner tone="bad">{r.error}</Banner> : v ? <StockTable v={v} /> : null}
    </section>
  );
}
