// A counter's code, and whose code a reference carries: what the Hub checks before it lets a
// counter claim a reference (a counter may not claim another counter's next, predictable one).
import { describe, expect, it } from 'vitest';
import { counterCode, referenceCounterCode } from '../../../shared/counter-code';
import { formatOutOrderNo } from '../../../core/orders/out-order-no';
import { formatReference } from '../../../core/topups/reference';

describe('referenceCounterCode', () => {
  it('reads the code of the counter that generated a sale number or a top-up reference, and of nothing else', () => {
    for (const name of ['Counter 1', 'Main Hall 2', 'Box Office', 'Lekki VIP 12']) {
      const code = counterCode(name);
      expect(referenceCounterCode(formatOutOrderNo(code, '251125', 7))).toBe(code);
      expect(referenceCounterCode(formatReference(code, '251125', 42))).toBe(code);
      expect(referenceCounterCode(formatOutOrderNo(code, '251125', 12_345))).toBe(code);
    }
    // A batch file's own reference, a provider order number, a look-alike: no code.
    for (const other of [
      'R-A1-1',
      'MY-BATCH-REF',
      '240001111',
      'COU1-A-0001',
      'COU1-25112-0001',
      'cou1-251125-0001',
      'TOOLONG7-251125-0001',
    ]) {
      expect(referenceCounterCode(other)).toBeNull();
    }
  });
});

describe('counterCode of a chain', () => {
  it('numbered names give distinct codes up to four digits, so the Hub (one live counter per code) can enroll hundreds', () => {
    // As the chaos run and the chain bench name their counters ("Counter 1".., "Chain 0".. per Hub).
    for (const make of [(i: number) => `Counter ${i + 1}`, (i: number) => `Chain ${i}`]) {
      const codes = new Set(Array.from({ length: 1200 }, (_, i) => counterCode(make(i))));
      expect(codes.size).toBe(1200);
    }
    expect([counterCode('Counter 500'), counterCode('Counter 1000'), counterCode('Ikeja Counter 1')]).toEqual([
      'COU500',
      'CO1000',
      'IC1',
    ]);
    // Five digits keep the last four: "Counter 10001" and "Counter 20001" would share a code.
    expect(counterCode('Counter 10001')).toBe(counterCode('Counter 20001'));
  });
});
