// The chaos verdict's counting rules on hand-made journals and provider lists: each kind of
// failure is counted as the chaos run defines it (test/chaos/chaos-verdict.ts), and a clean run
// counts zeros.
import { describe, expect, it } from 'vitest';
import type { SandboxPosOrder } from '../../../sandbox';
import { basketVerdict, chaosLine, chaosVerdict, type JournalRow } from '../../chaos/chaos-verdict';

function po(
  outOrderNo: string,
  status: SandboxPosOrder['status'],
  payNo: string | null = status === 'SUCCESS' ? `PAY-${outOrderNo}` : '',
): SandboxPosOrder {
  return { outOrderNo, status, payNo, orderNo: `NO-${outOrderNo}` } as SandboxPosOrder;
}
const row = (outOrderNo: string, state: JournalRow['state'], payNo: string | null = null): JournalRow => ({
  outOrderNo,
  state,
  orderNo: null,
  payNo,
});

describe('chaos verdict', () => {
  it('a clean run: every sale final and as the provider says', () => {
    const v = chaosVerdict(
      [
        row('A', 'paid', 'PAY-A'),
        row('B', 'failed'),
        row('C', 'cancelled'),
        row('D', 'expired'),
        row('E', 'expired'),
        row('F', 'paid'),
      ],
      [po('A', 'SUCCESS'), po('B', 'FAIL'), po('C', 'CANCEL'), po('D', 'CLOSE'), po('F', 'SUCCESS')],
      ['A', 'B', 'C', 'D', 'E', 'F'],
    );
    expect(chaosLine(v)).toBe(
      'sales=6 providerOrders=5 duplicates=0 lost=0 notFinal=0 drawerMismatch=0 stockMismatch=0 lateFound=0 lateMissed=0',
    );
    expect(v.problems).toEqual([]);
  });

  it('counts two provider orders under one number, and every contradiction, as duplicates', () => {
    const v = chaosVerdict(
      [row('A', 'paid'), row('B', 'expired'), row('C', 'paid'), row('D', 'cancelled'), row('E', 'paid', 'PAY-X')],
      [po('A', 'SUCCESS'), po('A', 'CLOSE'), po('B', 'SUCCESS'), po('E', 'SUCCESS')],
      [],
    );
    // A twice; B expired but paid; C and D with no provider order; E with another payNo.
    expect(v.duplicates).toBe(5);
    expect(v.problems.join('\n')).toMatch(/B: the app says expired but the provider says SUCCESS/);
  });

  it('counts acknowledged sales missing from the journal and provider orders nobody journaled as lost', () => {
    const v = chaosVerdict([row('A', 'paid', 'PAY-A')], [po('A', 'SUCCESS'), po('Z', 'PENDING')], ['A', 'B']);
    expect(v.lost).toBe(2);
    expect(v.sales).toBe(1);
    expect(v.providerOrders).toBe(2);
  });

  it('counts open sales as not final, and a final sale beside a PENDING provider order as a contradiction', () => {
    const v = chaosVerdict(
      [row('A', 'waiting'), row('B', 'unknown'), row('C', 'expired')],
      [po('A', 'PENDING'), po('C', 'PENDING')],
      ['A', 'B', 'C'],
    );
    expect(v.notFinal).toBe(2);
    expect(v.duplicates).toBe(1);
  });

  it('a payment taken after the app closed the sale is found only when the order and the shift totals carry it', () => {
    const late = (out: string, state: JournalRow['state'], kind: string | null, inTotals: boolean): JournalRow => ({
      ...row(out, state),
      late: kind,
      inTotals,
    });
    const v = chaosVerdict(
      [
        late('A', 'expired', 'paid-after-closing', true),
        late('B', 'cancelled', 'paid-after-closing', false),
        late('C', 'failed', null, false),
        row('D', 'failed'),
      ],
      [po('A', 'SUCCESS'), po('B', 'SUCCESS'), po('C', 'SUCCESS'), po('D', 'SUCCESS')],
      ['A', 'B', 'C', 'D'],
      new Set(['A', 'B', 'C']),
    );
    // D: the provider never changed its mind, so "failed" against SUCCESS stays a contradiction.
    expect(chaosLine(v)).toBe(
      'sales=4 providerOrders=4 duplicates=1 lost=0 notFinal=0 drawerMismatch=0 stockMismatch=0 lateFound=1 lateMissed=2',
    );
    expect(v.problems.filter((p) => p.startsWith('late missed'))).toHaveLength(2);
  });
});

describe('baskets: the drawer and the stock against the model', () => {
  const lines = (water: number) =>
    JSON.stringify({ lines: [{ kind: 'item', code: 'WATER', quantity: water, chosen: [] }] });
  it('a cash sale with no provider order is clean; one with a provider order is a duplicate', () => {
    const cash: JournalRow = { ...row('A', 'paid'), tender: 'cash', cashKobo: 40_000 };
    expect(chaosVerdict([cash], [], ['A']).duplicates).toBe(0);
    expect(chaosVerdict([cash], [po('A', 'SUCCESS')], ['A']).duplicates).toBe(1);
  });

  it('counts a paid sale whose cash differs from the model, an unpaid one that left cash, and stock taken apart', () => {
    const models = new Map([
      ['A', { cashKobo: 40_000, taken: new Map([['WATER', 1]]) }],
      ['B', { cashKobo: 500_000, taken: new Map([['WATER', 2]]) }],
      ['C', { cashKobo: 500_000, taken: new Map([['WATER', 1]]) }],
    ]);
    const clean = basketVerdict(
      [
        { ...row('A', 'paid'), tender: 'cash', cashKobo: 40_000, basketJson: lines(1) },
        { ...row('B', 'paid'), tender: 'split', cashKobo: 500_000, basketJson: lines(2) },
        { ...row('C', 'failed'), tender: 'split', cashKobo: 500_000, basketJson: lines(1) },
      ],
      models,
      ['WATER'],
    );
    expect(clean).toMatchObject({ drawerMismatch: 0, stockMismatch: 0 });
    const wrong = basketVerdict(
      [
        { ...row('A', 'paid'), tender: 'cash', cashKobo: 30_000, basketJson: lines(1) },
        { ...row('B', 'paid'), tender: 'split', cashKobo: 500_000, basketJson: lines(3) },
      ],
      models,
      ['WATER'],
    );
    expect(wrong).toMatchObject({ drawerMismatch: 1, stockMismatch: 1 });
  });
});
