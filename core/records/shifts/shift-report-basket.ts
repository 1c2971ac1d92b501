// The basket's sections of a shift report, printed (shift-report-doc.ts) and as CSV rows
// (shift-csv.ts): the sales total of every tender, tickets by show and ticket type, concessions by
// item and by category, the tenders, the drawer and the refunds after the sale, each figure the ledger's (shared/ledger.ts,
// shared/ledger-basket.ts) in the words of shared/ledger-basket-lines.ts.
import { formatNaira, koboToNairaString } from '../../../shared/money';
import { SALES_TOTAL_LABEL } from '../../../shared/ledger';
import {
  CATEGORIES_HEADING,
  CONCESSIONS_HEADING,
  DRAWER_HEADING,
  drawerRows,
  drawerVerdict,
  overShortText,
  TENDERS_HEADING,
  TICKET_TYPES_HEADING,
  tenderRows,
} from '../../../shared/ledger-basket-lines';
import { handBackText } from '../../../shared/tender-lines';
import { hasRefunds, REFUNDS_HEADING, refundRows } from '../../../shared/ledger-refunds';
import { EXCHANGES_HEADING, exchangeRows, hasExchanges } from '../../../shared/ledger-exchanges';
import { CASES_HEADING, caseCountRows, hasCases } from '../../../shared/cases';
import type { ShiftTotals } from '../../../shared/records';
import { formatLagosTime, lagosDate, lagosHm } from '../../../shared/time';
import type { Block } from '../printing/print-doc';

const showText = (s: { showDate: string; showTime: string; filmTitle: string; filmName: string }) =>
  `${s.showDate} ${s.showTime} ${s.filmTitle || s.filmName}`;
const counted = (label: string, count: number | null) => (count === null ? label : `${label} (${count})`);

/** The sales total, printed under the card total (a sale wholly in cash is in it, not in the card total). */
export function salesTotalBlocks(t: ShiftTotals): Block[] {
  if (!t.salesTotal) return [];
  return [
    {
      t: 'pair',
      label: `${SALES_TOTAL_LABEL} (${t.salesTotal.count})`,
      value: formatNaira(t.salesTotal.amountKobo),
      bold: true,
    },
  ];
}

/** Tickets by show and type, concessions by item and category, the tenders and the drawer. */
export function basketBlocks(t: ShiftTotals): Block[] {
  const b: Block[] = [];
  if (t.ticketTypes && t.ticketTypes.length > 0) {
    b.push({ t: 'rule' }, { t: 'heading', text: TICKET_TYPES_HEADING });
    let show = '';
    for (const l of t.ticketTypes) {
      const s = showText(l);
      if (s !== show) b.push({ t: 'text', text: s, bold: true });
      show = s;
      b.push({ t: 'pair', label: `  ${l.quantity} x ${l.ticketType}`, value: formatNaira(l.amountKobo) });
      if (l.bookingFeeKobo > 0) b.push({ t: 'pair', label: '    booking fee', value: formatNaira(l.bookingFeeKobo) });
    }
  }
  if (t.concessions && t.concessions.items.length > 0) {
    b.push({ t: 'rule' }, { t: 'heading', text: CONCESSIONS_HEADING });
    for (const i of t.concessions.items)
      b.push({ t: 'pair', label: `${i.quantity} x ${i.name} (${i.code})`, value: formatNaira(i.amountKobo) });
    b.push({ t: 'heading', text: CATEGORIES_HEADING });
    for (const c of t.concessions.categories)
      b.push({ t: 'pair', label: `${c.category} (${c.quantity})`, value: formatNaira(c.amountKobo) });
    b.push({
      t: 'pair',
      label: `Concessions (${t.concessions.quantity})`,
      value: formatNaira(t.concessions.amountKobo),
      bold: true,
    });
  }
  if (t.tenders) {
    b.push({ t: 'rule' }, { t: 'heading', text: TENDERS_HEADING });
    for (const r of tenderRows(t.tenders))
      b.push({ t: 'pair', label: counted(r.label, r.count), value: formatNaira(r.amountKobo) });
    for (const i of t.tenders.toHandBack.items) b.push({ t: 'small', text: handBackText(i) });
  }
  if (t.drawer) {
    const d = t.drawer;
    b.push({ t: 'rule' }, { t: 'heading', text: DRAWER_HEADING });
    for (const r of drawerRows(d))
      b.push({
        t: 'pair',
        label: counted(r.label, r.count),
        value: formatNaira(r.amountKobo),
        ...(r.key === 'expected' || r.key === 'over_short' ? { bold: true } : {}),
      });
    for (const x of d.dropItems)
      b.push({
        t: 'text',
        text: `  Drop ${formatLagosTime(x.at)} ${formatNaira(x.amountKobo)} by ${x.by}${x.note ? `: ${x.note}` : ''}`,
      });
    if (d.count) b.push({ t: 'text', text: `Counted by ${d.count.by} at ${formatLagosTime(d.count.at)}` });
    b.push({ t: 'text', text: drawerVerdict(d), bold: true });
  }
  if (hasRefunds(t.refunds)) {
    b.push({ t: 'rule' }, { t: 'heading', text: REFUNDS_HEADING });
    for (const r of refundRows(t.refunds))
      b.push({
        t: 'pair',
        label: counted(r.label, r.count),
        value: formatNaira(r.amountKobo),
        ...(r.key === 'net_sales' ? { bold: true } : {}),
      });
  }
  if (hasExchanges(t.exchanges)) {
    b.push({ t: 'rule' }, { t: 'heading', text: EXCHANGES_HEADING });
    for (const r of exchangeRows(t.exchanges))
      b.push({ t: 'pair', label: counted(r.label, r.count), value: formatNaira(r.amountKobo) });
  }
  if (hasCases(t.cases)) {
    b.push({ t: 'rule' }, { t: 'heading', text: CASES_HEADING });
    for (const r of caseCountRows(t.cases)) b.push({ t: 'pair', label: r.label, value: String(r.count) });
  }
  return b;
}

