// Cancel tickets or concession lines of a paid sale, below every door (docs/refunds.md, "Cancel and
// refunds owed"). The rules: only a paid sale, during a shift (a cash refund no more than the
// drawer should hold); each seat one of the sale's own not
// already cancelled; each concession line one of the sale's, within what is left of it; a
// supervisor's approval (undo-approval.ts). The amount goes back exactly as the sale was priced
// (`soldBasketOf`: each ticket its unit price and its booking fee, each line its unit price times
// the quantity), by the card first then cash (`refundTenders`). Journal first, all or nothing: the
// undo, its seats, its refunds owed (cash returned from the drawer at once, card owed) and the
// Hub's 'order.cancelled' event commit in one transaction. The sale's row never changes.
import { soldBasketOf } from '../../shared/basket-sale';
import { AppError, issueFields, validationError } from '../../shared/errors';
import { clipText, type JournalSink } from '../journal-sink';
import type { Logger } from '../../shared/logger';
import { formatNaira } from '../../shared/money';
import type { OrderView } from '../../shared/orders';
import {
  CANCEL_INVALID,
  CancelRequestSchema,
  refundTenders,
  UNDO_REASON_LABELS,
  type CancelRequest,
  type UndoReason,
  type RefundTender,
  type RefundView,
} from '../../shared/refunds';
import type { Db } from '../db';
import type { CheckoutRun } from './checkout-run';
import type { OrderRecord } from './order-journal';
import { approve, type ApprovalDeps } from './undo-approval';
import type { UndoneLine, UndoStore } from './undo-store';

/** What an undo takes beyond the checkout: the approval's checks, and the shift open at a moment (the records module's). */
export interface UndoDeps extends ApprovalDeps {
  /**
   * The shift open at `at` (null: none is), and what its drawer should hold then for a cash refund
   * of a Demo or real sale (null: that sale's cash is not counted in this drawer; absent: not checked).
   */
  shiftAt: (at: number) => { id: number; drawerHolds?: (demoSale: boolean) => number | null } | null;
}

export interface CancelDeps {
  db: Db;
  run: CheckoutRun;
  store: UndoStore;
  sink: JournalSink;
  now: () => number;
  logger: Logger;
  undo: UndoDeps;
  /** The seats of a sale in an exchange waiting for its difference (exchange.ts): not cancelled meanwhile. */
  exchanging?: (orderId: number) => ReadonlySet<string>;
  /** An exchange's new sale: the credit that paid part of it, by the tenders it came from (exchange.ts). */
  creditOf?: (orderId: number) => { cardKobo: number; cashKobo: number } | null;
  /** A sale whose tickets were exchanged: the credit they passed on, by its tenders (no longer its to give back). */
  creditGiven?: (orderId: number) => { cardKobo: number; cashKobo: number };
}

/** What else a cancel is judged with: seats in a waiting exchange, and the credit an exchange's new sale was part paid with. */
export interface CancelContext {
  exchanging?: ReadonlySet<string> | undefined;
  credit?: { cardKobo: number; cashKobo: number } | null | undefined;
  given?: { cardKobo: number; cashKobo: number } | undefined;
}

/** A cancel as the rules priced it: the seats, the lines, the amount and its tenders. */
interface CancelPlan {
  seats: string[];
  lines: UndoneLine[];
  amountKobo: number;
  refunds: { tender: RefundTender; amountKobo: number }[];
}

const refuse = (field: string, message: string) => validationError({ [field]: message }, message);

