// A batch file, checked row by row before anything is sent: the header, each value (with the
// same checks as a single top-up), references unique in the file and for the merchant. Errors
// name the line and the column so the file can be fixed and imported again.
import { MAX_BATCH_ROWS, type BatchColumn, type RowError } from '../../shared/topups';
import { parseCsv } from '../lib';
import { REFERENCE_RE } from './reference';
import { checkTopup, type CheckedTopup, type ProviderList } from './topup-input';

export interface BatchRow extends CheckedTopup {
  line: number;
  reference?: string;
}

export interface BatchFileCheck {
  /** The file as a whole cannot be used (bad header, unreadable, too many rows, no rows). */
  fatal: boolean;
  /** Data rows in the file (blank lines not counted). */
  totalRows: number;
  rows: BatchRow[];
  errors: RowError[];
  /** Rows with at least one error. */
  badRows: number;
}

const HEADER_ALIASES: Record<string, BatchColumn> = {
  type: 'type', servicetype: 'type', service: 'type',
  provider: 'provider', network: 'provider', operator: 'provider',
  customerid: 'customerId', customer: 'customerId', phone: 'customerId', phonenumber: 'customerId', msisdn: 'customerId',
  amount: 'amount', amountnaira: 'amount', amountngn: 'amount', naira: 'amount', amountinnaira: 'amount',
  reference: 'reference', ref: 'reference', merchantreference: 'reference',
};
const REQUIRED: BatchColumn[] = ['type', 'provider', 'customerId', 'amount'];
const LAYOUT = 'type,provider,customerId,amount,reference';

function headerKey(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

export function checkBatchFile(text: string, opts: { providers: ProviderList; referenceTaken: (reference: string) => boolean }): BatchFileCheck {
  const fatal = (errors: RowError[], totalRows = 0): BatchFileCheck => ({ fatal: true, totalRows, rows: [], errors, badRows: 0 });
  const parsed = parseCsv(text, { maxRecords: MAX_BATCH_ROWS + 2 });
  const syntax = parsed.errors.map((e) => ({ line: e.line, column: '', message: e.message }));
  if (parsed.fatal) return fatal(syntax);

  const header = parsed.records[0];
  if (!header || parsed.errors.some((e) => e.line < header.line)) {
    return fatal(syntax.length ? syntax : [{ line: 0, column: '', message: `The file is empty. Download the template: its first line is ${LAYOUT}` }]);
  }
  const first = header.fields.join(',');
  if (header.fields.length === 1 && /[;\t]/.test(first)) {
    const sep = first.includes(';') ? 'semicolons (;)' : 'tabs';
    return fatal([{ line: header.line, column: '', message: `The columns are separated by ${sep}. Save the file as "CSV (comma delimited)"; its first line must be ${LAYOUT}` }]);
  }
  const columns = new Map<BatchColumn, number>();
  const headerErrors: RowError[] = [];
  header.fields.forEach((name, index) => {
    const col = HEADER_ALIASES[headerKey(name)];
    if (!col) return; // other columns (notes, names) are allowed and ignored
    if (columns.has(col)) headerErrors.push({ line: header.line, column: col, message: `The column ${col} appears twice in the first line` });
    else columns.set(col, index);
  });
  const missing = REQUIRED.filter((c) => !columns.has(c));
  if (missing.length > 0) {
    headerErrors.push({
      line: header.line,
      column: missing.join(','),
      message: `The first line must name the columns ${LAYOUT} (reference is optional); missing: ${missing.join(', ')}`,
    });
  }
  if (headerErrors.length > 0) return fatal(headerErrors);

  const totalRows = parsed.recordCount - 1;
  if (totalRows === 0 && syntax.length === 0) return fatal([{ line: header.line, column: '', message: 'The file has no rows below the first line' }]);
  if (totalRows > MAX_BATCH_ROWS) {
    const extra = parsed.records[MAX_BATCH_ROWS + 1]?.line ?? 0;
    return fatal([{ line: extra, column: '', message: `A batch has at most ${MAX_BATCH_ROWS.toLocaleString('en-NG')} rows; this file has ${totalRows.toLocaleString('en-NG')}. Split it into several files.` }], totalRows);
  }

  const errors: RowError[] = [...syntax];
  const badLines = new Set(syntax.map((e) => e.line));
  const rows: BatchRow[] = [];
  const seenRefs = new Map<string, number>();
  const width = header.fields.length;
  const cell = (fields: string[], col: BatchColumn): string => {
    const i = columns.get(col);
    return i === undefined ? '' : (fields[i] ?? '');
  };

  for (const rec of parsed.records.slice(1)) {
    const lineErrors: RowError[] = [];
    const add = (column: string, message: string) => lineErrors.push({ line: rec.line, column, message });
    if (rec.fields.length > width) {
      add('', `This line has ${rec.fields.length} values but the first line names ${width} columns. Is there a comma inside a value (1,500)? Write 1500, or put the value in quotes.`);
    }
    const check = checkTopup(
      { type: cell(rec.fields, 'type'), provider: cell(rec.fields, 'provider'), customerId: cell(rec.fields, 'customerId'), amount: cell(rec.fields, 'amount') },
      opts.providers,
    );
    if (!check.ok) for (const [col, msg] of Object.entries(check.problems)) add(col, msg);

    const refText = cell(rec.fields, 'reference').trim();
    if (refText !== '') {
      const earlier = seenRefs.get(refText);
      if (!REFERENCE_RE.test(refText)) add('reference', 'A reference is 1 to 64 letters, digits, - or _ (or leave it empty and one is made)');
      else if (earlier !== undefined) add('reference', `The reference ${refText} is also on line ${earlier}: each top-up needs its own`);
      else if (opts.referenceTaken(refText)) add('reference', `The reference ${refText} was already used by this merchant: leave it empty and one is made`);
      if (earlier === undefined) seenRefs.set(refText, rec.line);
    }
    if (lineErrors.length > 0 || !check.ok) {
      errors.push(...lineErrors);
      badLines.add(rec.line);
      continue;
    }
    rows.push({ ...check.value, line: rec.line, ...(refText ? { reference: refText } : {}) });
  }
  errors.sort((a, b) => a.line - b.line);
  return { fatal: false, totalRows, rows, errors, badRows: badLines.size };
}
