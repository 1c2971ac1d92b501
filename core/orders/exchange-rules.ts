// The rules of an exchange (docs/refunds.md, "Exchange"), judged before a supervisor is asked and
// again after: a paid sale; the moved seats its own, not cancelled, not in a waiting exchange; as many
// new seats, priced by the engine as any basket; the difference's tender; the credit within what the
// old sale has left to give back (its refunds and the credit already passed on to exchanges), card
// first; a cheaper show's cash refund within the drawer. The call itself is exchange.ts.
import { soldBasketOf } from '../../shared/basket-sale';
import { AppError, validationError } from '../../shared/errors';
import { exchangeCredit, exchangeMoney, exchangeTender } from '../../shared/exchange';
import { EXCHANGE_INVALID, refundTenders, type ExchangeRequestSchema } from '../../shared/refunds';
import { priceBasket, type BasketSources } from './basket-intake';
import type { ExchangeStore } from './exchange-store';
import type { OrderRecord } from './order-journal';
import { refuseAboveDrawer, type UndoDeps } from './undo-cancel';
import type { UndoStore } from './undo-store';

/** What the rules read: the undo's tables, the shift's drawer, the programme's prices. */
export interface ExchangeRuleDeps {
  undoStore: UndoStore;
  undo: UndoDeps;
  basket: BasketSources;
  now: () => number;
}

const refuse = (field: string, message: string) => validationError({ [field]: message }, message);

/** The seats of a sale still the customer's: its tickets, less those cancelled or being exchanged. */
export function seatsLeft(
  rec: OrderRecord,
  undoStore: UndoStore,
  exchanges: ExchangeStore,
): { all: string[]; busy: Set<string> } {
  const gone = new Set(undoStore.cancelledSeats(rec.id));
  const busy = new Set(
    exchanges
      .from(rec.id)
      .filter((x) => x.state === 'waiting')
      .flatMap((x) => x.seats),
  );
  const all: string[] = [];
  for (const l of soldBasketOf(rec).lines)
    if (l.kind === 'tickets') for (const s of l.seats) if (!gone.has(s) && !busy.has(s)) all.push(s);
  return { all, busy };
}

/** The credit a sale's tickets passed on to its exchanges (waiting or done), by its tenders: no longer its to give back. */
export function creditGiven(store: ExchangeStore, orderId: number): { cardKobo: number; cashKobo: number } {
  let cardKobo = 0,
    cashKobo = 0;
  for (const x of store.from(orderId))
    if (x.state !== 'failed') {
      cardKobo += x.creditCardKobo;
      cashKobo += x.creditCashKobo;
    }
  return { cardKobo, cashKobo };
}

/**
 * What a sale took, by tender, with the credit an exchange paid it with (by the tenders of the sale
 * that credit came from): an exchange's new sale paid wholly by credit took ₦0.00 itself, and its
 * tickets are worth their credit all the same when exchanged again.
 */
export function paidWithCredit(store: ExchangeStore, rec: OrderRecord): { cardKobo: number; cashKobo: number } {
  const a = soldBasketOf(rec).amounts;
  const x = store.of(rec.id);
  const credit = x?.state === 'done' ? { cardKobo: x.creditCardKobo, cashKobo: x.creditCashKobo } : null;
  return { cardKobo: a.cardKobo + (credit?.cardKobo ?? 0), cashKobo: a.cashKobo + (credit?.cashKobo ?? 0) };
}

/** What a sale already owes back or passed on (its refunds, and the credit of its exchanges, this one's included once recorded). */
export function leftToGive(
  d: ExchangeRuleDeps,
  store: ExchangeStore,
  orderId: number,
): { cardKobo: number; cashKobo: number } {
  const owed = d.undoStore.owed(orderId);
  const given = creditGiven(store, orderId);
  return { cardKobo: owed.cardKobo + given.cardKobo, cashKobo: owed.cashKobo + given.cashKobo };
}

export interface ExchangePlan {
  seats: string[];
  creditKobo: number;
  /** The credit spent on the new tickets, by the old sale's tenders, card first (what a cancel of the new sale gives back by). */
  creditTenders: { cardKobo: number; cashKobo: number };
  newTotalKobo: number;
  refundKobo: number;
  toPayKobo: number;
}

export type ExchangeRequestParsed = ReturnType<typeof ExchangeRequestSchema.parse>;

