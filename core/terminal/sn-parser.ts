// Turns one line from the terminal into its serial number, or null. A line that is not clean
// printable ASCII (line noise, a wrong baud rate, a half-received line) never yields an sn.
import { AppError } from '../../shared/errors';
import { DEFAULT_SN_PATTERN, isValidSn, SN_PLACEHOLDER, snPatternProblem } from '../../shared/terminal';

/** Longer lines are noise. */
export const MAX_LINE_LENGTH = 256;

type SnLineVerdict =
  | { kind: 'sn'; sn: string }
  | { kind: 'empty' }
  /** Control characters, non-ASCII bytes, U+FFFD or an overlong line: bytes that were not meant as text. */
  | { kind: 'garbled' }
  /** Clean text that is not a serial number line (another message, a wrong format). */
  | { kind: 'other' };

/** A format, ready to match: the built-in one, or the literal text around {sn}. */
type SnMatcher = { kind: 'auto' } | { kind: 'around'; before: string; after: string };

/**
 * Checks a format once, or throws AppError VALIDATION saying what is wrong with it.
 * @internal for tests
 */
export function compileSnPattern(patternSource: string): SnMatcher {
  const problem = snPatternProblem(patternSource);
  if (problem) throw new AppError('VALIDATION', `Serial number format: ${problem}`, { fields: { pattern: problem } });
  if (patternSource === DEFAULT_SN_PATTERN) return { kind: 'auto' };
  const at = patternSource.indexOf(SN_PLACEHOLDER);
  return {
    kind: 'around',
    before: patternSource.slice(0, at).toUpperCase(),
    after: patternSource.slice(at + SN_PLACEHOLDER.length).toUpperCase(),
  };
}

const isSpace = (c: string | undefined) => c === ' ';

/** `SN:<sn>` / `SN=<sn>` (spaces allowed around the separator) or a bare sn with a digit. One pass. */
function autoSn(text: string): string | null {
  if (text.length >= 3 && text.slice(0, 2).toUpperCase() === 'SN') {
    let i = 2;
    while (isSpace(text[i])) i++;
    if (text[i] === ':' || text[i] === '=') {
      i++;
      while (isSpace(text[i])) i++;
      return text.slice(i);
    }
  }
  return /[0-9]/.test(text) ? text : null;
}

/** The text between the literal parts, compared without regard to case; spaces around it dropped. */
function aroundSn(text: string, before: string, after: string): string | null {
  if (text.length < before.length + after.length) return null;
  const upper = text.toUpperCase();
  if (!upper.startsWith(before) || !upper.endsWith(after)) return null;
  return text.slice(before.length, text.length - after.length).trim();
}

/** Strips the line ending; anything else that is not printable ASCII condemns the whole line. */
function cleanLine(line: string): string | null {
  if (line.length > MAX_LINE_LENGTH + 8) return null; // before any scan of it
  const text = line.replace(/^[\r\n]+|[\r\n]+$/g, '');
  if (text.length > MAX_LINE_LENGTH) return null;
  if (!/^[\x20-\x7e]*$/.test(text)) return null;
  return text.trim();
}

export function classifySnLine(line: string, patternSource: string = DEFAULT_SN_PATTERN): SnLineVerdict {
  const matcher = compileSnPattern(patternSource);
  const text = cleanLine(line);
  if (text === null) return { kind: 'garbled' };
  if (text === '') return { kind: 'empty' };
  const sn = matcher.kind === 'auto' ? autoSn(text) : aroundSn(text, matcher.before, matcher.after);
  // Whatever a format picks out must still look like a serial number.
  if (sn === null || !isValidSn(sn)) return { kind: 'other' };
  return { kind: 'sn', sn };
}

/**
 * The sn on `line`, or null. Throws AppError VALIDATION when the pattern itself is unusable.
 * @internal for tests
 */
export function parseSnLine(line: string, patternSource: string = DEFAULT_SN_PATTERN): string | null {
  const v = classifySnLine(line, patternSource);
  return v.kind === 'sn' ? v.sn : null;
}
