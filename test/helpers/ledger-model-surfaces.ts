// The basket lines of the one ledger's model-based test (test/integration/records/ledger-model.test.ts)
// on every surface of a report: the contract's figures, the Shift screen as React renders it, the
// printed text and the CSV, each compared with the model (test/helpers/ledger-model.ts); with the
// refunds after the sale (issue 39): the drawer's cash paid out and the refunds' lines.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { expect } from 'vitest';
import { escposOf } from '../../core/records/printing/escpos';
import { shiftReportDoc } from '../../core/records/shifts/shift-report-doc';
import { SALES_TOTAL_LABEL } from '../../shared/ledger';
import { NET_SALES_LABEL, REFUNDS_LABEL } from '../../shared/ledger-refunds';
import { formatNaira, koboToNairaString } from '../../shared/money';
import type { ShiftReport } from '../../shared/records';
import { ShiftFigures } from '../../renderer/src/screens/shift/ShiftFigures';
import type { SalesMix } from '../../shared/hub-sales-contract';
import type { Expect } from './ledger-model';
import { escposText } from './loopback-printer';
import { SALE_INPUT } from './orders-db';

/** The figure the Shift screen shows under a test id, as React renders it. */
export function screenFigure(html: string, testId: string): string | null {
  const m = new RegExp(`data-testid="${testId}"[^>]*>(.*?)</div>`).exec(html);
  return m
    ? m[1]!
        .replace(/<[^>]+>/g, ' ')
        .replace(/\s+/g, ' ')
        .trim()
    : null;
}

/** The model's tender and drawer lines as [CSV key, count (null: none), kobo]: the rows every surface shows. */
function modelRows(want: Expect): {
  tenders: [string, number | null, number][];
  drawer: [string, number | null, number][];
  refunds: [string, number | null, number][];
} {
  const t = want.tenders;
  const d = want.drawer;
  const tenders: [string, number | null, number][] = [
    ['card', t.card.count, t.card.kobo],
    ['cash', t.cash.count, t.cash.kobo],
    ['split_cash', t.split.count, t.split.cash],
    ['split_card', t.split.count, t.split.card],
    ['taken_by_card', t.cardTaken.count, t.cardTaken.kobo],
    ['cash_taken', t.cashTaken.count, t.cashTaken.kobo],
  ];
  if (t.cashHeld.count) tenders.push(['cash_held', t.cashHeld.count, t.cashHeld.kobo]);
  if (t.toHandBack.count) tenders.push(['to_hand_back', t.toHandBack.count, t.toHandBack.kobo]);
  const drawer: [string, number | null, number][] = [
    ['float', null, d.float],
    ['cash_taken', d.cashTaken.count, d.cashTaken.kobo],
    ['cash_paid_out', d.cashPaidOut.count, d.cashPaidOut.kobo],
    ['drops', d.drops.count, d.drops.kobo],
    ['expected', null, d.expected],
  ];
  if (d.counted !== null) drawer.push(['counted', null, d.counted], ['over_short', null, d.overShort!]);
  // The refunds' lines, once there is a refund made, returned or still owed in the window.
  const r = want.refunds;
  const refunds: [string, number | null, number][] =
    r.made.count + r.cardReturned.count + r.cardStillOwed.count > 0
      ? [
          ['refunds', r.made.count, r.made.kobo],
          ['refunds_cash', r.cash.count, r.cash.kobo],
          ['refunds_card_owed', r.card.count, r.card.kobo],
          ['refunds_card_returned', r.cardReturned.count, r.cardReturned.kobo],
          ['refunds_card_still_owed', r.cardStillOwed.count, r.cardStillOwed.kobo],
          ['net_sales', null, r.netSales],
        ]
      : [];
  return { tenders, drawer, refunds };
}

const showText = (time: string) => `${SALE_INPUT.showDate} ${time} ${SALE_INPUT.filmTitle}`;
/** The model's tickets key: the ticket type, and `@time` for another show of the film (an exchange's 22:00). */
const typeKey = (key: string): [type: string, time: string] => {
  const [type, time] = key.split('@');
  return [type!, time ?? SALE_INPUT.showTime];
};
const byShowThenType = (a: string, b: string) =>
  byText(typeKey(a)[1], typeKey(b)[1]) || byText(typeKey(a)[0], typeKey(b)[0]);
