// One CSV cell, one rule for every file CounterPay writes (shift reports, top-up exports).
//
// Spreadsheets run a cell that starts with = + - @ (or tab / carriage return) as a formula, so
// such text is prefixed with ' to keep it inert (CSV injection). A plain signed number written as
// text ("+2348031234567", "-5") is the exception: a spreadsheet reads it as a number, it cannot
// call anything, and prefixing it would spoil phone numbers that the office pastes back in.

export type CsvValue = string | number | null | undefined;

/** One value for a CSV cell: quoted when it holds a comma, quote or line break, defused when it could run as a formula. */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  let s = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(s) && !/^[+-]?\d[\d\s]*$/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** Rows to CSV text with CRLF line ends (what spreadsheets write). */
export function toCsv(rows: CsvValue[][]): string {
  return rows.map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
