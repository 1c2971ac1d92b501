// A concessions catalogue file (CSV), checked whole before anything is kept: the header, every value
// of every row (money exact: naira with at most two decimals becomes kobo), then the rows against
// each other (a code once; a combo's rows agree; a combo offers only items of the file). Errors name
// the line and the column, as the programme file's do; any error and nothing is returned. A row is
// an item, or, when its component is filled in, one component of a combo (a combo has a row per
// component, repeating its code, name, category and price). Format: docs/concessions.md.
import {
  CODE_RULE,
  CONCESSION_CODE_RE,
  MAX_CATALOGUE_ENTRIES,
  MAX_CONCESSION_PRICE_KOBO,
  catalogueProblems,
  type Catalogue,
  type Combo,
  type ConcessionItem,
} from './catalogue';
import { toCsv } from './csv-cell';
import { readCsvTable, type CsvTableSpec } from './csv-table';
import { koboToNairaString, parseNaira } from './money';
import type { RowError } from './topups';

export const CATALOGUE_COLUMNS = [
  'code',
  'name',
  'category',
  'price',
  'soldOut',
  'stock',
  'component',
  'options',
] as const;
type CatalogueColumn = (typeof CATALOGUE_COLUMNS)[number];
const LAYOUT = CATALOGUE_COLUMNS.join(',');
/** At most this many rows (a combo takes a row per component). */
const MAX_CATALOGUE_ROWS = 2_000;
const HEADER_ALIASES: Record<string, CatalogueColumn> = {
  code: 'code',
  key: 'code',
  itemcode: 'code',
  sku: 'code',
  name: 'name',
  item: 'name',
  itemname: 'name',
  category: 'category',
  group: 'category',
  price: 'price',
  pricenaira: 'price',
  soldout: 'soldOut',
  stock: 'stock',
  count: 'stock',
  component: 'component',
  choice: 'component',
  options: 'options',
  items: 'options',
};
const TABLE: CsvTableSpec<CatalogueColumn> = {
  aliases: HEADER_ALIASES,
  required: ['code', 'name', 'category', 'price'],
  layout: LAYOUT,
  optional: 'soldOut, stock, component and options may be left out',
  maxRows: MAX_CATALOGUE_ROWS,
  what: 'catalogue',
  split: 'Remove items the branch no longer sells.',
  exampleAmount: 1500,
};

/** The words a soldOut cell may hold. */
const SOLD_OUT = new Map<string, boolean>([
  ['', false],
  ['no', false],
  ['n', false],
  ['false', false],
  ['0', false],
  ['yes', true],
  ['y', true],
  ['true', true],
  ['1', true],
  ['x', true],
  ['sold out', true],
  ['soldout', true],
]);

/** A catalogue file checked: the catalogue when every row is right, else null and the errors. */
export interface CatalogueFileCheck {
  catalogue: Catalogue | null;
  totalRows: number;
  errors: RowError[];
}

/** Naira as people write it ("1500", "1,500.50") to kobo, or what to fix. */
export function concessionPrice(text: string): number | string {
  const t = text.trim();
  if (t === '') return 'Enter the price in naira, for example 1500 or 1500.50';
  let kobo: number;
  try {
    kobo = parseNaira(t);
  } catch {
    return `"${t}" is not a price in naira: write it like 1500 or 1500.50 (at most two decimals, no other signs)`;
  }
  if (kobo <= 0) return 'The price must be more than ₦0.00';
  if (kobo > MAX_CONCESSION_PRICE_KOBO) return 'The price looks wrong (over ₦1,000,000): check it';
  return kobo;
}

/** A catalogue as a CSV file of this format (the template offered for download: the Demo's catalogue). */
export function catalogueCsv(c: Catalogue): string {
  const yes = (soldOut: boolean) => (soldOut ? 'yes' : '');
  return toCsv([
    [...CATALOGUE_COLUMNS],
    ...c.items.map((i) => [
      i.code,
      i.name,
      i.category,
      koboToNairaString(i.priceKobo),
      yes(i.soldOut),
      i.stock ?? '',
      '',
      '',
    ]),
    ...c.combos.flatMap((co) =>
      co.components.map((p) => [
        co.code,
        co.name,
        co.category,
        koboToNairaString(co.priceKobo),
        yes(co.soldOut),
        '',
        p.name,
        p.options.join('|'),
      ]),
    ),
  ]);
}

type Values = Record<CatalogueColumn, string>;