/**
 * What an exchange of these tickets to these new seats would cost, judged against the sale as it is
 * now, before any tender or approval (the panel shows it as the cashier picks); throws what to fix.
 */
export function quoteExchange(
  d: ExchangeRuleDeps,
  store: ExchangeStore,
  rec: OrderRecord,
  req: Pick<ExchangeRequestParsed, 'seats' | 'to'>,
) {
  if (rec.state !== 'paid')
    throw new AppError('CONFLICT', `Sale ${rec.outOrderNo} is not paid: only a paid sale can be exchanged.`, {
      orderId: rec.id,
    });
  const left = seatsLeft(rec, d.undoStore, store);
  const seats = req.seats.length > 0 ? req.seats : left.all;
  if (seats.length === 0) throw refuse('seats', `Sale ${rec.outOrderNo} has no tickets left to exchange`);
  const credit = exchangeCredit(soldBasketOf(rec), seats);
  if (!credit.ok) throw refuse('seats', `${credit.missing.join(', ')}: not a seat of sale ${rec.outOrderNo}`);
  for (const [i, s] of seats.entries()) {
    if (seats.indexOf(s) !== i) throw refuse('seats', `${s} is chosen twice`);
    if (left.busy.has(s)) throw refuse('seats', `${s} is already being exchanged: wait for its difference to be paid`);
    if (!left.all.includes(s)) throw refuse('seats', `${s} is already cancelled`);
  }
  if (req.to.seats.length !== seats.length)
    throw refuse(
      'to.seats',
      `Choose ${seats.length} new seat${seats.length === 1 ? '' : 's'}: an exchange moves ${seats.length} ticket${seats.length === 1 ? '' : 's'}`,
    );
  const priced = priceBasket({ tickets: req.to, concessions: [], tender: { kind: 'card' } }, d.basket);
  if (!priced.ok) {
    const fields: Record<string, string> = {};
    for (const p of priced.problems) fields[['to', ...p.path.slice(1)].join('.')] ??= p.message;
    throw validationError(fields, EXCHANGE_INVALID);
  }
  return { seats, credit, money: exchangeMoney(credit.creditKobo, priced.amounts.totalKobo) };
}

/** The exchange judged against the sale as it is now; throws what the cashier must fix. */
export function planExchange(
  d: ExchangeRuleDeps,
  store: ExchangeStore,
  rec: OrderRecord,
  req: ExchangeRequestParsed,
): ExchangePlan {
  const { seats, credit, money } = quoteExchange(d, store, rec, req);
  // How the difference is paid, judged before any approval is asked (the new sale judges it again).
  const t = exchangeTender(money, req.tender);
  if (!t.ok) throw validationError({ [t.path]: t.message }, EXCHANGE_INVALID);
  if (t.tender.kind === 'card' && !req.sn)
    throw refuse('sn', 'Enter the terminal serial number (SN): the difference is paid on the terminal');
  // What the old sale has left to give back pays the credit, card first: the part spent on the new
  // tickets is recorded with the exchange (a cancel of the new sale gives it back by these tenders);
  // the rest is the refund owed, made when the exchange completes.
  const room = leftToGive(d, store, rec.id);
  const paid = paidWithCredit(store, rec);
  let creditTenders: ExchangePlan['creditTenders'];
  let refund: { cardKobo: number; cashKobo: number };
  try {
    refundTenders(credit.creditKobo, paid, room);
    creditTenders = refundTenders(credit.creditKobo - money.refundKobo, paid, room);
    refund = refundTenders(money.refundKobo, paid, {
      cardKobo: room.cardKobo + creditTenders.cardKobo,
      cashKobo: room.cashKobo + creditTenders.cashKobo,
    });
  } catch {
    throw new AppError('CONFLICT', `Sale ${rec.outOrderNo} has less left to give back than these tickets' credit.`, {
      orderId: rec.id,
    });
  }
  // A cheaper show's cash refund is paid out of the drawer when the exchange completes (at once).
  const holds = d.undo.shiftAt(d.now())?.drawerHolds?.(rec.profile === 'demo') ?? null;
  refuseAboveDrawer({ refunds: refund.cashKobo > 0 ? [{ tender: 'cash', amountKobo: refund.cashKobo }] : [] }, holds);
  return {
    seats,
    creditKobo: credit.creditKobo,
    creditTenders,
    newTotalKobo: money.newTotalKobo,
    refundKobo: money.refundKobo,
    toPayKobo: money.toPayKobo,
  };
}
