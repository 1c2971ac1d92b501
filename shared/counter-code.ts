// A counter's code: the short prefix of every sale number (COU3-250131-0007) and generated top-up
// reference (COU3-T250131-0042) it makes, derived from its name. The counter numbers its orders
// with it; the Hub uses it to tell whose a reference is (a counter may not claim another's).

const MAX_CODE = 6;
const MAX_DIGITS = 4;

/**
 * A short code from the counter's name: letters and digits, at most 6. The digits of the name
 * are kept (so "Counter 1" and "Counter 2" differ), the letters shortened: initials when the
 * name has several words, else the first three letters. "Counter 3" -> "COU3",
 * "Main Hall 2" -> "MH2", "Box Office" -> "BO", "Lekki VIP 12" -> "LV12".
 */
export function counterCode(counterName: string): string {
  const plain = counterName
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase();
  const words = plain.split(/[^A-Z0-9]+/).filter(Boolean);
  const digits = words
    .map((w) => w.replace(/[^0-9]/g, ''))
    .join('')
    .slice(-MAX_DIGITS);
  const letterWords = words.map((w) => w.replace(/[^A-Z]/g, '')).filter(Boolean);
  const letters = letterWords.length >= 2 ? letterWords.map((w) => w[0]).join('') : (letterWords[0] ?? '').slice(0, 3);
  const code = (letters || (digits ? 'C' : 'CTR')).slice(0, MAX_CODE - digits.length) + digits;
  return code.slice(0, MAX_CODE);
}

/** Both numbers a counter generates: a sale's <CODE>-<yyMMdd>-<seq> and a top-up's <CODE>-T<yyMMdd>-<seq>. */
const GENERATED_RE = /^([A-Z0-9]{1,6})-T?\d{6}-\d{4,}$/;

/** The counter code a generated sale number or top-up reference starts with; null for any other reference (e.g. a batch file's own). */
export const referenceCounterCode = (reference: string): string | null => GENERATED_RE.exec(reference)?.[1] ?? null;