/** The problems of one row's own values (not against other rows). */
function rowProblems(v: Values): [CatalogueColumn, string][] {
  const out: [CatalogueColumn, string][] = [];
  const text = (col: CatalogueColumn, what: string, max: number) => {
    if (v[col] === '') out.push([col, `Enter the ${what}`]);
    else if (v[col].length > max) out.push([col, `The ${what} is at most ${max} characters`]);
  };
  if (!CONCESSION_CODE_RE.test(v.code.toUpperCase()))
    out.push([
      'code',
      v.code === '' ? `Enter the code (${CODE_RULE})` : `"${v.code}" is not a code: a code is ${CODE_RULE}`,
    ]);
  text('name', 'name', 40);
  text('category', 'category', 30);
  const price = concessionPrice(v.price);
  if (typeof price === 'string') out.push(['price', price]);
  if (!SOLD_OUT.has(v.soldOut.toLowerCase()))
    out.push(['soldOut', `"${v.soldOut}" is not yes or no: leave it empty, or write yes when the item is sold out`]);
  const combo = v.component !== '';
  if (combo) {
    if (v.component.length > 30) out.push(['component', 'The component name is at most 30 characters']);
    if (v.stock !== '')
      out.push(['stock', 'A combo is not counted: count its items (leave stock empty on a combo row)']);
    const options = splitOptions(v.options);
    if (options.length === 0)
      out.push(['options', `Enter the item codes of ${v.component}, separated by | (for example FANTA|COKE|WATER)`]);
    else if (options.length > 20) out.push(['options', 'At most 20 items to choose from']);
    const bad = options.find((o) => !CONCESSION_CODE_RE.test(o));
    if (bad !== undefined) out.push(['options', `"${bad}" is not a code: a code is ${CODE_RULE}`]);
  } else {
    if (v.options !== '') out.push(['component', 'Name the component these options are for (Drink, Popcorn…)']);
    if (v.stock !== '' && !/^\d{1,7}$/.test(v.stock))
      out.push(['stock', `"${v.stock}" is not a count: write a whole number (0 or more), or leave it empty`]);
  }
  return out;
}

function splitOptions(cell: string): string[] {
  return cell === '' ? [] : cell.split('|').map((o) => o.trim().toUpperCase());
}

type ComboAt = Combo & { line: number; componentLines: number[] };

export function checkCatalogueCsv(text: string): CatalogueFileCheck {
  const table = readCsvTable(text, TABLE);
  if (!table.ok) return { catalogue: null, totalRows: table.totalRows, errors: table.errors };
  const { totalRows } = table;
  const errors: RowError[] = [...table.syntax];
  const items: (ConcessionItem & { line: number })[] = [];
  const combos = new Map<string, ComboAt>();
  const lineOf = new Map<string, number>();
  /** The codes of rows already reported: a combo that offers one is not told again that it is missing. */
  const wrong = new Set<string>();

  for (const rec of table.rows) {
    const add = (column: string, message: string) => errors.push({ line: rec.line, column, message });
    const tooWide = table.widthProblem(rec);
    if (tooWide) {
      add('', tooWide);
      continue;
    }
    const v = Object.fromEntries(CATALOGUE_COLUMNS.map((c) => [c, table.cell(rec.fields, c).trim()])) as Values;
    const own = rowProblems(v);
    for (const [col, message] of own) add(col, message);
    if (own.length > 0) {
      wrong.add(v.code.toUpperCase());
      continue;
    }

    const code = v.code.toUpperCase();
    const entry = { code, name: v.name, category: v.category, priceKobo: concessionPrice(v.price) as number };
    const soldOut = SOLD_OUT.get(v.soldOut.toLowerCase()) === true;
    if (v.component === '') {
      const before = lineOf.get(code);
      if (before !== undefined) {
        add('code', `Line ${before} already uses the code ${code}: one code per item or combo`);
        continue;
      }
      lineOf.set(code, rec.line);
      items.push({ ...entry, soldOut, ...(v.stock === '' ? {} : { stock: Number(v.stock) }), line: rec.line });
      continue;
    }
    const component = { name: v.component, options: splitOptions(v.options) };
    const combo = combos.get(code);
    if (!combo) {
      const before = lineOf.get(code);
      if (before !== undefined) {
        add('code', `Line ${before} already uses the code ${code}: one code per item or combo`);
        continue;
      }
      lineOf.set(code, rec.line);
      combos.set(code, { ...entry, soldOut, components: [component], line: rec.line, componentLines: [rec.line] });
      continue;
    }
    const differs = (['name', 'category', 'priceKobo'] as const).find((k) => combo[k] !== entry[k]);
    if (differs !== undefined || combo.soldOut !== soldOut) {
      const col = differs === 'priceKobo' ? 'price' : (differs ?? 'soldOut');
      add(col, `Line ${combo.line} gives the combo ${code} another ${col}: every row of a combo repeats the same`);
      continue;
    }
    combo.components.push(component);
    combo.componentLines.push(rec.line);
  }
  if (items.length + combos.size > MAX_CATALOGUE_ENTRIES)
    errors.push({ line: 0, column: '', message: `A catalogue has at most ${MAX_CATALOGUE_ENTRIES} items and combos` });

  const comboList = [...combos.values()];
  const catalogue: Catalogue = {
    items: items.map(({ line: _line, ...it }) => it),
    combos: comboList.map(({ line: _line, componentLines: _lines, ...co }) => co),
  };
  for (const p of catalogueProblems(catalogue)) {
    const [kind, i, , j, , k] = p.path;
    const option = comboList[i as number]?.components[j as number]?.options[k as number];
    if (kind === 'combos' && option !== undefined && wrong.has(option)) continue;
    const line =
      kind === 'items' ? items[i as number]?.line : comboList[i as number]?.componentLines[(j as number) ?? 0];
    const column = p.path.includes('options') ? 'options' : p.path.includes('name') ? 'component' : 'code';
    errors.push({ line: line ?? 0, column, message: p.message });
  }
  errors.sort((a, b) => a.line - b.line);
  if (errors.length > 0) return { catalogue: null, totalRows, errors };
  return { catalogue, totalRows, errors: [] };
}
