// The cash drawer of a shift: its facts and the one arithmetic of what it should hold, in integer
// kobo. Facts: the float put in at open, the cash each paid sale took (the cash part of its basket:
// tendered − change, never the change), cash paid out (a cash refund), cash drops to the safe
// mid-shift (amount, who, when, an optional note) and the count at close (counted, who, when).
//   expected   = float + cash taken − cash paid out − drops, over the window;
//   over/short = counted − expected, signed (+ over, − short); null until the drawer is counted.
// Which sale's cash is in the drawer, and when, is decided once in shared/tender-lines.ts
// (`cashTakenOf`): a paid sale's cash part, at the time it was paid; the cash part of a split whose
// card part failed is handed back or re-tendered, never taken. A drop larger than the drawer should
// hold at that moment is refused, with what it should hold (`checkDrop`). Rules: docs/concessions.md.
import { z } from 'zod';
import type { Bucket } from './records';
import { formatNaira } from './money';

/** The cash one paid sale put in the drawer. */
export interface DrawerCash {
  /** The sale number (`outOrderNo`). */
  ref: string;
  /** When it was taken (the sale turned paid). */
  at: number;
  /** Its cash part: tendered − change. */
  cashKobo: number;
}

/** Cash taken out of the drawer and given to a customer (a cash refund). */
export interface DrawerPaidOut {
  /** The sale number it refunds. */
  ref: string;
  at: number;
  amountKobo: number;
}

/** Cash taken from the drawer to the safe mid-shift. */
export interface DrawerDrop {
  amountKobo: number;
  /** Who took it to the safe. */
  by: string;
  at: number;
  note?: string;
}

/** The drawer counted (at close, or whenever the cashier counts it). */
export interface DrawerCount {
  countedKobo: number;
  /** Who counted it. */
  by: string;
  at: number;
}

export interface DrawerFacts {
  /** The float put in at open (the shift's opening float; 0 when none was entered). */
  floatKobo: number;
  cashTaken: readonly DrawerCash[];
  cashPaidOut: readonly DrawerPaidOut[];
  drops: readonly DrawerDrop[];
  /** The count, when the drawer was counted; the last one in the window counts. */
  counts: readonly DrawerCount[];
}

/** A shift's window: from its open, to its close (or now, for an X report). */
export interface DrawerWindow {
  from: number;
  to: number;
}

/** Every figure of the drawer, in kobo. */
export interface DrawerTotals {
  floatKobo: number;
  cashTaken: Bucket;
  cashPaidOut: Bucket;
  drops: Bucket;
  /** float + cash taken − cash paid out − drops. */
  expectedKobo: number;
  /** The last count in the window; null when not counted. */
  countedKobo: number | null;
  /** counted − expected: above 0 over, below 0 short; null when not counted. */
  overShortKobo: number | null;
}

const ZERO: Bucket = { count: 0, amountKobo: 0 };

const safe = (n: number): number => {
  if (!Number.isSafeInteger(n)) throw new RangeError(`${n} is not a whole number of kobo`);
  return n;
};
const add = (b: Bucket, kobo: number): Bucket => ({ count: b.count + 1, amountKobo: safe(b.amountKobo + safe(kobo)) });

/**
 * The drawer over a window. Cash taken, paid out and drops count when `from ≤ at < to` (as the
 * ledger counts sales); a count when `from ≤ at ≤ to` (the count at close is made at the close).
 */
export function drawerTotals(facts: DrawerFacts, w: DrawerWindow): DrawerTotals {
  const within = (at: number) => at >= w.from && at < w.to;
  let cashTaken = ZERO,
    cashPaidOut = ZERO,
    drops = ZERO;
  for (const c of facts.cashTaken) if (within(c.at)) cashTaken = add(cashTaken, c.cashKobo);
  for (const p of facts.cashPaidOut) if (within(p.at)) cashPaidOut = add(cashPaidOut, p.amountKobo);
  for (const d of facts.drops) if (within(d.at)) drops = add(drops, d.amountKobo);
  const floatKobo = safe(facts.floatKobo);
  const expectedKobo = safe(floatKobo + cashTaken.amountKobo - cashPaidOut.amountKobo - drops.amountKobo);
  let count: DrawerCount | null = null;
  for (const c of facts.counts) if (c.at >= w.from && c.at <= w.to && (!count || c.at >= count.at)) count = c;
  const countedKobo = count ? safe(count.countedKobo) : null;
  return {
    floatKobo,
    cashTaken,
    cashPaidOut,
    drops,
    expectedKobo,
    countedKobo,
    overShortKobo: countedKobo === null ? null : safe(countedKobo - expectedKobo),
  };
}

