// The exchanges in the one ledger (shared/ledger-exchanges.ts, docs/refunds.md): counted in the
// window they were done with the credit they moved, Demo ones only in a Demo shift, and the same
// line on the Shift screen, the X/Z, in the CSV (section `exchanges`) and in the Hub's Z lines.
import { describe, expect, it } from 'vitest';
import { ledger, type LedgerExchange } from '../../../shared/ledger';
import { exchangeFigures, exchangeRows, EXCHANGES_LABEL } from '../../../shared/ledger-exchanges';
import { basketBlocks, basketCsvRows, basketHubLines } from '../../../core/records/shifts/shift-report-basket';
import type { ShiftTotals } from '../../../shared/records';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { ShiftBasketFigures } from '../../../renderer/src/screens/shift/ShiftBasketFigures';
import { screenFigure } from '../../helpers/ledger-model-surfaces';

const H = 3_600_000;
const exchange = (over: Partial<LedgerExchange>): LedgerExchange => ({
  ref: 'C1-261207-0002',
  fromRef: 'C1-261207-0001',
  creditKobo: 100_000,
  at: 1 * H,
  demo: false,
  ...over,
});

describe('exchanges in a window', () => {
  const list = [
    exchange({ ref: 'C1-261207-0002', at: 1 * H, creditKobo: 100_000 }),
    exchange({ ref: 'C1-261207-0003', at: 3 * H, creditKobo: 45_000 }),
    exchange({ ref: 'C1-261207-0004', at: 3 * H, creditKobo: 9_000, demo: true }),
    exchange({ ref: 'C1-261207-0005', at: 5 * H, creditKobo: 70_000 }),
  ];

  it('done in the window, with the credit moved; Demo only in a Demo shift; the edge belongs to the next window', () => {
    expect(exchangeFigures(list, { from: 0, to: 5 * H, excludeDemo: true })).toEqual({ count: 2, amountKobo: 145_000 });
    expect(exchangeFigures(list, { from: 3 * H, to: 6 * H, excludeDemo: false })).toEqual({
      count: 3,
      amountKobo: 124_000,
    });
  });

  it('the ledger carries them; the Shift screen, the X/Z, the CSV and the Hub say the same line (none: no section)', () => {
    const t = ledger({ sales: [], late: [], topups: [], exchanges: list }, { from: 0, to: 4 * H, excludeDemo: true });
    expect(t.exchanges).toEqual({ count: 2, amountKobo: 145_000 });
    expect(exchangeRows(t.exchanges!)).toEqual([
      { key: 'exchanges_done', label: EXCHANGES_LABEL, count: 2, amountKobo: 145_000 },
    ]);
    const totals = t as unknown as ShiftTotals;
    expect(basketCsvRows(totals)).toContainEqual(['exchanges', 'exchanges_done', 2, '1450.00', '']);
    expect(basketHubLines(totals)).toContainEqual({ label: `Exchanges: ${EXCHANGES_LABEL}`, kobo: 145_000, count: 2 });
    expect(JSON.stringify(basketBlocks(totals))).toContain(EXCHANGES_LABEL);
    const screen = (x: ShiftTotals) => renderToStaticMarkup(createElement(ShiftBasketFigures, { t: x }));
    expect(screenFigure(screen(totals), 'exchanges-line-exchanges_done')).toBe(`${EXCHANGES_LABEL} (2) ₦1,450.00`);
    const none = { ...totals, exchanges: { count: 0, amountKobo: 0 } };
    expect(basketCsvRows(none).some((r) => r[0] === 'exchanges')).toBe(false);
    expect(basketHubLines(none).some((l) => l.label.startsWith('Exchanges'))).toBe(false);
    expect(screenFigure(screen(none), 'exchanges-line-exchanges_done')).toBeNull();
  });
});
