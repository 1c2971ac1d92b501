import { describe, expect, it } from 'vitest';
import { pairLines, toPrinterText, wrap } from '../../../core/records/printing/text-fit';

describe('text for the printer', () => {
  it('keeps ASCII, turns ₦ into N, drops accents, and marks what it cannot print', () => {
    expect(toPrinterText('₦5,200.00')).toBe('N5,200.00');
    expect(toPrinterText('Amélie – “Le Destin” × 2 · Ọjọ́')).toBe('Amelie - "Le Destin" x 2 - Ojo');
    expect(toPrinterText('片\tX\r\nY')).toBe('? X Y');
  });

  it('wraps on words and cuts words longer than a line', () => {
    expect(wrap('The quick brown fox', 9)).toEqual(['The quick', 'brown fox']);
    expect(wrap('ABCDEFGHIJ', 4)).toEqual(['ABCD', 'EFGH', 'IJ']);
    expect(wrap('', 4)).toEqual(['']);
  });

  it('puts label and value on one line when they fit, else the value right-aligned below', () => {
    expect(pairLines('Seats', 'F7', 10)).toEqual(['Seats   F7']);
    expect(pairLines('Provider order', '12345', 10)).toEqual(['Provider', 'order', '     12345']);
  });
});
