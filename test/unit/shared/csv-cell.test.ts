// The one CSV cell rule of every export, the counter's and the Hub's: quoting, formulas kept inert
// (CSV injection), and numbers — phone numbers and amounts — left readable as numbers.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvCell, csvLine, csvNeedsDefusing, toCsv } from '../../../shared/csv-cell';
import { koboToNairaString } from '../../../shared/money';

/** Reads one cell back as a spreadsheet's CSV reader would: unquoted, "" → ". */
function unquote(cell: string): string {
  return cell.startsWith('"') ? cell.slice(1, -1).replace(/""/g, '"') : cell;
}

/** What a spreadsheet would run: after skipping spaces, tabs and line breaks, = + - @ starts a formula. */
function runsAsFormula(text: string): boolean {
  return /^[\t\r]/.test(text) || /^[ \t\r\n]*[=+\-@]/.test(text);
}

const NUMBER_LITERAL = /^[+-]?\d+(?: \d+)*(?:\.\d+)?$/;

describe('csvCell', () => {
  it('keeps spreadsheet formulas inert but leaves numbers and phone numbers alone', () => {
    expect(csvCell('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('+2348031234567')).toBe('+2348031234567');
    expect(csvCell('+234 803 123 4567')).toBe('+234 803 123 4567');
    expect(csvCell('-12.50')).toBe('-12.50');
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
  });

  it('defuses text that only starts like a number, tabs and carriage returns', () => {
    expect(csvCell('-1+2')).toBe("'-1+2");
    expect(csvCell('+A1')).toBe("'+A1");
    expect(csvCell('+234|cmd')).toBe("'+234|cmd");
    expect(csvCell('+234\t=1')).toBe("'+234\t=1");
    expect(csvCell('\tcmd')).toBe("'\tcmd");
    expect(csvCell('\rx')).toBe('"\'\rx"');
  });

  it('defuses = + - @ after leading spaces, tabs or line breaks (a spreadsheet skips them)', () => {
    expect(csvCell(' =HYPERLINK("x")')).toBe('"\' =HYPERLINK(""x"")"');
    expect(csvCell('\t@SUM(A1)')).toBe("'\t@SUM(A1)");
    expect(csvCell('\n+A1')).toBe('"\'\n+A1"');
    expect(csvCell('  -1+2')).toBe("'  -1+2");
    expect(csvCell(' +2348031234567')).toBe("' +2348031234567");
    expect(csvCell(' plain')).toBe(' plain');
    expect(csvCell('=A1')).toBe("'=A1");
  });

  it('property: no text comes out as something a spreadsheet would run, unless it is a plain number', () => {
    const risky = fc.string({
      unit: fc.constantFrom('=', '+', '-', '@', ' ', '\t', '\r', '\n', '"', ',', 'A', '1', '(', '|'),
    });
    fc.assert(
      fc.property(fc.oneof({ arbitrary: risky, weight: 4 }, { arbitrary: fc.string(), weight: 1 }), (text) => {
        const back = unquote(csvCell(text));
        if (NUMBER_LITERAL.test(text)) expect(back).toBe(text);
        else expect(runsAsFormula(back)).toBe(false);
        // Nothing is lost: the cell reads back as the text, with at most the leading quote.
        expect(back === text || back === `'${text}`).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it('property: a phone number, with or without +, spaced or not, stays readable as written', () => {
    const digits = (min: number, max: number) =>
      fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });
    const phone = fc.oneof(
      digits(10, 13).map((d) => `+${d}`),
      fc.tuple(digits(3, 3), digits(3, 3), digits(3, 3), digits(4, 4)).map((p) => `+${p.join(' ')}`),
      digits(11, 11),
    );
    fc.assert(
      fc.property(phone, (p) => {
        expect(csvCell(p)).toBe(p);
        expect(csvNeedsDefusing(p)).toBe(false);
      }),
    );
  });

  it('property: every naira amount the exports write, negative ones included, stays a number', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 1e12 }), (kobo) => {
        const s = koboToNairaString(kobo);
        expect(csvCell(s)).toBe(s);
      }),
    );
  });

  it('property: a cell with a comma, quote or line break reads back whole', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        const text = `${a},"${b}"\n`;
        const back = unquote(csvLine([text]));
        expect([text, `'${text}`]).toContain(back);
      }),
    );
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
