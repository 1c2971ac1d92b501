// The branch's concessions catalogue on the counter: one catalogue, replaced whole (a file imported
// here, CSV or JSON, every line checked first; or the Hub's, through replaceCatalogue); the Demo
// profile's own (DEMO_CATALOGUE) without any import; an entry marked sold out or back on sale; and
// the stock left of each counted item: its count less what this counter's paid sales took since the
// catalogue came in. `current()` is what the checkout prices baskets against (CatalogueReads).
import { DEMO_CATALOGUE, CatalogueSchema, isSoldOut, type Catalogue } from '../../shared/catalogue';
import { catalogueCsv, checkCatalogueCsv, type CatalogueFileCheck } from '../../shared/catalogue-csv';
import { checkCatalogueJson } from '../../shared/catalogue-json';
import type { catalogueCalls, CatalogueSource, CatalogueView } from '../../shared/contract-catalogue';
import { AppError, issueFields } from '../../shared/errors';
import type { CoreModule } from '../core-module';
import type { CoreServices } from '../core-services';
import type { OrderView } from '../../shared/orders';
import { paidBasketsAfter } from '../orders';
import { CatalogueStore } from './catalogue-store';
import { StockTally, type PaidBasketsRead } from './stock-tally';

/** What the checkout reads: the catalogue with each counted item's stock already what is left (never below 0). */
export interface CatalogueReads {
  current(): Catalogue | undefined;
}

/** Built before the checkout (which prices baskets against `current`): it hears of paid sales through `orderChanged`. */
type CatalogueContext = Pick<CoreServices, 'db' | 'clock' | 'events' | 'logger'>;

interface CatalogueModuleDeps {
  /** The Demo profile is in use: its catalogue is there without an import. */
  demo: () => boolean;
  /** The paid sales read (the orders module's by default). */
  paidBaskets?: PaidBasketsRead;
}

/** At most this many errors travel back with a refused file (the count says how many in all). */
const MAX_ERRORS_SHOWN = 200;

/** CSV or JSON: by the file's extension, else by its first character. */
export function catalogueFormat(fileName: string, text: string): 'csv' | 'json' {
  const ext = /\.([a-z]+)$/i.exec(fileName.trim())?.[1]?.toLowerCase();
  if (ext === 'json') return 'json';
  if (ext === 'csv') return 'csv';
  const first = text.replace(/^\uFEFF/, '').trimStart()[0];
  return first === '{' || first === '[' ? 'json' : 'csv';
}

type HeldCatalogue = { source: CatalogueSource; catalogue: Catalogue };

