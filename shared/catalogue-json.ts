// A concessions catalogue file (JSON), checked whole before anything is kept, as the CSV form is:
// money exact (a price in naira, "1500.50" or 1500.5, becomes kobo), every rule of the catalogue,
// and each error named by the line of the file where the value starts and its field's path
// (`items.2.price`) as the column. Any error and nothing is returned. Format: docs/concessions.md.
import { z } from 'zod';
import { CatalogueSchema, ComboSchema, ConcessionItemSchema } from './catalogue';
import type { CatalogueFileCheck } from './catalogue-csv';
import { concessionPrice } from './catalogue-csv';
import type { RowError } from './topups';

/** What one JSON file may weigh as text. */
export const MAX_CATALOGUE_JSON_CHARS = 500_000;

/** A price as a person writes it in JSON: naira, as a string or a number with at most two decimals. */
const NairaPrice = z
  .union([z.string(), z.number()], { error: 'Enter the price in naira, for example "1500.50"' })
  .transform((v, ctx) => {
    const kobo = concessionPrice(String(v));
    if (typeof kobo === 'string') {
      ctx.addIssue({ code: 'custom', message: kobo });
      return z.NEVER;
    }
    return kobo;
  });

const ItemFile = ConcessionItemSchema.omit({ priceKobo: true })
  .extend({ price: NairaPrice })
  .strict()
  .transform(({ price, ...rest }) => ({ ...rest, priceKobo: price }));
const ComboFile = ComboSchema.omit({ priceKobo: true })
  .extend({ price: NairaPrice })
  .strict()
  .transform(({ price, ...rest }) => ({ ...rest, priceKobo: price }));
const CatalogueFile = z
  .object({
    items: z.array(ItemFile, { error: 'List the items: "items": [ … ]' }),
    combos: z.array(ComboFile).optional(),
  })
  .strict();

/** The line of the file where each value starts, by its dotted path ("" for the whole file). */
function valueLines(text: string): Map<string, number> {
  const lines = new Map<string, number>();
  let i = 0;
  let line = 1;
  const space = () => {
    for (; i < text.length && ' \t\n\r'.includes(text[i] as string); i++) if (text[i] === '\n') line++;
  };
  const string = () => {
    const start = ++i;
    while (text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    return JSON.parse(`"${text.slice(start, i++)}"`) as string;
  };
  const value = (path: string, depth: number): void => {
    if (depth > 32) throw new RangeError('too deep');
    space();
    lines.set(path, line);
    const open = text[i];
    const at = (key: string | number) => (path === '' ? String(key) : `${path}.${key}`);
    if (open === '{' || open === '[') {
      const close = open === '{' ? '}' : ']';
      i++;
      space();
      if (text[i] === close) {
        i++;
        return;
      }
      for (let index = 0; ; index++) {
        space();
        let key: string | number = index;
        if (open === '{') {
          key = string();
          space();
          i++; // the colon
        }
        value(at(key), depth + 1);
        space();
        if (text[i++] === close) return;
      }
    }
    if (open === '"') string();
    else while (i < text.length && !',]} \t\n\r'.includes(text[i] as string)) i++;
  };
  try {
    value('', 0);
  } catch {
    // Deeper than a catalogue goes: the values not reached are named by path only.
  }
  return lines;
}

/** The line of a JSON syntax error, from the engine's "at position N" (1 when it gives none). */
function syntaxLine(text: string, message: string): number {
  const m = /position (\d+)/.exec(message);
  if (!m) return 1;
  return text.slice(0, Number(m[1])).split('\n').length;
}

export function checkCatalogueJson(text: string): CatalogueFileCheck {
  if (text.length > MAX_CATALOGUE_JSON_CHARS)
    return {
      catalogue: null,
      totalRows: 0,
      errors: [{ line: 0, column: '', message: `A catalogue file is at most ${MAX_CATALOGUE_JSON_CHARS} characters` }],
    };
  let raw: unknown;
  try {
    raw = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return {
      catalogue: null,
      totalRows: 0,
      errors: [{ line: syntaxLine(text, why), column: '', message: `The file is not JSON: ${why}` }],
    };
  }
  const entries = (k: 'items' | 'combos') => {
    const v = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>)[k] : undefined;
    return Array.isArray(v) ? v.length : 0;
  };
  const totalRows = entries('items') + entries('combos');
  const file = CatalogueFile.safeParse(raw);
  const parsed = file.success ? CatalogueSchema.safeParse(file.data) : file;
  if (parsed.success) return { catalogue: parsed.data, totalRows, errors: [] };
  const lines = valueLines(text);
  const errors: RowError[] = parsed.error.issues.map((issue) => {
    let path = issue.path.map(String);
    // A price is "price" in the file; the catalogue's rules speak of what the file names.
    path = path.map((p) => (p === 'priceKobo' ? 'price' : p));
    let line: number | undefined;
    for (let n = path.length; line === undefined && n >= 0; n--) line = lines.get(path.slice(0, n).join('.'));
    return { line: line ?? 0, column: path.join('.'), message: issue.message };
  });
  errors.sort((a, b) => a.line - b.line);
  return { catalogue: null, totalRows, errors };
}
