// The refunds after the sale in the one ledger (shared/ledger-refunds.ts, docs/refunds.md): counted
// in the window they were made, cash as the drawer's cash paid out, card owed until returned and
// still owed at a window's end whenever made (a report of a past window reads them as they were then).
import { describe, expect, it } from 'vitest';
import { ledger, type LedgerRefund } from '../../../shared/ledger';
import { cashPaidOutOf, refundFigures, refundRows } from '../../../shared/ledger-refunds';

const H = 3_600_000;
const refund = (over: Partial<LedgerRefund>): LedgerRefund => ({
  refundNo: 'R0001',
  ref: 'C1-261207-0001',
  tender: 'card',
  amountKobo: 100_000,
  at: 1 * H,
  returnedAt: null,
  demo: false,
  ...over,
});

describe('refunds after the sale in a window', () => {
  const list = [
    refund({ refundNo: 'R0001', at: 1 * H, returnedAt: 5 * H }),
    refund({ refundNo: 'R0002', tender: 'cash', amountKobo: 40_000, at: 2 * H, returnedAt: 2 * H }),
    refund({ refundNo: 'R0003', at: 3 * H, amountKobo: 70_000 }),
    refund({ refundNo: 'R0004', at: 3 * H, tender: 'cash', amountKobo: 9_000, returnedAt: 3 * H, demo: true }),
  ];

  it('made in the window by tender; a card refund returned later is still owed at the window’s end', () => {
    const f = refundFigures(list, { from: 0, to: 4 * H, excludeDemo: true }, 500_000);
    expect(f).toEqual({
      made: { count: 3, amountKobo: 210_000 },
      cash: { count: 1, amountKobo: 40_000 },
      card: { count: 2, amountKobo: 170_000 },
      cardReturned: { count: 0, amountKobo: 0 },
      cardStillOwed: { count: 2, amountKobo: 170_000 },
      netSalesKobo: 290_000,
    });
  });

  it('the next window: none made, one returned, one still owed (whenever made); net sales below zero is told as it is', () => {
    const f = refundFigures(list, { from: 4 * H, to: 8 * H, excludeDemo: true }, 0);
    expect([f.made.count, f.cardReturned, f.cardStillOwed, f.netSalesKobo]).toEqual([
      0,
      { count: 1, amountKobo: 100_000 },
      { count: 1, amountKobo: 70_000 },
      0,
    ]);
    expect(refundFigures(list, { from: 0, to: 4 * H, excludeDemo: false }, 0).netSalesKobo).toBe(-219_000);
  });

  it('cash ones are the drawer’s cash paid out (Demo only in a Demo shift); the lines sum', () => {
    expect(cashPaidOutOf(list, { excludeDemo: true })).toEqual([
      { ref: 'C1-261207-0001', at: 2 * H, amountKobo: 40_000 },
    ]);
    const t = ledger(
      {
        sales: [],
        late: [],
        topups: [],
        refunds: list,
        drawer: { floatKobo: 100_000, cashPaidOut: [], drops: [], counts: [] },
      },
      { from: 0, to: 4 * H, excludeDemo: true },
    );
    expect([t.drawer.cashPaidOut, t.drawer.expectedKobo, t.card]).toEqual([
      { count: 1, amountKobo: 40_000 },
      60_000,
      { count: 0, amountKobo: 0 },
    ]);
    const rows = new Map(refundRows(t.refunds!).map((r) => [r.key, r.amountKobo]));
    expect(rows.get('refunds')).toBe(rows.get('refunds_cash')! + rows.get('refunds_card_owed')!);
    expect(rows.get('net_sales')).toBe(t.salesTotal.amountKobo - rows.get('refunds')!);
  });
});
