// A shift report (X: running, Z: at the close) as a print document, printed like a receipt.
import { formatNaira } from '../../../shared/money';
import { ledgerLines, sweepText, TICKETS_SOLD_LABEL, TOPUPS_TOTAL_LABEL } from '../../../shared/ledger';
import type { ShiftReport } from '../../../shared/records';
import { formatLagosDateTime, formatLagosTime } from '../../../shared/time';
import type { Block, PrintDoc } from '../printing/print-doc';
import { basketBlocks, salesTotalBlocks } from './shift-report-basket';

/** The card total of the report, as the ledger computed it (shared/ledger.ts). */
export function takenKobo(r: ShiftReport): number {
  return r.totals.card.amountKobo;
}

export function shiftReportTitle(r: ShiftReport): string {
  return r.kind === 'Z' ? `Z report #${r.id ?? '?'} (shift closed)` : 'X report (running totals)';
}

export function shiftReportDoc(r: ShiftReport, reprint: boolean): PrintDoc {
  const t = r.totals;
  const b: Block[] = [{ t: 'title', text: r.cinemaName }];
  if (r.branch) b.push({ t: 'center', text: r.branch });
  if (reprint) b.push({ t: 'mark', text: 'REPRINT' });
  // A shift opened in the Demo profile: its report must never pass for a real day's takings.
  if (r.shift.profile === 'demo') b.push({ t: 'banner', text: 'DEMO SHIFT — NOT REAL MONEY' });
  b.push(
    {
      t: 'center',
      text: r.kind === 'Z' ? `Z REPORT #${r.id ?? '?'} - SHIFT CLOSED` : 'X REPORT - SHIFT STILL OPEN',
      bold: true,
    },
    { t: 'rule' },
    { t: 'pair', label: 'Cashier', value: r.shift.cashier },
    { t: 'pair', label: 'Counter', value: r.counterName },
    { t: 'pair', label: 'Opened', value: formatLagosDateTime(r.shift.openedAt) },
    r.kind === 'Z' && r.shift.closedAt !== null
      ? { t: 'pair', label: 'Closed', value: formatLagosDateTime(r.shift.closedAt) }
      : { t: 'pair', label: 'Totals at', value: formatLagosDateTime(r.generatedAt) },
  );
  if (r.shift.openingFloatKobo !== null)
    b.push({ t: 'pair', label: 'Opening float (cash)', value: formatNaira(r.shift.openingFloatKobo) });
  b.push({ t: 'rule' }, { t: 'heading', text: 'Card payments' });
  // Every line as the ledger labels it; a line of late money only when there is some.
  const optional = new Set(['paid_late_from_earlier_shifts', 'paid_after_closing', 'refund_to_arrange']);
  for (const l of ledgerLines(t)) {
    if (optional.has(l.key) && l.count === 0) continue;
    const sign = l.inCardTotal === '-' ? '-' : '';
    b.push({ t: 'pair', label: `${l.label} (${l.count})`, value: `${sign}${formatNaira(l.amountKobo)}` });
    if (l.key === 'paid_after_closing') {
      for (const i of t.paidAfterClosing.items) {
        b.push({
          t: 'text',
          text: `  ${i.ref} ${formatNaira(i.amountKobo)} ${formatLagosTime(i.at)}${i.refund ? ' (refund)' : ''}`,
        });
        // On a line of its own: on 58 or 80 mm paper it would wrap, splitting "payment" from its number.
        if (i.payNo) b.push({ t: 'text', text: `    payment ${i.payNo}` });
      }
    }
  }
  b.push({ t: 'pair', label: TICKETS_SOLD_LABEL, value: String(t.ticketsSold) });
  if (t.noShift.count > 0) {
    b.push({
      t: 'small',
      text: 'SOLD WITH NO SHIFT OPEN: made before this shift opened, in no Z report. Check them on the Orders screen.',
    });
  }
  b.push(
    { t: 'rule', double: true },
    { t: 'total', label: `CARD TOTAL (${t.card.count})`, value: formatNaira(takenKobo(r)) },
    {
      t: 'small',
      text: 'Card total: what the terminal took (card parts) for sales paid, sold earlier and paid now, paid after closing; not cash, not refunds to be arranged, not top-ups.',
    },
    ...salesTotalBlocks(t),
    ...basketBlocks(t),
    { t: 'rule' },
  );

  b.push({ t: 'heading', text: 'Top-ups' });
  if (!t.topups.available) b.push({ t: 'text', text: 'No top-ups on this counter.' });
  else if (t.topups.lines.length === 0) b.push({ t: 'text', text: 'None in this shift.' });
  else {
    for (const l of t.topups.lines)
      b.push({ t: 'pair', label: `${l.label} (${l.count})`, value: formatNaira(l.amountKobo) });
    b.push({
      t: 'pair',
      label: `${TOPUPS_TOTAL_LABEL} (${t.topupsSuccessful.count})`,
      value: formatNaira(t.topupsSuccessful.amountKobo),
    });
  }

  if (t.openItems.length > 0) {
    b.push({ t: 'rule' }, { t: 'mark', text: `${t.openItems.length} NOT FINISHED` });
    for (const i of t.openItems) {
      b.push(
        { t: 'pair', label: i.ref, value: formatNaira(i.amountKobo) },
        { t: 'text', text: `${formatLagosTime(i.createdAt)} - ${i.label}` },
      );
    }
    b.push({ t: 'small', text: 'Not counted above. Check them on the Orders screen before the customer leaves.' });
  }
  if (t.sweep) {
    b.push(
      { t: 'rule' },
      {
        t: 'text',
        text: sweepText(t.sweep),
      },
    );
    if (t.sweep.incomplete) b.push({ t: 'small', text: `Not all could be checked: ${t.sweep.incomplete}` });
    for (const u of t.sweep.unknown)
      b.push({ t: 'pair', label: u.outOrderNo, value: formatNaira(u.amountKobo) }, { t: 'small', text: u.what });
  }
  b.push({ t: 'small', text: 'Times are Lagos time (WAT).' });
  return { title: shiftReportTitle(r), blocks: b };
}