/** What the drawer should hold at a moment of the shift opened at `from`: everything up to and including `at`. */
export function drawerHolds(facts: DrawerFacts, from: number, at: number): number {
  return drawerTotals(facts, { from, to: at + 1 }).expectedKobo;
}

// ---- what the cashier records ----

/** A typo guard: no drawer holds ₦100,000,000. */
const MAX_DRAWER_KOBO = 10_000_000_000;

const who = (what: string) =>
  z
    .string({ error: `Enter who ${what}` })
    .trim()
    .min(1, `Enter who ${what}`)
    .max(40, 'A name is at most 40 characters');

const at = z
  .number({ error: 'The time is missing' })
  .int('The time must be a whole number of milliseconds')
  .nonnegative('The time must be a whole number of milliseconds');

/** A cash drop as recorded (its amount against the drawer is `checkDrop`'s). */
export const DrawerDropSchema = z
  .object({
    amountKobo: z
      .number({ error: 'Enter the amount taken to the safe' })
      .int('The amount must be a whole number of kobo')
      .positive('Enter an amount above ₦0.00 to take to the safe')
      .max(MAX_DRAWER_KOBO, 'The amount looks wrong (over ₦100,000,000): check it'),
    by: who('took the cash to the safe'),
    at,
    note: z.string().trim().max(120, 'A note is at most 120 characters').optional(),
  })
  .strict();

/** The drawer's count as recorded. */
export const DrawerCountSchema = z
  .object({
    countedKobo: z
      .number({ error: 'Enter the cash counted in the drawer' })
      .int('The count must be a whole number of kobo')
      .min(0, 'The count cannot be negative: enter ₦0.00 for an empty drawer')
      .max(MAX_DRAWER_KOBO, 'The count looks wrong (over ₦100,000,000): count again'),
    by: who('counted the drawer'),
    at,
  })
  .strict();

/** A problem of a drop or a count: where (`amountKobo`, `by`) and what to fix. */
export interface DrawerProblem {
  path: (string | number)[];
  message: string;
}

export type DrawerCheck<T> = { ok: true; value: T } | { ok: false; problems: DrawerProblem[] };

const problemsOf = (issues: readonly z.core.$ZodIssue[]): DrawerProblem[] =>
  issues.map((i) => ({ path: i.path.map((p) => (typeof p === 'number' ? p : String(p))), message: i.message }));

/**
 * A drop for the shift opened at `from`, against the drawer's facts so far: refused when it is
 * before the shift opened, or larger than the drawer should hold at that moment (the message says
 * how much that is).
 */
export function checkDrop(input: unknown, facts: DrawerFacts, from: number): DrawerCheck<DrawerDrop> {
  const parsed = DrawerDropSchema.safeParse(input);
  if (!parsed.success) return { ok: false, problems: problemsOf(parsed.error.issues) };
  const drop = parsed.data;
  if (drop.at < from)
    return { ok: false, problems: [{ path: ['at'], message: 'A drop cannot be before the shift opened' }] };
  const holds = drawerHolds(facts, from, drop.at);
  if (drop.amountKobo > holds)
    return {
      ok: false,
      problems: [
        {
          path: ['amountKobo'],
          message:
            holds > 0
              ? `The drawer should hold ${formatNaira(holds)}: take at most that to the safe`
              : `The drawer should hold ${formatNaira(Math.max(0, holds))}: there is no cash to take to the safe`,
        },
      ],
    };
  return { ok: true, value: drop };
}

/** A count of the drawer. */
export function checkCount(input: unknown): DrawerCheck<DrawerCount> {
  const parsed = DrawerCountSchema.safeParse(input);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, problems: problemsOf(parsed.error.issues) };
}
