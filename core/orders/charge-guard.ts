// What must hold before any ticket sale is charged, whichever way it was typed (the hand-typed form
// or a show of the programme): a shift is open, so the sale lands in a Z report; and the terminal
// does not still hold an unpaid order — a customer's tap would pay that one while the screen showed
// the new one — unless the cashier decided, naming that order, to leave it there.
import { AppError } from '../../shared/errors';
import { formatNaira } from '../../shared/money';
import { ON_TERMINAL_STATES, type OrderView } from '../../shared/orders';

export interface ChargeGuardInput {
  /** Every order not yet final (the checkout's listOpen). */
  open: readonly OrderView[];
  sn: string;
  /** The sale number the cashier chose to leave waiting on the terminal, if any. */
  besideWaiting?: string | undefined;
  /** Is a shift open now? Absent: not asked (an engine without shifts). */
  shiftOpen?: (() => boolean) | undefined;
}

/** The unpaid orders still on terminal `sn`, oldest first. */
export function ordersOnTerminal(open: readonly OrderView[], sn: string): OrderView[] {
  const want = sn.trim().toUpperCase();
  return open.filter((o) => ON_TERMINAL_STATES.has(o.state) && o.sn.toUpperCase() === want);
}

/** Throws NO_SHIFT or TERMINAL_BUSY (naming the waiting order) when the sale must not go out. */
export function assertCanCharge(g: ChargeGuardInput): void {
  if (g.shiftOpen && !g.shiftOpen()) {
    throw new AppError('NO_SHIFT', 'No shift open: open a shift under Shift (Alt+4) before charging, so this sale counts in its Z report.');
  }
  const waiting = ordersOnTerminal(g.open, g.sn).filter((o) => o.outOrderNo !== g.besideWaiting);
  const first = waiting[0];
  if (first) {
    throw new AppError(
      'TERMINAL_BUSY',
      `${formatNaira(first.amountKobo)} ${first.outOrderNo} is still on the terminal: ask the customer to cancel it there, or wait.`,
      { outOrderNo: first.outOrderNo, amountKobo: first.amountKobo, sn: first.sn, state: first.state },
    );
  }
}
