import { describe, expect, it } from 'vitest';
import { classifySnLine, compileSnPattern, MAX_LINE_LENGTH, parseSnLine } from '../../../core/terminal/sn-parser';
import { DEFAULT_SN_PATTERN, LEGACY_DEFAULT_SN_REGEX, upgradeSnPattern } from '../../../shared/terminal';
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
      for (const line of chunk.toString('latin1').split('\n'))
        expect(parseSnLine(line), JSON.stringify(line)).toBeNull();
      for (const line of chunk.toString('utf8').split('\n')) expect(parseSnLine(line), JSON.stringify(line)).toBeNull();
    }
  });

  it('tells clean text apart from garbled bytes', () => {
    expect(classifySnLine('READY')).toEqual({ kind: 'other' });
    expect(classifySnLine('\r\n')).toEqual({ kind: 'empty' });
    expect(classifySnLine('SN:ABC123')).toEqual({ kind: 'sn', sn: 'ABC123' });
  });
});

describe('parseSnLine with a custom format', () => {
  it('takes the serial number where {sn} stands, between literal text', () => {
    expect(parseSnLine('TID=00112233;OK', 'TID={sn};OK')).toBe('00112233');
    expect(parseSnLine('SERIAL 1170012345', 'SERIAL {sn}')).toBe('1170012345');
    expect(parseSnLine('ABC123', '{sn}')).toBe('ABC123');
  });

  it('matches the literal text in any case and allows spaces around the serial number', () => {
    expect(parseSnLine('tid= 00112233 ;ok', 'TID={sn};OK')).toBe('00112233');
  });

  it('refuses lines whose text around the serial number differs', () => {
    expect(parseSnLine('TID=00112233', 'TID={sn};OK')).toBeNull();
    expect(parseSnLine('XTID=00112233;OK', 'TID={sn};OK')).toBeNull();
    expect(parseSnLine('TID=;OK', 'TID={sn};OK')).toBeNull();
  });

  it('still refuses a capture that is not a serial number', () => {
    expect(parseSnLine('ABC 123 DEF', '{sn}')).toBeNull();
    expect(parseSnLine('AB12', '{sn}')).toBeNull();
    expect(parseSnLine('ID ABC_123', 'ID {sn}')).toBeNull();
  });

  it('still refuses garbled lines even when the format would match them', () => {
    expect(parseSnLine('SN:ABC\u0000123', 'SN:{sn}')).toBeNull();
    expect(parseSnLine('\u00ff\u00feABC123', '{sn}')).toBeNull();
  });
});

describe('format validation', () => {
  it('accepts the built-in format', () => {
    expect(() => compileSnPattern(DEFAULT_SN_PATTERN)).not.toThrow();
    expect(DEFAULT_SN_PATTERN).toBe('auto');
  });

  it.each([
    ['a format without {sn}', 'SN:', /\{sn\} exactly once/],
    ['{sn} twice', '{sn}-{sn}', /\{sn\} exactly once/],
    ['a stray brace', 'SN{:{sn}', /\{sn\} exactly once/],
    ['a regular expression (the backtracking one of the security review)', '^(([A-Z0-9])+)+#', /\{sn\} exactly once/],
    ['a control character', 'SN\u0007{sn}', /printable/],
    ['an empty format', '', /Enter a format/],
    ['an overlong format', `${'a'.repeat(70)}{sn}`, /At most 64/],
  ])('refuses %s with a clear message', (_why, pattern, message) => {
    let caught: unknown;
    try {
      parseSnLine('SN:ABC123', pattern);
    } catch (e) {
      caught = e;
    }
    expect(caught).toMatchObject({
      code: 'VALIDATION',
      details: { fields: { pattern: expect.stringMatching(message) } },
    });
    expect((caught as Error).message).toMatch(message);
  });

  it('has no pattern language to backtrack in: the longest adversarial lines are read once and refused', () => {
    // The review's example grew x4 every 2 characters under a backtracking regex; these formats
    // are matched by comparing the text before and after {sn}, so every line is one pass.
    const line = `${'A1'.repeat(MAX_LINE_LENGTH / 2 - 1)}!`;
    for (const f of ['auto', '{sn}', 'SN:{sn}', '{sn}#', 'A{sn}A'])
      expect(classifySnLine(line, f)).toEqual({ kind: 'other' });
  });
});

describe('formats saved by older versions', () => {
  it('the old default regular expression means the built-in format', () => {
    expect(upgradeSnPattern(LEGACY_DEFAULT_SN_REGEX)).toBe('auto');
  });

  it('another old regular expression falls back to the built-in format; a valid format is kept', () => {
    expect(upgradeSnPattern('^TID:(?<sn>\\d{8})$')).toBe('auto');
    expect(upgradeSnPattern('TID:{sn}')).toBe('TID:{sn}');
    expect(upgradeSnPattern(undefined)).toBeUndefined();
  });
});
