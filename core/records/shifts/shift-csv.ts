// A shift report as CSV (one line per figure), for the office's spreadsheet. Amounts are exact
// naira with two decimals; text cells that a spreadsheet would run as a formula are defused.
import { koboToNairaString } from '../../../shared/money';
import type { ShiftReport } from '../../../shared/records';
import { lagosDate, lagosHm } from '../../../shared/time';
import { toCsv } from '../../../shared/csv-cell';
import { takenKobo } from './shift-report-doc';
import { ledgerLines, sweepText } from '../../../shared/ledger';
import { basketCsvRows } from './shift-report-basket';

const IN_TOTAL = { '+': 'added', '-': 'subtracted', '': '' } as const;
const PROFILE_WORDS: Record<string, string> = {
  demo: 'Demo - not real money',
  sandbox: 'Sandbox - test money',
  production: 'Production',
};

function iso(ms: number): string {
  return `${lagosDate(ms)} ${lagosHm(ms)}`;
}

export function shiftReportCsv(r: ShiftReport): { fileName: string; csv: string } {
  const t = r.totals;
  const rows: (string | number)[][] = [['section', 'item', 'count', 'amount_naira', 'in_card_total']];
  const info = (item: string, value: string) => rows.push(['shift', item, '', value]);
  info('report', r.kind === 'Z' ? `Z ${r.id ?? ''}`.trim() : 'X');
  // Which money it is, as on the printed report: a Demo or Sandbox shift never passes for real takings.
  info('profile', PROFILE_WORDS[r.shift.profile ?? 'production'] ?? String(r.shift.profile));
  info('cinema', r.cinemaName);
  info('branch', r.branch);
  info('counter', r.counterName);
  info('cashier', r.shift.cashier);
  info('opened_lagos', iso(r.shift.openedAt));
  info(r.kind === 'Z' ? 'closed_lagos' : 'totals_at_lagos', iso(r.shift.closedAt ?? r.generatedAt));
  if (r.shift.openingFloatKobo !== null)
    rows.push(['shift', 'opening_float', '', koboToNairaString(r.shift.openingFloatKobo)]);
  // The ledger's lines, in its words (shared/ledger.ts): count is of payments; `in_card_total` says added, subtracted or blank (beside it).
  for (const l of ledgerLines(t))
    rows.push(['orders', l.key, l.count, koboToNairaString(l.amountKobo), IN_TOTAL[l.inCardTotal ?? '']]);
  rows.push(['orders', 'tickets_sold', t.ticketsSold, '', '']);
  rows.push(['orders', 'card_total', t.card.count, koboToNairaString(takenKobo(r)), 'total']);
  // The sales total, tickets by show and type, concessions, tenders and drawer: beside the card total (blank).
  rows.push(...basketCsvRows(t));
  if (t.topups.available) {
    for (const l of t.topups.lines) rows.push(['topups', l.state, l.count, koboToNairaString(l.amountKobo), '']);
    rows.push([
      'topups',
      'total_not_in_card_total',
      t.topupsSuccessful.count,
      koboToNairaString(t.topupsSuccessful.amountKobo),
      '',
    ]);
  }
  for (const i of t.paidAfterClosing.items) {
    const what = `${i.ref} (was ${i.closedAs}; taken ${iso(i.at)}${i.payNo ? `; payment ${i.payNo}` : ''}${i.refund ? '; refund to be arranged' : ''})`;
    // The detail of the line `orders,paid_after_closing` above, which is already in the card total:
    // blank here, so the rows marked added and subtracted sum to the card total.
    rows.push(['paid_after_closing', what, 1, koboToNairaString(i.amountKobo), '']);
  }
  if (t.sweep) rows.push(['sweep', sweepText(t.sweep), t.sweep.paidAfterClosing, '']);
  for (const i of t.openItems)
    rows.push([`open_${i.kind}`, `${i.ref} (${i.label})`, 1, koboToNairaString(i.amountKobo)]);
  const csv = toCsv(rows.map((row) => [...row, ...Array<string>(Math.max(0, 5 - row.length)).fill('')]));
  const day = lagosDate(r.shift.openedAt);
  const fileName =
    r.kind === 'Z'
      ? `z-report-${r.id ?? 'x'}-${day}.csv`
      : `x-report-${day}-${lagosHm(r.generatedAt).replace(':', '')}.csv`;
  return { fileName, csv };
}
