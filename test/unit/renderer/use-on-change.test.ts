// The renderer's one rule for when a load or a following effect runs again (useOnChange): keys are
// compared as React compares an effect's dependencies, with Object.is, element by element.
import { describe, expect, it } from 'vitest';
import { keysChanged } from '../../../renderer/src/components/useOnChange';

describe('keysChanged', () => {
  it('no keys never change: a load on mount runs once', () => {
    expect(keysChanged([], [])).toBe(false);
  });

  it('the same values, or the same object, are no change', () => {
    const settings = { autoPrint: true };
    expect(keysChanged([7, 'COM3', settings, null, undefined], [7, 'COM3', settings, null, undefined])).toBe(false);
    expect(keysChanged([Number.NaN], [Number.NaN])).toBe(false);
  });

  it('a new value, a new object with the same fields, or a key that came or went, is a change', () => {
    expect(keysChanged([7], [8])).toBe(true);
    expect(keysChanged([{ autoPrint: true }], [{ autoPrint: true }])).toBe(true);
    expect(keysChanged([undefined], [null])).toBe(true);
    expect(keysChanged([0], [-0])).toBe(true);
    expect(keysChanged([1], [1, false])).toBe(true);
  });
});
