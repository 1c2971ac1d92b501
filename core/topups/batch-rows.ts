// A batch file, checked row by row before anything is sent: the header, each value (with the
// same checks as a single top-up), references unique in the file and for the merchant. Errors
// name the line and the column so the file can be fixed and imported again.
import { MAX_BATCH_ROWS, type BatchColumn, type RowError } from '../../shared/topups';
import { readCsvTable, type CsvTableSpec } from '../../shared/csv-table';
import { REFERENCE_RE } from './reference';
import { checkTopup, type CheckedTopup, type ProviderList } from './topup-input';

interface BatchRow extends CheckedTopup {
  line: number;
  reference?: string;
}

interface BatchFileCheck {
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
  type: 'type',
  servicetype: 'type',
  service: 'type',
  provider: 'provider',
  network: 'provider',
  operator: 'provider',
  customerid: 'customerId',
  customer: 'customerId',
  phone: 'customerId',
  phonenumber: 'customerId',
  msisdn: 'customerId',
  amount: 'amount',
  amountnaira: 'amount',
  amountngn: 'amount',
  naira: 'amount',
  amountinnaira: 'amount',
  reference: 'reference',
  ref: 'reference',
  merchantreference: 'reference',
};
const TABLE: CsvTableSpec<BatchColumn> = {
  aliases: HEADER_ALIASES,
  required: ['type', 'provider', 'customerId', 'amount'],
  layout: 'type,provider,customerId,amount,reference',
  optional: 'reference is optional',
  maxRows: MAX_BATCH_ROWS,
  what: 'batch',
  split: 'Split it into several files.',
  exampleAmount: 1500,
};

export function checkBatchFile(
  text: string,
  opts: { providers: ProviderList; referenceTaken: (reference: string) => boolean },
): BatchFileCheck {
  const table = readCsvTable(text, TABLE);
  if (!table.ok) return { fatal: true, totalRows: table.totalRows, rows: [], errors: table.errors, badRows: 0 };
  const { syntax, totalRows, cell } = table;

  const errors: RowError[] = [...syntax];
  const badLines = new Set(syntax.map((e) => e.line));
  const rows: BatchRow[] = [];
  const seenRefs = new Map<string, number>();

  for (const rec of table.rows) {
    const lineErrors: RowError[] = [];
    const add = (column: string, message: string) => lineErrors.push({ line: rec.line, column, message });
    const tooWide = table.widthProblem(rec);
    if (tooWide) add('', tooWide);
    const check = checkTopup(
      {
        type: cell(rec.fields, 'type'),
        provider: cell(rec.fields, 'provider'),
        customerId: cell(rec.fields, 'customerId'),
        amount: cell(rec.fields, 'amount'),
      },
      opts.providers,
    );
    if (!check.ok) for (const [col, msg] of Object.entries(check.problems)) add(col, msg);

    const refText = cell(rec.fields, 'reference').trim();
    if (refText !== '') {
      const earlier = seenRefs.get(refText);
      if (!REFERENCE_RE.test(refText))
        add('reference', 'A reference is 1 to 64 letters, digits, - or _ (or leave it empty and one is made)');
      else if (earlier !== undefined)
        add('reference', `The reference ${refText} is also on line ${earlier}: each top-up needs its own`);
      else if (opts.referenceTaken(refText))
        add('reference', `The reference ${refText} was already used by this merchant: leave it empty and one is made`);
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
