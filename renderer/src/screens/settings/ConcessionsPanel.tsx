// Settings → Concessions: the branch's catalogue on this counter (where it came from; each item and
// combo by category with its price, stock left and sold out), a file import (CSV or JSON, template
// offered; every line checked first; errors by line and column; all of the file or none of it),
// and marking an entry sold out or back on sale. Format: docs/concessions.md.
import { useShallow } from 'zustand/react/shallow';
import type {
  CatalogueComboView,
  CatalogueItemView,
  CatalogueSource,
  CatalogueView,
} from '../../../../shared/contract-catalogue';
import { Banner, outcome } from '../../components/Banner';
import { CsvErrorTable, CsvPicker } from '../../components/CsvImport';
import { useOnMount } from '../../components/useOnChange';
import { formatCount, formatLagosDateTime, formatNaira } from '../../format';
import { useCatalogue } from '../../stores/catalogue-store';
import '../../catalogue.css';
import '../../programme.css';
import '../../topups-screen.css';

function sourceText(src: CatalogueSource): string {
  if (src.kind === 'demo') return 'The Demo catalogue (the Demo profile has it without an import)';
  if (src.kind === 'hub') return `From the Hub, received ${formatLagosDateTime(src.importedAt)}`;
  return `Imported from ${src.fileName ?? 'a file'}, ${formatLagosDateTime(src.importedAt)}`;
}

type Entry = { kind: 'item'; e: CatalogueItemView } | { kind: 'combo'; e: CatalogueComboView };

/** The entries by category, each category where it first appears (items, then combos). */
function byCategory(v: CatalogueView): [string, Entry[]][] {
  const groups = new Map<string, Entry[]>();
  const put = (en: Entry) => {
    const g = groups.get(en.e.category) ?? [];
    g.push(en);
    groups.set(en.e.category, g);
  };
  for (const e of v.items) put({ kind: 'item', e });
  for (const e of v.combos) put({ kind: 'combo', e });
  return [...groups.entries()];
}

function leftText(it: CatalogueItemView): string {
  if (it.left === null) return 'Not counted';
  if (it.left < 0) return `${formatCount(it.left)} (sold more than counted)`;
  return `${formatCount(it.left)} of ${formatCount(it.stock ?? 0)}`;
}

function statusText(en: Entry): { text: string; tone: 'good' | 'bad' } {
  if (en.e.soldOut) return { text: 'Sold out', tone: 'bad' };
  if (en.e.available) return { text: 'On sale', tone: 'good' };
  return { text: en.kind === 'item' ? 'None left' : 'An item is sold out', tone: 'bad' };
}

function EntryRow(props: { en: Entry; marking: string | null; onMark(code: string, soldOut: boolean): void }) {
  const { en } = props;
  const status = statusText(en);
  const name = en.e.name;
  return (
    <tr data-testid={`catalogue-row-${en.e.code}`} data-tone={en.e.available ? undefined : 'bad'}>
      <td className="tu-mono">{en.e.code}</td>
      <td>
        {name}
        {en.kind === 'combo' && (
          <span className="catalogue-holds">
            {en.e.components.map((c) => `${c.name}: ${c.options.join(' / ')}`).join(' · ')}
          </span>
        )}
      </td>
      <td className="tu-num">{formatNaira(en.e.priceKobo)}</td>
      <td className="tu-num">{en.kind === 'item' ? leftText(en.e) : '—'}</td>
      <td>
        <span className="catalogue-status" data-tone={status.tone}>
          {status.text}
        </span>
      </td>
      <td>
        <button
          type="button"
          className="catalogue-mark"
          disabled={props.marking !== null}
          onClick={() => props.onMark(en.e.code, !en.e.soldOut)}
        >
          {en.e.soldOut ? 'Back on sale' : 'Mark sold out'}
          <span className="sr-only"> for {name}</span>
        </button>
      </td>
    </tr>
  );
}

export function ConcessionsPanel() {
  const s = useCatalogue(
    useShallow((st) => ({
      view: st.view,
      importing: st.importing,
      result: st.result,
      message: st.message,
      marking: st.marking,
      load: st.load,
      downloadTemplate: st.downloadTemplate,
      importFile: st.importFile,
      setSoldOut: st.setSoldOut,
    })),
  );
  useOnMount(() => {
    void s.load();
  });

  const v = s.view;
  const errors = s.result && !s.result.imported ? s.result.errors : [];
  return (
    <section className="card programme-panel catalogue-panel" aria-labelledby="concessions-title">
      <h2 id="concessions-title">Concessions</h2>
      {v && v.source ? (
        <p className="programme-now" data-testid="catalogue-now">
          <strong>
            {formatCount(v.items.length)} item{v.items.length === 1 ? '' : 's'} and {formatCount(v.combos.length)} combo
            {v.combos.length === 1 ? '' : 's'}
          </strong>
          . {sourceText(v.source)}.
        </p>
      ) : (
        <p className="programme-now" data-testid="catalogue-now">
          No catalogue on this counter yet: import the branch&rsquo;s file to sell concessions.
        </p>
      )}
      <p className="hint">
        A CSV or JSON file, one line per item (a combo: one line per component):{' '}
        <code>code, name, category, price, soldOut, stock, component, options</code>. Prices in naira (1500 or 1500.50).
        Every line is checked first; the catalogue in use is replaced only when the whole file is right. The stock left
        counts down as sales are paid.
      </p>
      <div className="programme-import">
        <CsvPicker
          pickLabel="Import catalogue (CSV or JSON)…"
          fileLabel="Catalogue file"
          accept=".csv,.json,text/csv,application/json"
          primary
          importing={s.importing}
          onFile={(f) => void s.importFile(f)}
          onTemplate={() => void s.downloadTemplate()}
        />
      </div>
      {s.message && (
        <Banner as="p" {...outcome(s.message.kind === 'ok')} data-testid="catalogue-message">
          {s.message.text}
        </Banner>
      )}
      {errors.length > 0 && (
        <div className="tu-table-wrap">
          <CsvErrorTable errors={errors} className="tu-table catalogue-errors" caption="Problems in the file" />
          {s.result && s.result.errorCount > errors.length && (
            <p className="hint">…and {formatCount(s.result.errorCount - errors.length)} more.</p>
          )}
        </div>
      )}
      {v && v.source && (
        <div className="tu-table-wrap catalogue-wrap">
          <table className="tu-table catalogue-table">
            <caption className="sr-only">The catalogue by category</caption>
            <thead>
              <tr>
                <th scope="col">Code</th>
                <th scope="col">Item</th>
                <th scope="col" className="tu-num">
                  Price
                </th>
                <th scope="col" className="tu-num">
                  Stock left
                </th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span className="sr-only">Sold out</span>
                </th>
              </tr>
            </thead>
            {byCategory(v).map(([category, list]) => (
              <tbody key={category}>
                <tr className="catalogue-category">
                  <th scope="colgroup" colSpan={6}>
                    {category}
                  </th>
                </tr>
                {list.map((en) => (
                  <EntryRow
                    key={en.e.code}
                    en={en}
                    marking={s.marking}
                    onMark={(code, soldOut) => void s.setSoldOut(code, soldOut)}
                  />
                ))}
              </tbody>
            ))}
          </table>
        </div>
      )}
    </section>
  );
}
