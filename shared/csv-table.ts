// A CSV file a person fills in from our template (a top-up batch, a programme), read as a table: the
// first line names the columns (in any order, with the aliases spreadsheets and people use, other
// columns ignored), then at most so many rows. Whatever makes the whole file unusable comes back as
// errors that name the line and say what to fix; the rows are then checked by their own rules.
import { parseCsv, type CsvRecord } from './csv-parse';
import type { RowError } from './topups';

export interface CsvTableSpec<C extends string> {
  /** Header names, lower case with only letters and digits kept, to the column they mean. */
  aliases: Record<string, C>;
  required: readonly C[];
  /** The template's first line (type,provider,…): named in every header error. */
  layout: string;
  /** What may be left out, said when a required column is missing ("reference is optional"). */
  optional: string;
  /** The most rows a file may have; what the file is ("batch"), and what to do with a larger one ("Split it by week."). */
  maxRows: number;
  what: string;
  split: string;
  /** An amount people type with a thousands comma (1500): the hint for a line with too many values. */
  exampleAmount: number;
}

type CsvTable<C extends string> =
  | { ok: false; errors: RowError[]; totalRows: number }
  | {
      ok: true;
      /** The data rows (the records after the first line), at most maxRows of them. */
      rows: CsvRecord[];
      totalRows: number;
      /** Rows left out for a quoting problem, by line. */
      syntax: RowError[];
      /** The value of a column in a row, untrimmed; '' when the column is absent or the row short. */
      cell(fields: string[], col: C): string;
      /** The error for a row with more values than the first line names columns, or null. */
      widthProblem(rec: CsvRecord): string | null;
    };

function headerKey(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

export function readCsvTable<C extends string>(text: string, spec: CsvTableSpec<C>): CsvTable<C> {
  const fail = (errors: RowError[], totalRows = 0) => ({ ok: false as const, errors, totalRows });
  const parsed = parseCsv(text, { maxRecords: spec.maxRows + 2 });
  const syntax: RowError[] = parsed.errors.map((e) => ({ line: e.line, column: '', message: e.message }));
  if (parsed.fatal) return fail(syntax);

  const header = parsed.records[0];
  if (!header || parsed.errors.some((e) => e.line < header.line)) {
    return fail(
      syntax.length
        ? syntax
        : [
            {
              line: 0,
              column: '',
              message: `The file is empty. Download the template: its first line is ${spec.layout}`,
            },
          ],
    );
  }
  const first = header.fields.join(',');
  if (header.fields.length === 1 && /[;\t]/.test(first)) {
    const sep = first.includes(';') ? 'semicolons (;)' : 'tabs';
    return fail([
      {
        line: header.line,
        column: '',
        message: `The columns are separated by ${sep}. Save the file as "CSV (comma delimited)"; its first line must be ${spec.layout}`,
      },
    ]);
  }
  const columns = new Map<C, number>();
  const headerErrors: RowError[] = [];
  header.fields.forEach((name, index) => {
    const col = spec.aliases[headerKey(name)];
    if (!col) return; // other columns (notes, names) are allowed and ignored
    if (columns.has(col))
      headerErrors.push({
        line: header.line,
        column: col,
        message: `The column ${col} appears twice in the first line`,
      });
    else columns.set(col, index);
  });
  const missing = spec.required.filter((c) => !columns.has(c));
  if (missing.length > 0) {
    headerErrors.push({
      line: header.line,
      column: missing.join(','),
      message: `The first line must name the columns ${spec.layout} (${spec.optional}); missing: ${missing.join(', ')}`,
    });
  }
  if (headerErrors.length > 0) return fail(headerErrors);

  const totalRows = parsed.recordCount - 1;
  if (totalRows === 0 && syntax.length === 0)
    return fail([{ line: header.line, column: '', message: 'The file has no rows below the first line' }]);
  if (totalRows > spec.maxRows) {
    const extra = parsed.records[spec.maxRows + 1]?.line ?? 0;
    const n = (x: number) => x.toLocaleString('en-NG');
    return fail(
      [
        {
          line: extra,
          column: '',
          message: `A ${spec.what} has at most ${n(spec.maxRows)} rows; this file has ${n(totalRows)}. ${spec.split}`,
        },
      ],
      totalRows,
    );
  }

  const width = header.fields.length;
  const withComma = spec.exampleAmount.toLocaleString('en-NG');
  return {
    ok: true,
    rows: parsed.records.slice(1),
    totalRows,
    syntax,
    cell: (fields, col) => {
      const i = columns.get(col);
      return i === undefined ? '' : (fields[i] ?? '');
    },
    widthProblem: (rec) =>
      rec.fields.length > width
        ? `This line has ${rec.fields.length} values but the first line names ${width} columns. Is there a comma inside a value (${withComma})? Write ${spec.exampleAmount}, or put the value in quotes.`
        : null,
  };
}
