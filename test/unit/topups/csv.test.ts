// The CSV reader and writer: RFC 4180 quoting, CRLF/LF/CR, a BOM, line numbers of records that
// span lines, errors that name the line, and a write/read round trip.
import { describe, expect, it } from 'vitest';
import { toCsv } from '../../../shared/csv-cell';
import { parseCsv } from '../../../shared/csv-parse';

describe('parseCsv', () => {
  it('reads quotes, doubled quotes, commas and line breaks inside quotes, with the start line of each record', () => {
    const text = '\uFEFFa,b,c\r\n"x, y","say ""hi""",3\r\n"two\r\nlines",z,\r\n\r\nlast,1,2';
    const r = parseCsv(text);
    expect(r.errors).toEqual([]);
    expect(r.records).toEqual([
      { line: 1, fields: ['a', 'b', 'c'] },
      { line: 2, fields: ['x, y', 'say "hi"', '3'] },
      { line: 3, fields: ['two\r\nlines', 'z', ''] },
      { line: 6, fields: ['last', '1', '2'] },
    ]);
  });

  it('accepts LF and lone CR line ends, and a missing final line end', () => {
    expect(parseCsv('a,b\nc,d\re,f').records.map((x) => [x.line, x.fields])).toEqual([
      [1, ['a', 'b']],
      [2, ['c', 'd']],
      [3, ['e', 'f']],
    ]);
  });

  it('reports a stray quote on its line and keeps reading the next lines', () => {
    const r = parseCsv('h1,h2\nab"c,1\n"ok",2\n"x"y,3\n');
    expect(r.errors.map((e) => e.line)).toEqual([2, 4]);
    expect(r.errors[0]!.message).toMatch(/quote appears inside a value/);
    expect(r.errors[1]!.message).toMatch(/closing quote must be followed by a comma/);
    expect(r.records.map((x) => x.fields)).toEqual([
      ['h1', 'h2'],
      ['ok', '2'],
    ]);
    expect(r.recordCount).toBe(4);
  });

  it('stops at an unclosed quote and says where it opened', () => {
    const r = parseCsv('h\n1\n"never closed\n2\n3\n');
    expect(r.fatal).toBe(true);
    expect(r.errors).toEqual([{ line: 3, message: expect.stringMatching(/not closed/) }]);
  });

  it('counts records past maxRecords without keeping them', () => {
    const r = parseCsv('a\n1\n2\n3\n4\n', { maxRecords: 2 });
    expect(r.records).toHaveLength(2);
    expect(r.recordCount).toBe(5);
  });
});

describe('toCsv', () => {
  it('quotes what needs it and round-trips', () => {
    const rows = [
      ['row', 'text'],
      ['1', 'plain'],
      ['2', 'a, "quoted"\nvalue'],
      ['3', ''],
    ];
    const back = parseCsv(toCsv(rows)).records.map((r) => r.fields);
    expect(back).toEqual(rows);
    expect(toCsv([['a', 'b']])).toBe('a,b\r\n');
  });
});
