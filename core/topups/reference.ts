// The merchant's reference of a top-up: <COUNTER>-T<yyMMdd>-<seq4>, e.g. "COU3-T250131-0042".
// Readable off a screen, unique per merchant (counter code + day + a sequence kept in SQLite);
// a batch file may bring its own references instead, checked against REFERENCE_RE.

/** What a reference may hold: no "/" or non-ASCII in signed bodies (their escaping is an open question). */
export const REFERENCE_RE = /^[A-Za-z0-9_-]{1,64}$/;

export function formatReference(code: string, dayCode: string, seq: number): string {
  if (!/^[A-Z0-9]{1,6}$/.test(code)) throw new RangeError(`bad counter code "${code}"`);
  if (!/^\d{6}$/.test(dayCode)) throw new RangeError(`bad day code "${dayCode}"`);
  if (!Number.isSafeInteger(seq) || seq < 1) throw new RangeError(`bad sequence ${seq}`);
  return `${code}-T${dayCode}-${String(seq).padStart(4, '0')}`;
}

/** @internal for tests */
export const GENERATED_REFERENCE_RE = /^[A-Z0-9]{1,6}-T\d{6}-\d{4,}$/;
