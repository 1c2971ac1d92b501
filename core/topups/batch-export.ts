// The files a batch offers for download: the template to fill in, and the results (one line per
// row of the imported file, refused rows included) to keep or send to accounts.
import { BATCH_COLUMNS, EXPORT_COLUMNS, TOPUP_EXPORT_STATUS, type CsvFile, type RowError } from '../../shared/topups';
import { toCsv } from '../../shared/csv-cell';
import type { BatchRecord, TopupRecord } from './topup-rows';

export function batchTemplate(): CsvFile {
  const csv = toCsv([
    [...BATCH_COLUMNS],
    ['airtime', 'MTN', '0803 123 4567', '500', ''],
    ['airtime', 'GLO', '08051234567', '1000', ''],
    ['betting', 'BET9JA', '20001', '2000', ''],
  ]);
  return { fileName: 'topups-template.csv', csv };
}

/** row = the line of the imported file; refused rows carry status REFUSED and their errors. */
export function batchResultsCsv(batch: BatchRecord, items: TopupRecord[], rowErrors: RowError[]): CsvFile {
  const lines: { line: number; cells: (string | number)[] }[] = items.map((it) => ({
    line: it.line ?? 0,
    cells: [it.line ?? '', it.reference, it.orderNo ?? '', TOPUP_EXPORT_STATUS[it.state], it.errorMsg],
  }));
  const itemLines = new Set(items.map((i) => i.line));
  const refused = new Map<number, string[]>();
  for (const e of rowErrors) {
    if (itemLines.has(e.line)) continue; // taken out by the customer check: the item line says it
    const list = refused.get(e.line) ?? [];
    list.push(e.column ? `${e.column}: ${e.message}` : e.message);
    refused.set(e.line, list);
  }
  for (const [line, msgs] of refused) lines.push({ line, cells: [line, '', '', 'REFUSED', msgs.join('; ')] });
  lines.sort((a, b) => a.line - b.line);
  const base =
    batch.fileName
      .replace(/\.csv$/i, '')
      .replace(/[^A-Za-z0-9_.-]+/g, '-')
      .slice(0, 60) || 'batch';
  return {
    fileName: `${base}-results-${batch.id}.csv`,
    csv: toCsv([[...EXPORT_COLUMNS], ...lines.map((l) => l.cells)]),
  };
}
