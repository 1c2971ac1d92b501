// The Hub's day figures, from the ledger's figures of each shift and sale (shared/ledger.ts): a day
// of shifts, the Today chart's hours, and a group's tally of a Lagos day. Screens and the Hub show
// these; they never add money up themselves.
import type { Bucket } from './records';

const NONE: Bucket = { count: 0, amountKobo: 0 };

/** A day of shifts on the Hub, added up from each shift's ledger figures (its card total and Z reports). */
interface ShiftDayTotals {
  shifts: number;
  open: number;
  /** Card takings of the closed shifts (top-ups apart). */
  cardTotalKobo: number;
  zReports: number;
  zTotalKobo: number;
  /** Card payments in those Z reports. */
  zCount: number;
}

/** The day's totals of real shifts, and apart those of Demo and Sandbox shifts (practice: no real money). */
export function shiftDayTotals(
  list: readonly {
    practice: boolean;
    closedAt: number | null;
    cardTotalKobo: number | null;
    zreports: readonly { totalKobo: number; count: number }[];
  }[],
): { totals: ShiftDayTotals; practice: ShiftDayTotals } {
  const zero = (): ShiftDayTotals => ({ shifts: 0, open: 0, cardTotalKobo: 0, zReports: 0, zTotalKobo: 0, zCount: 0 });
  const totals = zero();
  const practice = zero();
  for (const s of list) {
    const t = s.practice ? practice : totals;
    t.shifts++;
    if (s.closedAt === null) t.open++;
    t.cardTotalKobo += s.cardTotalKobo ?? 0;
    for (const z of s.zreports) {
      t.zReports++;
      t.zTotalKobo += z.totalKobo;
      t.zCount += z.count;
    }
  }
  return { totals, practice };
}

/** The Today chart's hours, added up: today's takings and last week's by the end of the day, and the busiest hour. */
export function hourlyTotals<P extends { hour: number; paidKobo: number; lastWeekPaidKobo: number }>(
  points: readonly P[],
): { paidKobo: number; lastWeekPaidKobo: number; busiest: P | null } {
  let paidKobo = 0,
    lastWeekPaidKobo = 0;
  let busiest: P | null = null;
  for (const p of points) {
    paidKobo += p.paidKobo;
    lastWeekPaidKobo += p.lastWeekPaidKobo;
    if (!busiest || p.paidKobo > busiest.paidKobo) busiest = p;
  }
  return { paidKobo, lastWeekPaidKobo, busiest };
}

/** Last week's takings up to the same hour of the day, for "so far" comparisons (hour: Lagos hour, inclusive). */
export function lastWeekSoFar(points: readonly { hour: number; lastWeekPaidKobo: number }[], hour: number): number {
  return hourlyTotals(points.filter((p) => p.hour <= hour).map((p) => ({ ...p, paidKobo: 0 }))).lastWeekPaidKobo;
}

/** A group's figures of a Lagos day on the Hub (Today: a branch, a counter, a cashier, or all). */
interface DayTally {
  paidCount: number;
  paidKobo: number;
  failedCount: number;
  cancelledCount: number;
  expiredCount: number;
  openCount: number;
  topupCount: number;
  topupKobo: number;
  paidAfterClosingCount: number;
  paidAfterClosingKobo: number;
  refundDueCount: number;
  refundDueKobo: number;
}

export const emptyDayTally = (): DayTally => ({
  paidCount: 0,
  paidKobo: 0,
  failedCount: 0,
  cancelledCount: 0,
  expiredCount: 0,
  openCount: 0,
  topupCount: 0,
  topupKobo: 0,
  paidAfterClosingCount: 0,
  paidAfterClosingKobo: 0,
  refundDueCount: 0,
  refundDueKobo: 0,
});

/**
 * A day's tally from what was counted of it, by the card total's rule: paid sales of the day, and
 * money taken after closing learnt that day, kept (in the takings, shown apart too) or to be
 * refunded (out of the takings, shown as refund due); successful top-ups apart.
 */
export function dayTally(c: {
  paid?: Bucket;
  failedCount?: number;
  cancelledCount?: number;
  expiredCount?: number;
  openCount?: number;
  lateKept?: Bucket;
  lateRefund?: Bucket;
  topups?: Bucket;
}): DayTally {
  const paid = c.paid ?? NONE,
    kept = c.lateKept ?? NONE,
    refund = c.lateRefund ?? NONE,
    topups = c.topups ?? NONE;
  return {
    paidCount: paid.count + kept.count,
    paidKobo: paid.amountKobo + kept.amountKobo,
    failedCount: c.failedCount ?? 0,
    cancelledCount: c.cancelledCount ?? 0,
    expiredCount: c.expiredCount ?? 0,
    openCount: c.openCount ?? 0,
    topupCount: topups.count,
    topupKobo: topups.amountKobo,
    paidAfterClosingCount: kept.count,
    paidAfterClosingKobo: kept.amountKobo,
    refundDueCount: refund.count,
    refundDueKobo: refund.amountKobo,
  };
}

/** Adds `b` into `a` (a branch's, a counter's or the day's tally from its parts). */
export function addDayTally(a: DayTally, b: DayTally): void {
  for (const k of Object.keys(b) as (keyof DayTally)[]) a[k] += b[k];
}

/** A day's shows added up (the Hub's Shows page): seats sold and held, and the takings, from each show's own figures. */
export function showFillTotals(list: readonly { seatsSold: number; cardTotalKobo: number; seatsHeld: number }[]): {
  shows: number;
  seatsSold: number;
  cardTotalKobo: number;
  seatsHeld: number;
} {
  const t = { shows: list.length, seatsSold: 0, cardTotalKobo: 0, seatsHeld: 0 };
  for (const s of list) {
    t.seatsSold += s.seatsSold;
    t.cardTotalKobo += s.cardTotalKobo;
    t.seatsHeld += s.seatsHeld;
  }
  return t;
}
