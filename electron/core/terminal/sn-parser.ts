// Turns one line from the terminal into its serial number, or null. A line that is not clean
// printable ASCII (line noise, a wrong baud rate, a half-received line) never yields an sn.
import { AppError } from '../../../shared/errors';
import { DEFAULT_SN_PATTERN, isValidSn, snPatternProblem } from '../../../shared/terminal';

/** Longer lines are noise; refusing them also bounds the work a user pattern can cause. */
export const MAX_LINE_LENGTH = 256;

export type SnLineVerdict =
  | { kind: 'sn'; sn: string }
  | { kind: 'empty' }
  /** Control characters, non-ASCII bytes, U+FFFD or an overlong line: bytes that were not meant as text. */
  | { kind: 'garbled' }
  /** Clean text that is not a serial number line (another message, a wrong format). */
  | { kind: 'other' };

const cache = new Map<string, RegExp>();

/** Compiles a user pattern once, or throws AppError VALIDATION saying what is wrong with it. */
export function compileSnPattern(patternSource: string): RegExp {
  const hit = cache.get(patternSource);
  if (hit) return hit;
  const problem = snPatternProblem(patternSource);
  if (problem) throw new AppError('VALIDATION', `Serial number pattern: ${problem}`, { fields: { pattern: problem } });
  const re = new RegExp(patternSource);
  if (cache.size > 32) cache.clear();
  cache.set(patternSource, re);
  return re;
}

/** Strips the line ending; anything else that is not printable ASCII condemns the whole line. */
function cleanLine(line: string): string | null {
  const text = line.replace(/^[\r\n]+|[\r\n]+$/g, '');
  if (text.length > MAX_LINE_LENGTH) return null;
  if (!/^[\x20-\x7e]*$/.test(text)) return null;
  return text.trim();
}

export function classifySnLine(line: string, patternSource: string = DEFAULT_SN_PATTERN): SnLineVerdict {
  const re = compileSnPattern(patternSource);
  const text = cleanLine(line);
  if (text === null) return { kind: 'garbled' };
  if (text === '') return { kind: 'empty' };
  const m = re.exec(text);
  if (!m) return { kind: 'other' };
  const sn = m.groups?.sn ?? m[1];
  // Whatever a custom pattern captures must still look like a serial number.
  if (sn === undefined || !isValidSn(sn)) return { kind: 'other' };
  return { kind: 'sn', sn };
}

/** The sn on `line`, or null. Throws AppError VALIDATION when the pattern itself is unusable. */
export function parseSnLine(line: string, patternSource: string = DEFAULT_SN_PATTERN): string | null {
  const v = classifySnLine(line, patternSource);
  return v.kind === 'sn' ? v.sn : null;
}