/** Prices a cancel against the sale as recorded and its earlier undos; throws what the cashier must fix. */
export function planCancel(
  rec: OrderRecord,
  req: { seats: readonly string[]; concessions: readonly { line: number; quantity: number }[] },
  store: UndoStore,
  c: CancelContext = {},
): CancelPlan {
  const exchanging = c.exchanging ?? new Set<string>();
  if (rec.state !== 'paid')
    throw new AppError('CONFLICT', `Sale ${rec.outOrderNo} is not paid: only a paid sale can be cancelled.`, {
      orderId: rec.id,
    });
  const sold = soldBasketOf(rec);
  const gone = new Set(store.cancelledSeats(rec.id));
  const seats: string[] = [];
  let amountKobo = 0;
  for (const seat of req.seats) {
    if (seats.includes(seat)) throw refuse('seats', `${seat} is chosen twice`);
    const line = sold.lines.find((l) => l.kind === 'tickets' && l.seats.includes(seat));
    if (!line || line.kind !== 'tickets') throw refuse('seats', `${seat} is not a seat of sale ${rec.outOrderNo}`);
    if (gone.has(seat)) throw refuse('seats', `${seat} is already cancelled`);
    if (exchanging.has(seat))
      throw refuse('seats', `${seat} is being exchanged: wait until its difference is paid or fails`);
    seats.push(seat);
    amountKobo += line.unitKobo + line.feePerTicketKobo;
  }
  const taken = store.linesTaken(rec.id);
  const asked = new Map<number, number>();
  for (const c of req.concessions) asked.set(c.line, (asked.get(c.line) ?? 0) + c.quantity);
  const lines: UndoneLine[] = [];
  for (const [index, quantity] of asked) {
    const line = sold.lines[index];
    if (!line || line.kind === 'tickets')
      throw refuse('concessions', `Line ${index + 1} is not a concession line of sale ${rec.outOrderNo}`);
    const left = line.quantity - (taken.get(index) ?? 0);
    if (quantity > left)
      throw refuse(
        'concessions',
        left === 0
          ? `${line.name} is already cancelled`
          : `Only ${left} ${line.name} left to cancel on sale ${rec.outOrderNo}`,
      );
    const kobo = line.unitKobo * quantity;
    lines.push({ line: index, name: line.name, quantity, amountKobo: kobo });
    amountKobo += kobo;
  }
  let split: { cardKobo: number; cashKobo: number };
  try {
    // An exchange's new sale took its credit from the old sale's tenders: it goes back by them too.
    const credit = c.credit ?? { cardKobo: 0, cashKobo: 0 };
    const paid = {
      cardKobo: sold.amounts.cardKobo + credit.cardKobo,
      cashKobo: sold.amounts.cashKobo + credit.cashKobo,
    };
    const owed = store.owed(rec.id);
    const given = c.given ?? { cardKobo: 0, cashKobo: 0 };
    split = refundTenders(amountKobo, paid, {
      cardKobo: owed.cardKobo + given.cardKobo,
      cashKobo: owed.cashKobo + given.cashKobo,
    });
  } catch {
    throw new AppError('CONFLICT', `Sale ${rec.outOrderNo} has less left to give back than this cancel.`, {
      orderId: rec.id,
    });
  }
  const refunds: CancelPlan['refunds'] = [];
  if (split.cardKobo > 0) refunds.push({ tender: 'card', amountKobo: split.cardKobo });
  if (split.cashKobo > 0) refunds.push({ tender: 'cash', amountKobo: split.cashKobo });
  return { seats, lines, amountKobo, refunds };
}

/** A cash refund is paid out of the drawer at once: never more than the drawer should hold then. */
export function refuseAboveDrawer(plan: Pick<CancelPlan, 'refunds'>, holds: number | null): void {
  const cash = plan.refunds.find((r) => r.tender === 'cash');
  if (!cash || holds === null || cash.amountKobo <= holds) return;
  throw new AppError(
    'CONFLICT',
    `The drawer should hold ${formatNaira(Math.max(0, holds))}: a cash refund of ${formatNaira(cash.amountKobo)} cannot be paid from it. Take cash to the drawer first, or cancel less.`,
    { holdsKobo: holds, cashKobo: cash.amountKobo },
  );
}