const byText = (a: string, b: string) => a.localeCompare(b);

/** The basket lines of one report (sales total, tickets by type, concessions, tenders, drawer) on every surface equal the model. */
export function checkBasketFigures(r: ShiftReport, html: string, csvText: string, want: Expect, where: string): void {
  const t = r.totals;
  // The report as the contract carries it.
  expect(
    {
      salesTotal: t.salesTotal,
      ticketTypes: (t.ticketTypes ?? []).map((l) => [
        l.filmName,
        l.ticketType,
        l.quantity,
        l.amountKobo,
        l.bookingFeeKobo,
      ]),
      items: (t.concessions?.items ?? []).map((i) => [i.code, i.name, i.category, i.quantity, i.amountKobo]),
      categories: (t.concessions?.categories ?? []).map((c) => [c.category, c.quantity, c.amountKobo]),
      concessions: [t.concessions?.quantity, t.concessions?.amountKobo],
    },
    `${where}: sales total, tickets by type, concessions`,
  ).toEqual({
    salesTotal: { count: want.salesTotal.count, amountKobo: want.salesTotal.kobo },
    ticketTypes: [...want.ticketTypes.entries()]
      .sort(([a], [b]) => byShowThenType(a, b))
      .map(([key, x]) => [SALE_INPUT.filmName, typeKey(key)[0], x.quantity, x.amount, x.fee]),
    items: [...want.items.entries()]
      .sort(([a, x], [b, y]) => byText(x.category, y.category) || byText(a, b))
      .map(([code, x]) => [code, x.name, x.category, x.quantity, x.amount]),
    categories: [...want.categories.entries()]
      .sort(([a], [b]) => byText(a, b))
      .map(([c, x]) => [c, x.quantity, x.amount]),
    concessions: [want.concessions.quantity, want.concessions.amount],
  });
  const wt = want.tenders;
  const b = (x: { count: number; kobo: number }) => ({ count: x.count, amountKobo: x.kobo });
  expect(
    {
      ...t.tenders,
      toHandBack: t.tenders && {
        count: t.tenders.toHandBack.count,
        amountKobo: t.tenders.toHandBack.amountKobo,
        refs: t.tenders.toHandBack.items.map((i) => i.ref).sort(),
      },
    },
    `${where}: the tenders`,
  ).toEqual({
    card: b(wt.card),
    cash: b(wt.cash),
    split: { count: wt.split.count, cashKobo: wt.split.cash, cardKobo: wt.split.card },
    cardTaken: b(wt.cardTaken),
    cashTaken: b(wt.cashTaken),
    toHandBack: { ...b(wt.toHandBack), refs: [...wt.toHandBack.refs].sort() },
    cashHeld: b(wt.cashHeld),
  });
  const d = t.drawer!;
  expect(
    [d.floatKobo, d.cashTaken, d.cashPaidOut, d.drops, d.expectedKobo, d.countedKobo, d.overShortKobo],
    `${where}: the drawer`,
  ).toEqual([
    want.drawer.float,
    b(want.drawer.cashTaken),
    b(want.drawer.cashPaidOut),
    b(want.drawer.drops),
    want.drawer.expected,
    want.drawer.counted,
    want.drawer.overShort,
  ]);

  const wr = want.refunds;
  expect(t.refunds, `${where}: the refunds after the sale`).toEqual({
    made: b(wr.made),
    cash: b(wr.cash),
    card: b(wr.card),
    cardReturned: b(wr.cardReturned),
    cardStillOwed: b(wr.cardStillOwed),
    netSalesKobo: wr.netSales,
  });
  expect(t.exchanges ?? { count: 0, amountKobo: 0 }, `${where}: the exchanges done and the credit they moved`).toEqual(
    b(want.exchanges),
  );
  expect(t.cases ?? { opened: 0, stillOpen: 0 }, `${where}: complaint cases opened and still open`).toEqual(want.cases);
  const rows = modelRows(want);
  // The Shift screen: each tender and drawer line with its count and amount, and no other.
  const screen = renderToStaticMarkup(createElement(ShiftFigures, { report: r }));
  for (const [prefix, list, all] of [
    [
      'tenders',
      rows.tenders,
      ['card', 'cash', 'split_cash', 'split_card', 'taken_by_card', 'cash_taken', 'cash_held', 'to_hand_back'],
    ],
    [
      'drawer-line',
      rows.drawer,
      ['float', 'cash_taken', 'cash_paid_out', 'drops', 'expected', 'counted', 'over_short'],
    ],
    [
      'refunds-line',
      rows.refunds,
      ['refunds', 'refunds_cash', 'refunds_card_owed', 'refunds_card_returned', 'refunds_card_still_owed', 'net_sales'],
    ],
  ] as const) {
    for (const key of all) {
      const row = list.find((x) => x[0] === key);
      const shown = screenFigure(screen, `${prefix}-${key}`);
      if (!row) {
        expect(shown, `${where}: ${prefix} ${key} on the screen`).toBeNull();
        continue;
      }
      expect(shown, `${where}: ${prefix} ${key} on the screen`).toMatch(
        new RegExp(`${row[1] === null ? '' : `\\(${row[1]}\\) `}${escape(formatNaira(row[2]))}$`),
      );
    }
  }
  // Printed: the sales total, cash taken, expected and over/short lines.
  const printed = escposText(escposOf(shiftReportDoc(r, false), '80')).map((l) => l.trim());
  const naira = (k: number) => formatNaira(k).replace('₦', 'N');
  const printedLine = (label: string, kobo: number) =>
    expect(
      printed.some((l) => l.startsWith(label) && l.endsWith(` ${naira(kobo)}`)),
      `${where}: "${label} ... ${naira(kobo)}" printed`,
    ).toBe(true);
  printedLine(`${SALES_TOTAL_LABEL} (${want.salesTotal.count})`, want.salesTotal.kobo);
  printedLine(`+ Cash taken (${want.drawer.cashTaken.count})`, want.drawer.cashTaken.kobo);
  printedLine(`- Drops to the safe (${want.drawer.drops.count})`, want.drawer.drops.kobo);
  printedLine('= Expected in the drawer', want.drawer.expected);
  if (want.drawer.overShort !== null) printedLine('Over/short (counted - expected)', want.drawer.overShort);
  printedLine(`- Cash paid out (refunds) (${want.drawer.cashPaidOut.count})`, want.drawer.cashPaidOut.kobo);
  if (rows.refunds.length) {
    printedLine(`${REFUNDS_LABEL} (${wr.made.count})`, wr.made.kobo);
    printedLine(`Card refunds still owed (${wr.cardStillOwed.count})`, wr.cardStillOwed.kobo);
    printedLine(NET_SALES_LABEL, wr.netSales);
  }
  // The CSV: the same rows.
  const csv = csvText.trimEnd().split('\r\n');
  const n = koboToNairaString;
  const wantRows = [
    `orders,sales_total,${want.salesTotal.count},${n(want.salesTotal.kobo)},`,
    ...rows.tenders.map(([k, c, kobo]) => `tenders,${k},${c ?? ''},${n(kobo)},`),
    ...rows.drawer.map(([k, c, kobo]) => `drawer,${k},${c ?? ''},${n(kobo)},`),
    ...rows.refunds.map(([k, c, kobo]) => `refunds,${k},${c ?? ''},${n(kobo)},`),
    ...[...want.ticketTypes.entries()].map(
      ([key, x]) => `tickets,${showText(typeKey(key)[1])} | ${typeKey(key)[0]},${x.quantity},${n(x.amount)},`,
    ),
    ...[...want.items.entries()].map(
      ([code, x]) => `concessions,${code} ${x.name} (${x.category}),${x.quantity},${n(x.amount)},`,
    ),
    ...[...want.categories.entries()].map(([c, x]) => `concession_categories,${c},${x.quantity},${n(x.amount)},`),
    `concession_categories,total,${want.concessions.quantity},${n(want.concessions.amount)},`,
  ];
  for (const row of wantRows) expect(csv, `${where}: the CSV`).toContain(row);
  expect(
    csv.filter((l) => /^(tenders|drawer|refunds|tickets|concessions|concession_categories),/.test(l)).length,
    `${where}: no other basket rows in the CSV`,
  ).toBe(wantRows.length - 1);
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The basket lines of a Z report as sent to the Hub: the sales total, the tenders and the drawer (over/short in words, never negative). */
export function checkZBasketLines(
  lines: readonly { label: string; count: number; kobo: number }[],
  w: Expect,
  where: string,
): void {
  const sent = new Map(lines.map((l) => [l.label, [l.count, l.kobo] as const]));
  const os = w.drawer.overShort;
  expect(
    [
      sent.get(SALES_TOTAL_LABEL),
      sent.get('Tenders: Cash taken'),
      sent.get('Tenders: Taken by card (the terminal)'),
      sent.get('Drawer: Expected in the drawer'),
      sent.get('Drawer: Drops to the safe'),
      sent.get('Drawer: Cash paid out (refunds)'),
      sent.get(`Refunds: ${REFUNDS_LABEL}`) ?? null,
      sent.get('Refunds: Card refunds still owed') ?? null,
      os === null
        ? null
        : sent.get(os > 0 ? 'Drawer: Over' : os < 0 ? 'Drawer: Short' : 'Drawer: Right (not over, not short)'),
    ],
    where,
  ).toEqual([
    [w.salesTotal.count, w.salesTotal.kobo],
    [w.tenders.cashTaken.count, w.tenders.cashTaken.kobo],
    [w.tenders.cardTaken.count, w.tenders.cardTaken.kobo],
    [0, w.drawer.expected],
    [w.drawer.drops.count, w.drawer.drops.kobo],
    [w.drawer.cashPaidOut.count, w.drawer.cashPaidOut.kobo],
    modelRows(w).refunds.length ? [w.refunds.made.count, w.refunds.made.kobo] : null,
    modelRows(w).refunds.length ? [w.refunds.cardStillOwed.count, w.refunds.cardStillOwed.kobo] : null,
    os === null ? null : [0, Math.abs(os)],
  ]);
}

/** The Hub's sales by category and by tender (Today's, or a shift's) equal the model's window: the counted sales' lines, the paid sales' tenders. */
export function checkHubMix(mix: SalesMix, w: Expect, where: string): void {
  const types = [...w.ticketTypes.values()];
  const sum = (f: (x: (typeof types)[number]) => number) => types.reduce((n, x) => n + f(x), 0);
  const cats: [string, string, number, number][] = types.length
    ? [
        ['tickets', 'Tickets', sum((x) => x.quantity), sum((x) => x.amount)],
        ['fees', 'Booking fees', 0, sum((x) => x.fee)],
      ]
    : [];
  for (const [c, x] of w.categories) cats.push(['concessions', c, x.quantity, x.amount]);
  const t = w.tenders;
  expect(
    {
      categories: mix.categories.map((c) => [c.kind, c.category, c.quantity, c.amountKobo]).sort(),
      tenders: [...mix.tenders].sort((a, b) => a.tender.localeCompare(b.tender)),
      totals: [mix.totalKobo, mix.cashKobo, mix.cardKobo],
    },
    where,
  ).toEqual({
    categories: cats.sort(),
    tenders: [
      { tender: 'card', count: t.card.count, totalKobo: t.card.kobo, cashKobo: 0, cardKobo: t.card.kobo },
      {
        tender: 'cash',
        count: t.cash.count,
        totalKobo: t.cash.kobo + t.cashCredit,
        cashKobo: t.cash.kobo,
        cardKobo: 0,
      },
      {
        tender: 'split',
        count: t.split.count,
        totalKobo: t.split.cash + t.split.card,
        cashKobo: t.split.cash,
        cardKobo: t.split.card,
      },
    ],
    totals: [sum((x) => x.amount + x.fee) + w.concessions.amount, t.cashTaken.kobo, t.cardTaken.kobo],
  });
}
