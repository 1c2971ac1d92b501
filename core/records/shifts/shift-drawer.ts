// The shift's cash drawer as the cashier records it: a drop to the safe (judged against what the
// drawer should hold at that moment, shared/drawer.ts `checkDrop`, and kept in the same
// transaction), and the count typed at close (needed when the drawer had a float or took cash).
// Naira as typed; every refusal names the field and says what to fix.
import { checkDrop, type DrawerDrop, type DrawerProblem } from '../../../shared/drawer';
import { validationError } from '../../../shared/errors';
import { countNeeded } from '../../../shared/ledger-basket-lines';
import { formatNaira, MoneyFormatError, parseNaira } from '../../../shared/money';
import { isDemoRecord } from '../../../shared/record-profile';
import type { ShiftTotals, ShiftView } from '../../../shared/records';
import type { OrderJournalReads } from '../../orders';
import type { DrawerStore } from './drawer-store';
import { drawerFactsAt } from './shift-totals';

/** The count typed at close (naira as typed) and who counted. */
export interface CloseCount {
  counted?: string | undefined;
  countedBy?: string | undefined;
}

/** A drop as typed: the amount in naira, an optional note, who took it (the cashier when left out). */
export interface DropTyped {
  amount: string;
  note?: string | undefined;
  by?: string | undefined;
}

export const scopeOf = (shift: ShiftView) => ({ excludeDemo: !isDemoRecord(shift.profile) });

/** Naira as typed, for the field `field` (the typo guard above ₦100,000,000 is the drawer's, shared/drawer.ts). */
function nairaOf(text: string, field: string, what: string): number {
  try {
    return parseNaira(text);
  } catch (e) {
    if (e instanceof MoneyFormatError)
      throw validationError({ [field]: `Enter ${what} in naira, for example 20000 or 20,000.00` });
    throw e;
  }
}

/** A drawer check's problems on the call's fields (`amountKobo`, `countedKobo`: the amount typed). */
export const drawerProblems = (problems: DrawerProblem[], amountField: string) =>
  validationError(
    Object.fromEntries(
      problems.map((p) => [
        p.path[0] === 'amountKobo' || p.path[0] === 'countedKobo' ? amountField : String(p.path[0] ?? amountField),
        p.message,
      ]),
    ),
  );

/** The count typed at close: its kobo (null: none typed) and who counted (the cashier when left out). */
export function countOf(shift: ShiftView, count: CloseCount) {
  const typed = count.counted?.trim() ?? '';
  return {
    countedKobo: typed === '' ? null : nairaOf(typed, 'counted', 'the cash counted in the drawer'),
    by: count.countedBy?.trim() || shift.cashier,
  };
}

/** A drawer that had a float or took cash must be counted before its shift closes. */
export function requireCount(t: ShiftTotals): void {
  const dr = t.drawer;
  if (dr && countNeeded(dr))
    throw validationError(
      { counted: `Count the cash in the drawer and enter it (${formatNaira(dr.expectedKobo)} expected)` },
      'Count the drawer before closing the shift',
    );
}

/** Records a drop from the open shift's drawer, refused above what the drawer should hold at that moment. */
export function recordDrop(
  d: { orders: OrderJournalReads; drawer: DrawerStore },
  shift: ShiftView,
  a: DropTyped,
  now: () => number,
): DrawerDrop {
  if (a.amount.trim() === '') throw validationError({ amount: 'Enter the amount taken to the safe' });
  const amountKobo = nairaOf(a.amount, 'amount', 'the amount taken to the safe');
  const note = a.note?.trim();
  return d.drawer.addDrop(shift.id, () => {
    const at = now();
    const facts = drawerFactsAt(d.orders, d.drawer.facts(shift, at), shift.openedAt, at, scopeOf(shift));
    const r = checkDrop(
      { amountKobo, by: a.by?.trim() || shift.cashier, at, ...(note ? { note } : {}) },
      facts,
      shift.openedAt,
    );
    if (!r.ok) throw drawerProblems(r.problems, 'amount');
    return r.value;
  });
}
