// One CSV cell, one rule for every file CounterPay writes: the counter's shift reports and top-up
// exports and the Hub's dashboard exports.
//
// Spreadsheets run a cell as a formula when it starts with = + - @ — also after spaces, tabs or
// line breaks, which they skip — and treat a leading tab or carriage return as the start of one
// too. Such text gets a leading ' so it stays inert (CSV injection). The one exception is a cell
// that is entirely a number literal: an optional sign, digits (in groups split by single spaces, as
// a phone number "+234 803 123 4567" is written) and an optional decimal part ("-12.50"). A
// spreadsheet reads it as a number, it cannot call anything, and a prefix would spoil phone
// numbers and amounts that people paste back in.

type CsvValue = string | number | null | undefined;

/** Starts like a formula: = + - @ after any spaces, tabs or line breaks, or a leading tab or CR. */
const FORMULA_START = /^(?:[\t\r]|[ \t\r\n]*[=+\-@])/;
/** Entirely a number literal: a sign, digit groups split by single spaces, a decimal part. */
const NUMBER_LITERAL = /^[+-]?\d+(?: \d+)*(?:\.\d+)?$/;

/**
 * True when a text cell would run as a formula and is not a plain number (or phone number).
 * @internal for tests
 */
export function csvNeedsDefusing(text: string): boolean {
  return FORMULA_START.test(text) && !NUMBER_LITERAL.test(text);
}

/**
 * One value for a CSV cell: quoted when it holds a comma, quote or line break, defused when it could run as a formula.
 * @internal for tests
 */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  let s = String(value);
  if (typeof value === 'string' && csvNeedsDefusing(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** One CSV line (no line end). */
export function csvLine(cells: readonly CsvValue[]): string {
  return cells.map(csvCell).join(',');
}

/** Rows to CSV text with CRLF line ends (what spreadsheets write). */
export function toCsv(rows: readonly CsvValue[][]): string {
  return rows.map(csvLine).join('\r\n') + '\r\n';
}