export function createCatalogueModule(ctx: CatalogueContext, deps: CatalogueModuleDeps) {
  const { db, clock, events, logger } = ctx;
  const store = new CatalogueStore(db);
  const tally = new StockTally(deps.paidBaskets ?? ((q) => paidBasketsAfter(db, q)));

  /**
   * The catalogue in use. The Demo profile with none stored gets its own, kept from then (so its
   * stock counts and sold-out marks hold); outside the Demo profile, the Demo's is not used.
   */
  function held(): HeldCatalogue | null {
    const source = store.source();
    if (!source && deps.demo()) {
      store.replace({ kind: 'demo', importedAt: clock.now(), fileName: null }, DEMO_CATALOGUE);
      tally.reset();
      return held();
    }
    if (!source || (source.kind === 'demo' && !deps.demo())) return null;
    const catalogue = store.catalogue();
    return catalogue ? { source, catalogue } : null;
  }

  /** Item code → stock left, for the counted items. */
  function leftOf(h: HeldCatalogue): Map<string, number> {
    const taken = tally.takenSince(h.source.importedAt);
    const left = new Map<string, number>();
    for (const it of h.catalogue.items)
      if (it.stock !== undefined) left.set(it.code, it.stock - (taken.get(it.code) ?? 0));
    return left;
  }

  function current(): Catalogue | undefined {
    const h = held();
    if (!h) return undefined;
    const left = leftOf(h);
    return {
      items: h.catalogue.items.map((it) => {
        const l = left.get(it.code);
        return l === undefined ? it : { ...it, stock: Math.max(0, l) };
      }),
      combos: h.catalogue.combos,
    };
  }

  function view(): CatalogueView {
    const h = held();
    if (!h) return { source: null, items: [], combos: [] };
    const left = leftOf(h);
    const items = h.catalogue.items.map((it) => {
      const l = left.get(it.code) ?? null;
      return {
        code: it.code,
        name: it.name,
        category: it.category,
        priceKobo: it.priceKobo,
        soldOut: it.soldOut,
        stock: it.stock ?? null,
        left: l,
        available: !isSoldOut({ soldOut: it.soldOut, stock: l === null ? undefined : Math.max(0, l) }),
      };
    });
    const canSell = new Map(items.map((it) => [it.code, it.available]));
    const combos = h.catalogue.combos.map((co) => ({
      code: co.code,
      name: co.name,
      category: co.category,
      priceKobo: co.priceKobo,
      soldOut: co.soldOut,
      components: co.components.map((c) => ({ name: c.name, options: [...c.options] })),
      available: !co.soldOut && co.components.every((c) => c.options.some((o) => canSell.get(o) === true)),
    }));
    return { source: h.source, items, combos };
  }

  function changed(): CatalogueView {
    const v = view();
    events.emit('catalogue.changed', v);
    return v;
  }

  /** The one way a catalogue enters the counter (a file imported here, or the Hub's): all or nothing. */
  function replaceCatalogue(
    source: { kind: 'file'; fileName: string } | { kind: 'hub'; version: number },
    catalogue: unknown,
  ): CatalogueView {
    const parsed = CatalogueSchema.safeParse(catalogue);
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      throw new AppError('VALIDATION', `The catalogue cannot be used: ${first?.message ?? 'it is not a catalogue'}`, {
        fields: issueFields(parsed.error.issues),
      });
    }
    const importedAt = clock.now();
    store.replace(
      source.kind === 'file'
        ? { kind: 'file', importedAt, fileName: source.fileName }
        : { kind: 'hub', importedAt, fileName: null, hubVersion: source.version },
      parsed.data,
    );
    tally.reset();
    logger.info('catalogue replaced', {
      source: source.kind,
      items: parsed.data.items.length,
      combos: parsed.data.combos.length,
    });
    return changed();
  }

  /** An order changed (the root wires the checkout's `order` event here): a paid sale with concessions changes the stock left. */
  function orderChanged(v: OrderView): void {
    if (v.state === 'paid' && v.basket?.lines.some((l) => l.kind !== 'tickets') && held()) changed();
  }

  const module: CoreModule<typeof catalogueCalls> = {
    handlers: {
      'catalogue.get': () => view(),
      'catalogue.template': () => ({ fileName: 'catalogue-template.csv', csv: catalogueCsv(DEMO_CATALOGUE) }),
      'catalogue.import': (a) => {
        const check: CatalogueFileCheck =
          catalogueFormat(a.fileName, a.text) === 'json' ? checkCatalogueJson(a.text) : checkCatalogueCsv(a.text);
        if (!check.catalogue)
          return {
            imported: false,
            totalRows: check.totalRows,
            errors: check.errors.slice(0, MAX_ERRORS_SHOWN),
            errorCount: check.errors.length,
            catalogue: view(),
          };
        const catalogue = replaceCatalogue({ kind: 'file', fileName: a.fileName }, check.catalogue);
        return { imported: true, totalRows: check.totalRows, errors: [], errorCount: 0, catalogue };
      },
      'catalogue.setSoldOut': (a) => {
        const code = a.code.trim().toUpperCase();
        if (!held())
          throw new AppError('NOT_READY', 'This counter has no catalogue yet: import one in Settings → Concessions.');
        if (!store.setSoldOut(code, a.soldOut, clock.now()))
          throw new AppError('NOT_FOUND', `${code} is not an item or combo of the catalogue.`, { code });
        logger.info('catalogue sold out marked', { code, soldOut: a.soldOut });
        return changed();
      },
    },
  };
  /** The Hub's way in (core/hub-link/catalogue-link.ts): the Hub version of the copy, and the Hub's catalogue replacing it. */
  const hubPort = {
    heldVersion: (): number | null => store.hubVersion(),
    replace: (version: number, c: unknown): void => void replaceCatalogue({ kind: 'hub', version }, c),
  };
  return Object.assign(module, { current, view, replaceCatalogue, orderChanged, store, hubPort });
}
