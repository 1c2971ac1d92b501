// The basket's lines on the printed X/Z and in the CSV, from one shift of baskets counted by the
// ledger: a cash basket of two ticket types, a combo and water; a split; a split whose card failed
// after the cash (to hand back); a concessions-only card sale; the float, a drop and a short count.
// Every figure printed and exported is the ledger's, in the words of shared/ledger-basket-lines.ts.
import { describe, expect, it } from 'vitest';
import { basketAmounts, type BasketLine, type Tender } from '../../../shared/basket';
import { ledger, type LedgerSale } from '../../../shared/ledger';
import type { OrderState } from '../../../shared/orders';
import type { ShiftReport } from '../../../shared/records';
import { escposOf } from '../../../core/records/printing/escpos';
import { shiftReportDoc } from '../../../core/records/shifts/shift-report-doc';
import { shiftReportCsv } from '../../../core/records/shifts/shift-csv';
import { zReportEvent } from '../../../core/records/shifts/shift-store';
import { escposText } from '../../helpers/loopback-printer';
import { Z_REPORT } from './receipt-fixtures';

const FROM = Z_REPORT.shift.openedAt;
const TO = Z_REPORT.shift.closedAt!;
const SHOW = { filmName: 'DUNE-3', filmTitle: 'Dune: Part Three', showDate: '2026-11-21', showTime: '19:30' };
const NO_SHOW = { filmName: '', filmTitle: '', showDate: '', showTime: '' };

const tickets = (ticketType: string, quantity: number, unitKobo: number): BasketLine => ({
  kind: 'tickets',
  ticketType,
  seats: [],
  quantity,
  unitKobo,
  feePerTicketKobo: 10_000,
  amountKobo: quantity * unitKobo,
  bookingFeeKobo: quantity * 10_000,
});
const item = (code: string, name: string, category: string, quantity: number, unitKobo: number): BasketLine => ({
  kind: code.startsWith('CMB') ? 'combo' : 'item',
  code,
  name,
  category,
  quantity,
  unitKobo,
  amountKobo: quantity * unitKobo,
  chosen: [],
});

function sale(n: number, lines: BasketLine[], tender: Tender, state: OrderState, minutes: number): LedgerSale {
  const amounts = basketAmounts(lines, tender);
  const at = FROM + minutes * 60_000;
  const t = lines.filter((l) => l.kind === 'tickets').reduce((s, l) => s + l.quantity, 0);
  return {
    ref: `C1-261121-000${n}`,
    createdAt: at,
    state,
    amountKobo: amounts.cardKobo,
    tickets: t,
    bookingFeeKobo: amounts.bookingFeeKobo,
    providerFeeKobo: 0,
    paidAt: state === 'paid' ? at : null,
    demo: false,
    show: t > 0 ? SHOW : NO_SHOW,
    basket: { lines, tender, amounts },
  };
}

// 2 Adult (₦3,000) + 1 Child (₦2,000) + fees ₦300, a combo ₦3,000 and 2 water ₦800: ₦12,100, paid in cash (₦15,000 handed over).
const CASH = sale(
  1,
  [
    tickets('Adult', 2, 300_000),
    tickets('Child', 1, 200_000),
    item('CMB1', 'Popcorn combo', 'Combos', 1, 300_000),
    item('WATER', 'Water 75cl', 'Drinks', 2, 40_000),
  ],
  { kind: 'cash', tenderedKobo: 1_500_000 },
  'paid',
  10,
);
// 1 Adult ₦3,100 with its fee: ₦1,000 cash, ₦2,100 by card.
const SPLIT = sale(2, [tickets('Adult', 1, 300_000)], { kind: 'split', cashKobo: 100_000 }, 'paid', 20);
// A split whose card failed after ₦500 cash: hand it back.
const FAILED = sale(
  3,
  [item('POPS', 'Popcorn small', 'Popcorn', 1, 150_000)],
  { kind: 'split', cashKobo: 50_000 },
  'failed',
  30,
);
// Concessions only, by card: 2 Fanta ₦1,400.
const CARD = sale(4, [item('FANTA', 'Fanta 50cl', 'Drinks', 2, 70_000)], { kind: 'card' }, 'paid', 40);

const totals = ledger(
  {
    sales: [CASH, SPLIT, FAILED, CARD],
    late: [],
    topups: [],
    drawer: {
      floatKobo: 500_000,
      cashPaidOut: [],
      drops: [{ amountKobo: 1_000_000, by: 'Ngozi Eze', at: FROM + 50 * 60_000, note: 'Safe bag 14' }],
      counts: [{ countedKobo: 300_000, by: 'Ngozi Eze', at: TO }],
    },
  },
  { from: FROM, to: TO, excludeDemo: true },
);
const REPORT: ShiftReport = { ...Z_REPORT, totals: { ...totals, sweep: null, openItems: [] } };

