// The merchant's order number (outOrderNo): <COUNTER>-<yyMMdd>-<seq4>, e.g. "COU3-250131-0007".
// Short enough to read off a receipt, sortable within a counter, unique per counter and day;
// the sequence itself is kept in SQLite by the journal, in the same transaction as the order.
import { lagosDate } from '../../shared/time';

const MAX_CODE = 6;
const MAX_DIGITS = 4;

/**
 * A short code from the counter's name: letters and digits, at most 6. The digits of the name
 * are kept (so "Counter 1" and "Counter 2" differ), the letters shortened: initials when the
 * name has several words, else the first three letters. "Counter 3" -> "COU3",
 * "Main Hall 2" -> "MH2", "Box Office" -> "BO", "Lekki VIP 12" -> "LV12".
 */
export function counterCode(counterName: string): string {
  const plain = counterName.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toUpperCase();
  const words = plain.split(/[^A-Z0-9]+/).filter(Boolean);
  const digits = words.map((w) => w.replace(/[^0-9]/g, '')).join('').slice(-MAX_DIGITS);
  const letterWords = words.map((w) => w.replace(/[^A-Z]/g, '')).filter(Boolean);
  const letters = letterWords.length >= 2 ? letterWords.map((w) => w[0]).join('') : (letterWords[0] ?? '').slice(0, 3);
  const code = (letters || (digits ? 'C' : 'CTR')).slice(0, MAX_CODE - digits.length) + digits;
  return code.slice(0, MAX_CODE);
}

/** The business day of an instant, in Lagos, as yyMMdd. */
export function lagosDayCode(ms: number): string {
  return lagosDate(ms).replace(/-/g, '').slice(2);
}

export function formatOutOrderNo(code: string, dayCode: string, seq: number): string {
  if (!/^[A-Z0-9]{1,6}$/.test(code)) throw new RangeError(`bad counter code "${code}"`);
  if (!/^\d{6}$/.test(dayCode)) throw new RangeError(`bad day code "${dayCode}"`);
  if (!Number.isSafeInteger(seq) || seq < 1) throw new RangeError(`bad sequence ${seq}`);
  // Past 9999 sales a day the number simply grows a digit; it stays unique.
  return `${code}-${dayCode}-${String(seq).padStart(4, '0')}`;
}

export const OUT_ORDER_NO_RE = /^[A-Z0-9]{1,6}-\d{6}-\d{4,}$/;
