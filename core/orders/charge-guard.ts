// What must hold before any ticket sale goes to a terminal, whichever door it came in by (the
// typed Sell form, a show of the programme, a box office over HTTP, a folder drop or a charge link,
// Try again, or the queue sender after the network or the terminal frees): a shift is open, so the
// sale lands in a Z report; and the terminal holds at most one unpaid order — a customer's tap
// would pay that one while the screen showed the new one. The checkout applies these rules below
// every door (checkout-sales.ts `sell`, and the queue sender's `canSend`); no caller skips them.
// The cashier keeps the counter: a box office's queued charge gives way to the cashier's own sale
// (it never makes the cashier's door TERMINAL_BUSY, and the cashier's queued sales are sent first),
// and a queued sale goes only to the terminal the counter charges on when it is sent.
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
  /** The open orders on the sale's terminal, and each queued order with its terminal's (OrderJournal.listOpenForSale). */
  open: readonly OpenOrder[];
  sn: string;
  /** The sale number the cashier chose to leave waiting on the terminal, if any (the cashier's doors only). */
  besideWaiting?: string | undefined;
  /** Is a shift open now? Absent: not asked (an engine without shifts). */
  shiftOpen?: (() => boolean) | undefined;
  /** Queued orders that give way to the cashier's own sale (a box office's charges). Absent: none. */
  yields?: ((o: OpenOrder) => boolean) | undefined;
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
 * already waiting to be sent to it (queued), oldest first; the one the cashier named stays aside. For
 * the cashier's doors (`refuse`), a queued order that gives way (`yields`: a box office's charge)
 * keeps nothing busy: the cashier's sale goes ahead of it.
 */
function busyWith<T extends OpenOrder>(
  open: readonly T[],
  sn: string,
  besideWaiting: string | undefined,
  ahead: (o: T) => boolean,
): T | null {
  const onIt = ordersOnTerminal(open, sn).filter((o) => o.outOrderNo !== besideWaiting);
  const queued = open.filter(
    (o) => o.state === 'queued' && sameTerminal(o.sn, sn) && o.outOrderNo !== besideWaiting && ahead(o),
  );
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
  const cashier = g.whenBusy !== 'queue';
  const yields = g.yields;
  const busy = busyWith(g.open, g.sn, g.besideWaiting, (o) => !(cashier && yields?.(o)));
  if (busy && cashier) throw terminalBusy(busy);
  return busy;
}

/**
 * The queued order that goes to terminal `sn` next, or null: the cashier's own queued sales first,
 * then the box office's charges (`yields`), each oldest first (`open` is oldest first).
 */
export function nextQueued<T extends OpenOrder>(open: readonly T[], sn: string, yields?: (o: T) => boolean): T | null {
  const queued = open.filter((o) => o.state === 'queued' && sameTerminal(o.sn, sn));
  return queued.find((o) => !yields?.(o)) ?? queued[0] ?? null;
}

/**
 * May queued order `rec` be sent now? A shift is open, no unpaid order is on its terminal, and it is
 * the next queued for that terminal (`nextQueued`: the cashier's own first, then oldest first).
 */
export function canSendQueued(
  open: readonly OpenOrder[],
  rec: OpenOrder,
  shiftOpen?: () => boolean,
  yields?: (o: OpenOrder) => boolean,
): boolean {
  if (shiftOpen && !shiftOpen()) return false;
  if (ordersOnTerminal(open, rec.sn).length > 0) return false;
  return nextQueued(open, rec.sn, yields)?.id === rec.id;
}

/**
 * Is queued order `rec` bound for a terminal the counter no longer charges on? `current` is the
 * counter's terminal at send time (null: none known just now — the sale waits, it is not ended).
 */
export function terminalChanged(rec: Pick<OpenOrder, 'sn'>, current: string | null): boolean {
  return current !== null && !sameTerminal(rec.sn, current);
}