describe('the basket lines of a shift report', () => {
  it('the ledger counts them: card total the card parts, sales total every tender, the drawer short by ₦5,100', () => {
    expect(totals.card).toEqual({ count: 2, amountKobo: 210_000 + 140_000 });
    expect(totals.paid).toEqual({ count: 2, amountKobo: 350_000 });
    expect(totals.salesTotal).toEqual({ count: 3, amountKobo: 1_210_000 + 310_000 + 140_000 });
    // Float 5,000 + cash 12,100 + 1,000 − drop 10,000 = 8,100 expected; counted 3,000.
    expect(totals.drawer).toMatchObject({ expectedKobo: 810_000, countedKobo: 300_000, overShortKobo: -510_000 });
  });

  it('prints tickets by show and type, concessions by item and category, tenders, the drawer and the cash to hand back', () => {
    const text = escposText(escposOf(shiftReportDoc(REPORT, false), '80')).map((l) => l.replace(/\s+/g, ' ').trim());
    const has = (line: string) => expect(text, line).toContain(line);
    has('CARD TOTAL (2) N3,500.00');
    has('Sales total (card + cash) (3) N16,600.00');
    has('Tickets by show and ticket type');
    has('2026-11-21 19:30 Dune: Part Three');
    has('3 x Adult N9,000.00');
    has('1 x Child N2,000.00');
    has('booking fee N300.00');
    has('1 x Popcorn combo (CMB1) N3,000.00');
    has('2 x Water 75cl (WATER) N800.00');
    has('2 x Fanta 50cl (FANTA) N1,400.00');
    has('Drinks (4) N2,200.00');
    has('Combos (1) N3,000.00');
    has('Cash (1) N12,100.00');
    has('Split: cash parts (1) N1,000.00');
    has('Split: card parts (1) N2,100.00');
    has('Taken by card (the terminal) (2) N3,500.00');
    has('Cash taken (2) N13,100.00');
    has('Cash to hand back (card failed) (1) N500.00');
    has('Float (put in at open) N5,000.00');
    has('- Drops to the safe (1) N10,000.00');
    has('= Expected in the drawer N8,100.00');
    has('Counted N3,000.00');
    has('Over/short (counted - expected) -N5,100.00');
    has('Drop 14:50 N10,000.00 by Ngozi Eze: Safe bag 14');
    has('Counted by Ngozi Eze at 22:45');
    expect(text.join(' ')).toContain('Counted N3,000.00, expected N8,100.00: short by N5,100.00.');
    expect(text.join(' ')).toContain('Sale C1-261121-0003: the card failed. Hand back N500.00 cash');
  });

  it('exports the same lines as CSV rows, beside the card total', () => {
    const rows = shiftReportCsv(REPORT).csv.trimEnd().split('\r\n');
    expect(rows).toEqual(
      expect.arrayContaining([
        'orders,paid,2,3500.00,added',
        'orders,card_total,2,3500.00,total',
        'orders,sales_total,3,16600.00,',
        'tickets,2026-11-21 19:30 Dune: Part Three | Adult,3,9000.00,',
        'tickets,2026-11-21 19:30 Dune: Part Three | Child,1,2000.00,',
        'ticket_booking_fees,2026-11-21 19:30 Dune: Part Three | Adult,3,300.00,',
        'concessions,CMB1 Popcorn combo (Combos),1,3000.00,',
        'concessions,FANTA Fanta 50cl (Drinks),2,1400.00,',
        'concession_categories,Drinks,4,2200.00,',
        'concession_categories,total,5,5200.00,',
        'tenders,card,1,1400.00,',
        'tenders,cash,1,12100.00,',
        'tenders,split_cash,1,1000.00,',
        'tenders,split_card,1,2100.00,',
        'tenders,taken_by_card,2,3500.00,',
        'tenders,cash_taken,2,13100.00,',
        'tenders,to_hand_back,1,500.00,',
        'to_hand_back,C1-261121-0003 (card failed),1,500.00,',
        'drawer,float,,5000.00,',
        'drawer,cash_taken,2,13100.00,',
        'drawer,cash_paid_out,0,0.00,',
        'drawer,drops,1,10000.00,',
        'drawer,expected,,8100.00,',
        'drawer,counted,,3000.00,',
        'drawer,over_short,,-5100.00,',
        'drawer_drop,2026-11-21 14:50 by Ngozi Eze: Safe bag 14,1,10000.00,',
        'drawer_count,2026-11-21 22:45 by Ngozi Eze,,,',
      ]),
    );
  });

  it('sends the Hub the sales total, the tenders and the drawer among the Z report’s lines, short in words', () => {
    const lines = zReportEvent({ ...REPORT, id: 4 }).lines.map((l) => [l.label, l.count, l.kobo]);
    expect(lines).toEqual(
      expect.arrayContaining([
        ['Sales total (card + cash)', 3, 1_660_000],
        ['Tenders: Cash', 1, 1_210_000],
        ['Tenders: Split: cash parts', 1, 100_000],
        ['Tenders: Taken by card (the terminal)', 2, 350_000],
        ['Tenders: Cash to hand back (card failed)', 1, 50_000],
        ['Drawer: Float (put in at open)', 0, 500_000],
        ['Drawer: Drops to the safe', 1, 1_000_000],
        ['Drawer: Expected in the drawer', 0, 810_000],
        ['Drawer: Counted', 0, 300_000],
        ['Drawer: Short', 0, 510_000],
      ]),
    );
  });

  it('a report kept before baskets reads back and prints without these lines', () => {
    const text = escposText(escposOf(shiftReportDoc(Z_REPORT, false), '80')).join('\n');
    expect(text).not.toContain('Cash drawer');
    expect(text).not.toContain('Sales total');
    expect(shiftReportCsv(Z_REPORT).csv).not.toContain('drawer,');
  });
});
