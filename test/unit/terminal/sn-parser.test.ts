import { describe, expect, it } from 'vitest';
import { classifySnLine, compileSnPattern, MAX_LINE_LENGTH, parseSnLine } from '../../../electron/core/terminal/sn-parser';
import { DEFAULT_SN_PATTERN } from '../../../shared/terminal';
import { NOISE } from '../../helpers/fake-terminal';

describe('parseSnLine with the default pattern', () => {
  it.each([
    ['SN:ABC123', 'ABC123'],
    ['SN=ABC123', 'ABC123'],
    ['sn: P2-0012-3456', 'P2-0012-3456'],
    ['SN = 98210034', '98210034'],
    ['PB0123456789', 'PB0123456789'],
    ['0821-7741-22', '0821-7741-22'],
    // A dash is a serial-number character, so this is a bare line, not a wrong separator.
    ['SN-ABC123', 'SN-ABC123'],
    ['SN:ABCDEF', 'ABCDEF'],
    [`SN:${'A1'.repeat(16)}`, 'A1'.repeat(16)],
  ])('takes %j as %j', (line, sn) => {
    expect(parseSnLine(line)).toBe(sn);
  });

  it.each(['SN:ABC123\r\n', 'SN:ABC123\n', 'SN:ABC123\r', '\rSN:ABC123\r\n', '  SN:ABC123  \r\n'])(
    'strips the line ending and outer spaces of %j',
    (line) => {
      expect(parseSnLine(line)).toBe('ABC123');
    },
  );

  it('keeps the case of the serial number', () => {
    expect(parseSnLine('SN:abC123')).toBe('abC123');
  });

  it.each([
    ['too short', 'SN:AB12'],
    ['too short bare', '12345'],
    ['too long', `SN:${'A'.repeat(33)}`],
    ['too long bare', '1'.repeat(33)],
    ['a bare word without digits (a status message)', 'WELCOME'],
    ['a bare status word', 'CONNECTED'],
    ['only dashes', 'SN:------'],
    ['a space inside', 'SN:ABC 123'],
    ['a wrong separator', 'SN;ABC123'],
    ['another label', 'S/N ABC123'],
    ['trailing words', 'SN:ABC123 OK'],
    ['a second field', 'SN:ABC123;BAT:80'],
    ['punctuation in the sn', 'SN:ABC_123'],
    ['an empty line', '\r\n'],
    ['nothing', ''],
  ])('refuses %s', (_why, line) => {
    expect(parseSnLine(line)).toBeNull();
  });

  it.each([
    ['a NUL byte', 'SN:ABC\u0000123'],
    ['a bell', 'SN:ABC123\u0007'],
    ['an escape sequence', '\u001b[2JSN:ABC123'],
    ['a tab', 'SN:\tABC123'],
    ['a carriage return inside', 'SN:ABC\r123'],
    ['a DEL', 'SN:ABC123\u007f'],
    ['a replacement character', 'SN:ABC\ufffd123'],
    ['a Latin-1 high byte', 'SN:ABC\u00ff123'],
    ['a non-ASCII letter', 'SN:ABÇ123'],
    ['an overlong line', `SN:ABC123${' '.repeat(MAX_LINE_LENGTH)}`],
  ])('calls a line with %s garbled, never an sn', (_why, line) => {
    expect(classifySnLine(line)).toEqual({ kind: 'garbled' });
    expect(parseSnLine(line)).toBeNull();
  });

  it('never takes any of the fake terminal noise for an sn, read as Latin-1 or UTF-8', () => {
    for (const chunk of NOISE) {
      for (const line of chunk.toString('latin1').split('\n')) expect(parseSnLine(line), JSON.stringify(line)).toBeNull();
      for (const line of chunk.toString('utf8').split('\n')) expect(parseSnLine(line), JSON.stringify(line)).toBeNull();
    }
  });

  it('tells clean text apart from garbled bytes', () => {
    expect(classifySnLine('READY')).toEqual({ kind: 'other' });
    expect(classifySnLine('\r\n')).toEqual({ kind: 'empty' });
    expect(classifySnLine('SN:ABC123')).toEqual({ kind: 'sn', sn: 'ABC123' });
  });
});

describe('parseSnLine with a custom pattern', () => {
  it('uses capture group 1', () => {
    expect(parseSnLine('TID=00112233;OK', '^TID=(\\d{8});OK$')).toBe('00112233');
  });

  it('prefers the group named sn', () => {
    expect(parseSnLine('MODEL:A920 SERIAL:1170012345', '^MODEL:(\\w+) SERIAL:(?<sn>\\d+)$')).toBe('1170012345');
  });

  it('still refuses a capture that is not a serial number', () => {
    const loose = '^(.*)$';
    expect(parseSnLine('ABC 123 DEF', loose)).toBeNull();
    expect(parseSnLine('AB12', loose)).toBeNull();
    expect(parseSnLine('ABC123', loose)).toBe('ABC123');
  });

  it('still refuses garbled lines even when the pattern would match them', () => {
    expect(parseSnLine('SN:ABC\u0000123', '^SN:(.+)$')).toBeNull();
    expect(parseSnLine('\u00ff\u00feABC123', '(ABC123)')).toBeNull();
  });

  it('returns null when an optional group did not take part', () => {
    expect(parseSnLine('NONE', '^(?:SN:(\\w+)|NONE)$')).toBeNull();
  });
});

describe('pattern validation', () => {
  it('accepts the default pattern', () => {
    expect(() => compileSnPattern(DEFAULT_SN_PATTERN)).not.toThrow();
  });

  it.each([
    ['an invalid regular expression', '^SN:([A-Z0-9]+$', /Not a valid regular expression/],
    ['a pattern without a capture group', '^SN:[A-Z0-9]+$', /must capture the serial number/],
    ['only non-capturing groups', '^SN:(?:[A-Z0-9]+)$', /must capture the serial number/],
    ['only a lookahead', '^(?=SN)SN:\\w+$', /must capture the serial number/],
    ['an empty pattern', '', /Enter a pattern/],
    ['an overlong pattern', `(${'a'.repeat(300)})`, /At most 200/],
  ])('refuses %s with a clear message', (_why, pattern, message) => {
    let caught: unknown;
    try {
      parseSnLine('SN:ABC123', pattern);
    } catch (e) {
      caught = e;
    }
    expect(caught).toMatchObject({ code: 'VALIDATION', details: { fields: { pattern: expect.stringMatching(message) } } });
    expect((caught as Error).message).toMatch(message);
  });

  it('accepts a pattern whose only group is named sn', () => {
    expect(parseSnLine('ID ABC123', '^ID (?<sn>\\S+)$')).toBe('ABC123');
  });
});
