// The merchant's order number (outOrderNo): <COUNTER>-<yyMMdd>-<seq4>, e.g. "COU3-250131-0007".
// Short enough to read off a receipt, sortable within a counter, unique per counter and day;
// the sequence itself is kept in SQLite by the journal, in the same transaction as the order.
import { lagosDate } from '../../shared/time';

/** The counter's code (its name, shortened): shared with the Hub, which checks whose a reference is. */
export { counterCode } from '../../shared/counter-code';

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

/** @internal for tests */
export const OUT_ORDER_NO_RE = /^[A-Z0-9]{1,6}-\d{6}-\d{4,}$/;
