// What must hold before any ticket sale goes to a terminal, whichever door it came in by (the
// typed Sell form, a show of the programme, a box office over HTTP, a folder drop or a charge link,
// Try again, or the queue sender after the network or the terminal frees): a shift is open, so the
// sale lands in a Z report; and the terminal holds at most one unpaid order — a customer's tap
// would pay that one while the screen showed the new one. The checkout applies these rules below
// every door (checkout-service.ts `newSale`, and the queue sender's `canSend`); no caller skips them.
import { AppError } from '../../shared/errors';
import { formatNaira } from '../../shared/money';
import { ON_TERMINAL_STATES, WAITING_FOR_TERMINAL, type OrderView } from '../../shared/orders';

/** What the rules read of an open order. */
export type OpenOrder = Pick<OrderView, 'id' | 'outOrderNo' | 'state' | 'sn' | 'amountKobo'>;

/**
 * What a door asks for when the terminal is busy: the cashier's doors are refused (the cashier
 * sees why and decides); a box office's charge waits its turn (`queued`) and goes to the terminal
 * once it is free.
 */
export type WhenBusy = 'refuse' | 'queue';

interface ChargeGuardInput {
  /** Every order not yet final (the checkout's listOpen). */
  open: readonly OpenOrder[];
  sn: string;
  /** The sale number the cashier chose to leave waiting on the terminal, if any (the cashier's doors only). */
  besideWaiting?: string | undefined;
  /** Is a shift open now? Absent: not asked (an engine without shifts). */
  shiftOpen?: (() => boolean) | undefined;
}

const sameTerminal = (a: string, b: string) => a.trim().toUpperCase() === b.trim().toUpperCase();

/**
 * The unpaid orders still on terminal `sn`, oldest first.
 * @internal for tests
 */
export function ordersOnTerminal<T extends OpenOrder>(open: readonly T[], sn: string): T[] {
  return open.filter((o) => ON_TERMINAL_STATES.has(o.state) && sameTerminal(o.sn, sn));
}

/** Throws NO_SHIFT when no shift is open. */
function assertShiftOpen(shiftOpen: (() => boolean) | undefined): void {
  if (shiftOpen && !shiftOpen()) {
    throw new AppError(
      'NO_SHIFT',
      'No shift open: open a shift under Shift (Alt+4) before charging, so this sale counts in its Z report.',
    );
  }
}

/**
 * The order that keeps terminal `sn` busy for a new sale, or null: an unpaid order on it, or a sale
 * already waiting to be sent to it (queued), oldest first; the one the cashier named stays aside.
 */
function busyWith<T extends OpenOrder>(open: readonly T[], sn: string, besideWaiting?: string): T | null {
  const onIt = ordersOnTerminal(open, sn).filter((o) => o.outOrderNo !== besideWaiting);
  const queued = open.filter((o) => o.state === 'queued' && sameTerminal(o.sn, sn) && o.outOrderNo !== besideWaiting);
  return onIt[0] ?? queued[0] ?? null;
}

/** TERMINAL_BUSY, naming the order in the way. */
export function terminalBusy(first: OpenOrder): AppError {
  const where = first.state === 'queued' ? 'is waiting to be sent to the terminal' : 'is still on the terminal';
  const what =
    first.state === 'queued'
      ? 'wait for it, or cancel it (it has not reached the terminal yet).'
      : 'ask the customer to cancel it there, or wait.';
  return new AppError('TERMINAL_BUSY', `${formatNaira(first.amountKobo)} ${first.outOrderNo} ${where}: ${what}`, {
    outOrderNo: first.outOrderNo,
    amountKobo: first.amountKobo,
    sn: first.sn,
    state: first.state,
  });
}

/** The journal's note and the cashier's reason for a sale queued behind `busy` on its terminal. */
export function waitingForTerminal(busy: OpenOrder): { note: string; reason: string } {
  return {
    note: `Sale recorded; waiting for the terminal (${busy.outOrderNo} is ${busy.state === 'queued' ? 'ahead of it' : 'on it'})`,
    reason: `${WAITING_FOR_TERMINAL}: ${busy.outOrderNo} is ${busy.state === 'queued' ? 'ahead of this sale' : 'still on it'}. This sale goes to the terminal as soon as it is free.`,
  };
}

/**
 * The rules for a new sale, applied by the checkout below every door: NO_SHIFT when no shift is
 * open; on a busy terminal TERMINAL_BUSY (naming the order in the way), or — when the door asked to
 * queue — that order, which the new sale waits behind. Null: the terminal is free.
 */
export function admitSale<T extends OpenOrder>(
  g: ChargeGuardInput & { open: readonly T[]; whenBusy?: WhenBusy | undefined },
): T | null {
  assertShiftOpen(g.shiftOpen);
  const busy = busyWith(g.open, g.sn, g.besideWaiting);
  if (busy && g.whenBusy !== 'queue') throw terminalBusy(busy);
  return busy;
}

/**
 * May queued order `rec` be sent now? A shift is open, no unpaid order is on its terminal, and no
 * older queued sale waits for the same terminal (`open` oldest first).
 */
export function canSendQueued(open: readonly OpenOrder[], rec: OpenOrder, shiftOpen?: () => boolean): boolean {
  if (shiftOpen && !shiftOpen()) return false;
  if (ordersOnTerminal(open, rec.sn).length > 0) return false;
  const older = open.find((o) => o.state === 'queued' && sameTerminal(o.sn, rec.sn));
  return !older || older.id === rec.id;
}