/** The cancel's line in the sale's history: what was cancelled, why, what is owed back by which tender, who approved. */
function cancelNote(plan: CancelPlan, made: readonly RefundView[], reason: UndoReason, by: string): string {
  const what = [
    ...(plan.seats.length ? [`seat${plan.seats.length === 1 ? '' : 's'} ${plan.seats.join(', ')}`] : []),
    ...plan.lines.map((l) => `${l.quantity} × ${l.name}`),
  ].join(', ');
  const back = made
    .map((r) =>
      r.tender === 'cash'
        ? `${r.refundNo} ${formatNaira(r.amountKobo)} paid back in cash`
        : `${r.refundNo} ${formatNaira(r.amountKobo)} owed to the card`,
    )
    .join('; ');
  return `Cancelled ${what} (${UNDO_REASON_LABELS[reason]}): ${back}. Approved: ${by}`;
}

/** The cancel call: checks, approval, then the one transaction; the sale's view and the refunds owed it made. */
export async function cancelSale(
  d: CancelDeps,
  input: CancelRequest,
): Promise<{ order: OrderView; refunds: RefundView[] }> {
  const parsed = CancelRequestSchema.safeParse(input);
  if (!parsed.success) throw validationError(issueFields(parsed.error.issues), CANCEL_INVALID);
  const req = parsed.data;
  const { run, store, sink, logger } = d;
  const rec = run.record(req.orderId);
  // The rules first (nothing asked of a supervisor for a cancel that cannot be), again in the transaction.
  if (!d.undo.shiftAt(d.now()))
    throw new AppError('NO_SHIFT', 'Open a shift first: a cancel and its refund are counted in a shift.');
  const ctx = (id: number): CancelContext => ({
    exchanging: d.exchanging?.(id),
    credit: d.creditOf?.(id),
    given: d.creditGiven?.(id),
  });
  const first = planCancel(rec, req, store, ctx(rec.id));
  refuseAboveDrawer(first, d.undo.shiftAt(d.now())?.drawerHolds?.(rec.profile === 'demo') ?? null);
  const approved = await approve(
    d.undo,
    logger,
    req.approval,
    { kind: 'cancel', reference: rec.outOrderNo, amountKobo: first.amountKobo, cashier: req.cashier },
    d.now,
  );
  const ids = d.db
    .transaction((): number[] => {
      const at = d.now();
      const shift = d.undo.shiftAt(at);
      if (!shift) throw new AppError('NO_SHIFT', 'Open a shift first: a cancel and its refund are counted in a shift.');
      const plan = planCancel(run.record(req.orderId), req, store, ctx(rec.id));
      refuseAboveDrawer(plan, shift.drawerHolds?.(rec.profile === 'demo') ?? null);
      const refundIds = store.insert(
        {
          orderId: rec.id,
          kind: 'cancel',
          at,
          reason: req.reason,
          note: req.note,
          approved,
          cashier: req.cashier,
          shiftId: shift.id,
          demo: rec.profile === 'demo',
          seats: plan.seats,
          lines: plan.lines,
          amountKobo: plan.amountKobo,
        },
        plan.refunds,
      );
      const made = refundIds.map((id) => store.get(id)!);
      run.journal.noteEvent(rec.id, at, cancelNote(plan, made, req.reason, approved.by));
      sink.append(
        'order.cancelled',
        {
          reference: rec.outOrderNo,
          kind: 'cancel',
          seats: plan.seats,
          refunds: made.map((r) => ({ refundNo: r.refundNo, tender: r.tender, amountKobo: r.amountKobo })),
          reason: req.reason,
          ...(req.note ? { note: clipText(req.note, 200) } : {}),
          approvedBy: clipText(approved.by, 80),
          approvedHow: approved.how,
        },
        at,
      );
      return refundIds;
    })
    .immediate();
  const refunds = ids.map((id) => store.get(id)!);
  logger.info('sale cancelled in part or whole', {
    orderId: rec.id,
    outOrderNo: rec.outOrderNo,
    seats: req.seats.join(','),
    lines: req.concessions.length,
    refunds: refunds.map((r) => `${r.refundNo} ${r.tender} ${r.amountKobo}`).join('; '),
    approvedHow: approved.how,
    cashier: req.cashier,
  });
  const after = run.record(rec.id);
  run.changed(after);
  run.events.emit('refunds', { orderId: rec.id });
  return { order: run.view(after), refunds };
}
