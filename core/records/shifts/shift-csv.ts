// A shift report as CSV (one line per figure), for the office's spreadsheet. Amounts are exact
// naira with two decimals; text cells that a spreadsheet would run as a formula are defused.
import { koboToNairaString } from '../../../shared/money';
import type { ShiftReport } from '../../../shared/records';
import { lagosDate, lagosHm } from '../../../shared/time';
import { toCsv } from '../../lib';
import { takenKobo } from './shift-report-doc';

function iso(ms: number): string {
  return `${lagosDate(ms)} ${lagosHm(ms)}`;
}

export function shiftReportCsv(r: ShiftReport): { fileName: string; csv: string } {
  const t = r.totals;
  const rows: (string | number)[][] = [['section', 'item', 'count', 'amount_naira']];
  const info = (item: string, value: string) => rows.push(['shift', item, '', value]);
  info('report', r.kind === 'Z' ? `Z ${r.id ?? ''}`.trim() : 'X');
  info('cinema', r.cinemaName);
  info('branch', r.branch);
  info('counter', r.counterName);
  info('cashier', r.shift.cashier);
  info('opened_lagos', iso(r.shift.openedAt));
  info(r.kind === 'Z' ? 'closed_lagos' : 'totals_at_lagos', iso(r.shift.closedAt ?? r.generatedAt));
  if (r.shift.openingFloatKobo !== null) rows.push(['shift', 'opening_float', '', koboToNairaString(r.shift.openingFloatKobo)]);
  for (const [item, b] of [['paid', t.paid], ['failed', t.failed], ['cancelled', t.cancelled], ['expired', t.expired], ['not_finished', t.open], ['paid_late_from_earlier_shifts', t.paidLate], ['paid_after_closing', t.paidAfterClosing]] as const) {
    rows.push(['orders', item, b.count, koboToNairaString(b.amountKobo)]);
  }
  rows.push(['orders', 'tickets_sold', t.ticketsSold, '']);
  rows.push(['orders', 'booking_fees_in_paid', '', koboToNairaString(t.bookingFeesKobo)]);
  rows.push(['orders', 'provider_fees', '', koboToNairaString(t.providerFeesKobo)]);
  rows.push(['orders', 'card_total', '', koboToNairaString(takenKobo(r))]);
  if (t.topups.available) for (const l of t.topups.lines) rows.push(['topups', l.state, l.count, koboToNairaString(l.amountKobo)]);
  for (const i of t.paidAfterClosing.items) rows.push(['paid_after_closing', `${i.ref} (was ${i.closedAs}${i.payNo ? `; payment ${i.payNo}` : ''})`, 1, koboToNairaString(i.amountKobo)]);
  if (t.sweep) rows.push(['sweep', `checked ${t.sweep.checked} closed orders with the provider`, t.sweep.paidAfterClosing, '']);
  for (const i of t.openItems) rows.push([`open_${i.kind}`, `${i.ref} (${i.label})`, 1, koboToNairaString(i.amountKobo)]);
  const csv = toCsv(rows);
  const day = lagosDate(r.shift.openedAt);
  const fileName = r.kind === 'Z' ? `z-report-${r.id ?? 'x'}-${day}.csv` : `x-report-${day}-${lagosHm(r.generatedAt).replace(':', '')}.csv`;
  return { fileName, csv };
}
