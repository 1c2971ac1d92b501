// The one CSV cell rule of every export: quoting, and formulas kept inert (CSV injection).
import { describe, expect, it } from 'vitest';
import { csvCell, toCsv } from '../../../core/lib/csv-cell';

describe('csvCell', () => {
  it('keeps spreadsheet formulas inert but leaves numbers and phone numbers alone', () => {
    expect(csvCell('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('+2348031234567')).toBe('+2348031234567');
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell(null)).toBe('');
  });

  it('defuses text that only starts like a number, tabs and carriage returns', () => {
    expect(csvCell('-1+2')).toBe("'-1+2");
    expect(csvCell('+A1')).toBe("'+A1");
    expect(csvCell('-12.50')).toBe("'-12.50");
    expect(csvCell('\tcmd')).toBe("'\tcmd");
    expect(csvCell('\rx')).toBe('"\'\rx"');
  });

  it('writes rows with CRLF line ends', () => {
    expect(
      toCsv([
        ['a', 1],
        [null, 'b,c'],
      ]),
    ).toBe('a,1\r\n,"b,c"\r\n');
  });
});