type Row = (string | number)[];
const naira = koboToNairaString;

/** The CSV rows of the same sections: section, item, count, amount_naira (never in the card total). */
export function basketCsvRows(t: ShiftTotals): Row[] {
  const rows: Row[] = [];
  if (t.salesTotal) rows.push(['orders', 'sales_total', t.salesTotal.count, naira(t.salesTotal.amountKobo), '']);
  for (const l of t.ticketTypes ?? []) {
    rows.push(['tickets', `${showText(l)} | ${l.ticketType}`, l.quantity, naira(l.amountKobo), '']);
    rows.push(['ticket_booking_fees', `${showText(l)} | ${l.ticketType}`, l.quantity, naira(l.bookingFeeKobo), '']);
  }
  if (t.concessions) {
    for (const i of t.concessions.items)
      rows.push(['concessions', `${i.code} ${i.name} (${i.category})`, i.quantity, naira(i.amountKobo), '']);
    for (const c of t.concessions.categories)
      rows.push(['concession_categories', c.category, c.quantity, naira(c.amountKobo), '']);
    rows.push(['concession_categories', 'total', t.concessions.quantity, naira(t.concessions.amountKobo), '']);
  }
  if (t.tenders) {
    for (const r of tenderRows(t.tenders)) rows.push(['tenders', r.key, r.count ?? '', naira(r.amountKobo), '']);
    for (const i of t.tenders.toHandBack.items)
      rows.push(['to_hand_back', `${i.ref} (card ${i.outcome})`, 1, naira(i.amountKobo), '']);
  }
  if (t.drawer) {
    for (const r of drawerRows(t.drawer)) rows.push(['drawer', r.key, r.count ?? '', naira(r.amountKobo), '']);
    for (const x of t.drawer.dropItems)
      rows.push([
        'drawer_drop',
        `${lagosDate(x.at)} ${lagosHm(x.at)} by ${x.by}${x.note ? `: ${x.note}` : ''}`,
        1,
        naira(x.amountKobo),
        '',
      ]);
    if (t.drawer.count)
      rows.push([
        'drawer_count',
        `${lagosDate(t.drawer.count.at)} ${lagosHm(t.drawer.count.at)} by ${t.drawer.count.by}`,
        '',
        '',
        '',
      ]);
  }
  if (hasRefunds(t.refunds))
    for (const r of refundRows(t.refunds)) rows.push(['refunds', r.key, r.count ?? '', naira(r.amountKobo), '']);
  if (hasExchanges(t.exchanges))
    for (const r of exchangeRows(t.exchanges)) rows.push(['exchanges', r.key, r.count ?? '', naira(r.amountKobo), '']);
  if (hasCases(t.cases)) for (const r of caseCountRows(t.cases)) rows.push(['cases', r.key, r.count, '', '']);
  return rows;
}

/** The same sections as the Z report's lines the Hub keeps (amounts and counts never negative: over/short in words). */
export function basketHubLines(t: ShiftTotals): { label: string; kobo: number; count: number }[] {
  const out: { label: string; kobo: number; count: number }[] = [];
  if (t.salesTotal)
    out.push({ label: SALES_TOTAL_LABEL, kobo: t.salesTotal.amountKobo, count: Math.max(0, t.salesTotal.count) });
  if (t.tenders)
    for (const r of tenderRows(t.tenders))
      out.push({ label: `Tenders: ${r.label}`, kobo: r.amountKobo, count: r.count ?? 0 });
  if (t.drawer) {
    for (const r of drawerRows(t.drawer)) {
      if (r.key === 'over_short') continue;
      out.push({ label: `Drawer: ${r.label.replace(/^[-+=] /, '')}`, kobo: r.amountKobo, count: r.count ?? 0 });
    }
    const o = overShortText(t.drawer.overShortKobo);
    if (o) out.push({ label: `Drawer: ${o.label}`, kobo: o.amountKobo, count: 0 });
  }
  // Net sales can be below zero (refunds of sales paid in earlier shifts): the Hub keeps no sign, so it is left out.
  if (hasRefunds(t.refunds))
    for (const r of refundRows(t.refunds))
      if (r.key !== 'net_sales') out.push({ label: `Refunds: ${r.label}`, kobo: r.amountKobo, count: r.count ?? 0 });
  if (hasExchanges(t.exchanges))
    for (const r of exchangeRows(t.exchanges))
      out.push({ label: `Exchanges: ${r.label}`, kobo: r.amountKobo, count: r.count ?? 0 });
  return out;
}
