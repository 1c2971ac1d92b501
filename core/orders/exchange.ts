// Exchange tickets of a paid sale to another show or other seats, below every door (docs/refunds.md,
// "Exchange"). The rules: only a paid sale, during a shift; each moved seat one of the sale's own, not
// cancelled and not already being exchanged; as many new seats as moved ones; a supervisor's approval
// (undo-approval.ts). The money is shared/exchange.ts: the credit of the moved tickets pays the new
// tickets first, the difference is paid (card or cash) or owed back (card first).
//
// The new tickets are one new sale, through the same door as every sale (`sell`, with the credit):
// its seats are held (the Hub's hold when there is one; taken elsewhere, it fails and nothing moved)
// before anything changes. The original's seats are cancelled (the undo of kind 'exchange', its refund
// owed for a cheaper show, the Hub's 'order.cancelled' with `exchangeTo`) in the very transaction that
// makes the new sale paid (the journal's `moved`): at once for cash or nothing to pay; for a card
// difference when the terminal takes it. Until then the old seats stay the customer's and the new ones
// stay held by the waiting sale; if it fails, expires or is cancelled, the exchange failed and nothing
// moved.
import { soldBasketOf, type BasketSaleInput } from '../../shared/basket-sale';
import { AppError, issueFields, validationError } from '../../shared/errors';
import { exchangeCredit, exchangeMoney, exchangeTender } from '../../shared/exchange';
import type { Logger } from '../../shared/logger';
import type { OrderView } from '../../shared/orders';
import {
  EXCHANGE_INVALID,
  ExchangeRequestSchema,
  refundTenders,
  type ExchangeRequest,
  type RefundView,
  type SaleLinks,
} from '../../shared/refunds';
import type { Db } from '../db';
import { clipText, type JournalSink } from '../journal-sink';
import type { CheckoutRun } from './checkout-run';
import type { checkoutSales } from './checkout-sales';
import { ExchangeStore, type ExchangeRow } from './exchange-store';
import type { OrderRecord } from './order-journal';
import { isFinalState } from './order-state';
import { approve } from './undo-approval';
import { refuseAboveDrawer, type UndoDeps } from './undo-cancel';
import type { UndoStore } from './undo-store';
import { priceBasket, type BasketSources } from './basket-intake';

export interface ExchangeDeps {
  db: Db;
  run: CheckoutRun;
  sales: Pick<ReturnType<typeof checkoutSales>, 'sell'>;
  undoStore: UndoStore;
  undo: UndoDeps;
  sink: JournalSink;
  basket: BasketSources;
  now: () => number;
  logger: Logger;
}

const refuse = (field: string, message: string) => validationError({ [field]: message }, message);

/** The seats of a sale still the customer's: its tickets, less those cancelled or being exchanged. */
function seatsLeft(
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
function creditGiven(store: ExchangeStore, orderId: number): { cardKobo: number; cashKobo: number } {
  let cardKobo = 0,
    cashKobo = 0;
  for (const x of store.from(orderId))
    if (x.state !== 'failed') {
      cardKobo += x.creditCardKobo;
      cashKobo += x.creditCashKobo;
    }
  return { cardKobo, cashKobo };
}

/** What a sale already owes back or passed on (its refunds, and the credit of its exchanges, this one's included once recorded). */
function leftToGive(d: ExchangeDeps, store: ExchangeStore, orderId: number): { cardKobo: number; cashKobo: number } {
  const owed = d.undoStore.owed(orderId);
  const given = creditGiven(store, orderId);
  return { cardKobo: owed.cardKobo + given.cardKobo, cashKobo: owed.cashKobo + given.cashKobo };
}

interface ExchangePlan {
  seats: string[];
  creditKobo: number;
  /** The credit spent on the new tickets, by the old sale's tenders, card first (what a cancel of the new sale gives back by). */
  creditTenders: { cardKobo: number; cashKobo: number };
  newTotalKobo: number;
  refundKobo: number;
  toPayKobo: number;
}

type ExchangeRequestParsed = ReturnType<typeof ExchangeRequestSchema.parse>;

/** The exchange judged against the sale as it is now; throws what the cashier must fix. */
function planExchange(
  d: ExchangeDeps,
  store: ExchangeStore,
  rec: OrderRecord,
  req: ExchangeRequestParsed,
): ExchangePlan {
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
  const money = exchangeMoney(credit.creditKobo, priced.amounts.totalKobo);
  // How the difference is paid, judged before any approval is asked (the new sale judges it again).
  const t = exchangeTender(money, req.tender);
  if (!t.ok) throw validationError({ [t.path]: t.message }, EXCHANGE_INVALID);
  if (t.tender.kind === 'card' && !req.sn)
    throw refuse('sn', 'Enter the terminal serial number (SN): the difference is paid on the terminal');
  // What the old sale has left to give back pays the credit, card first: the part spent on the new
  // tickets is recorded with the exchange (a cancel of the new sale gives it back by these tenders);
  // the rest is the refund owed, made when the exchange completes.
  const room = leftToGive(d, store, rec.id);
  let creditTenders: ExchangePlan['creditTenders'];
  let refund: { cardKobo: number; cashKobo: number };
  try {
    refundTenders(credit.creditKobo, soldBasketOf(rec).amounts, room);
    creditTenders = refundTenders(credit.creditKobo - money.refundKobo, soldBasketOf(rec).amounts, room);
    refund = refundTenders(money.refundKobo, soldBasketOf(rec).amounts, {
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

/**
 * Inside the transaction that made the exchange's new sale paid: the original's moved seats
 * cancelled as an exchange, with the refund owed of a cheaper show (card first). A savepoint: if it
 * cannot be done (never expected: the seats were kept from every other undo), the paid sale stands,
 * the exchange stays waiting and the log says so.
 */
function completeExchange(d: ExchangeDeps, store: ExchangeStore, x: ExchangeRow, sold: OrderRecord): void {
  const { run, undoStore } = d;
  const from = run.record(x.fromOrderId);
  const gone = new Set(undoStore.cancelledSeats(from.id));
  const clash = x.seats.filter((s) => gone.has(s));
  if (clash.length > 0) throw new Error(`seats ${clash.join(',')} of ${from.outOrderNo} already cancelled`);
  const split =
    x.refundKobo > 0 ? refundTenders(x.refundKobo, soldBasketOf(from).amounts, leftToGive(d, store, from.id)) : null;
  const refunds: { tender: 'card' | 'cash'; amountKobo: number }[] = [];
  if (split && split.cardKobo > 0) refunds.push({ tender: 'card', amountKobo: split.cardKobo });
  if (split && split.cashKobo > 0) refunds.push({ tender: 'cash', amountKobo: split.cashKobo });
  const at = d.now();
  const ids = undoStore.insert(
    {
      orderId: from.id,
      kind: 'exchange',
      at,
      reason: x.reason,
      note: x.note,
      approved: x.approved,
      cashier: x.cashier,
      shiftId: d.undo.shiftAt(at)?.id ?? null,
      demo: from.profile === 'demo',
      seats: x.seats,
      lines: [],
      amountKobo: x.refundKobo,
      exchangeOrderId: sold.id,
    },
    refunds,
  );
  const made = ids.map((id) => undoStore.get(id)!);
  d.sink.append(
    'order.cancelled',
    {
      reference: from.outOrderNo,
      kind: 'exchange',
      seats: x.seats,
      refunds: made.map((r) => ({ refundNo: r.refundNo, tender: r.tender, amountKobo: r.amountKobo })),
      reason: x.reason,
      ...(x.note ? { note: clipText(x.note, 200) } : {}),
      approvedBy: clipText(x.approved.by, 80),
      approvedHow: x.approved.how,
      exchangeTo: sold.outOrderNo,
    },
    at,
  );
  store.settle(sold.id, 'done', at);
}

/** The paid sales of a show with tickets still the customer's (a show cancelled by head office: refund or exchange each). */
function salesOfShow(
  d: ExchangeDeps,
  store: ExchangeStore,
  show: { filmName: string; showDate: string; showTime: string; showKey?: string | undefined },
) {
  const { run, undoStore } = d;
  const rows = d.db
    .prepare(
      `SELECT o.id FROM orders o LEFT JOIN order_seat_holds h ON h.order_id = o.id
       WHERE o.state = 'paid' AND o.tickets > 0 AND o.film_name = ? AND o.show_date = ? AND o.show_time = ?
         AND (? IS NULL OR h.show_key IS NULL OR h.show_key = ?)
       ORDER BY o.created_at, o.id`,
    )
    .all(show.filmName, show.showDate, show.showTime, show.showKey ?? null, show.showKey ?? null) as { id: number }[];
  const out: { order: OrderView; seats: string[] }[] = [];
  for (const { id } of rows) {
    const rec = run.record(id);
    const { all } = seatsLeft(rec, undoStore, store);
    if (all.length > 0) out.push({ order: run.view(rec), seats: all });
  }
  return out;
}

export function createExchanges(d: ExchangeDeps) {
  const { run, undoStore, logger } = d;
  const store = new ExchangeStore(d.db);
  /** Sales of exchanges completed inside a transaction: told once it commits (the new sale's own change). */
  const completed = new Set<number>();

  /** The journal's `moved`: an exchange's new sale final (in its transaction). Never throws. */
  function moved(after: OrderRecord): void {
    if (!isFinalState(after.state)) return;
    const x = store.of(after.id);
    if (!x || x.state !== 'waiting') return;
    if (after.state !== 'paid') {
      store.settle(after.id, 'failed', d.now());
      return;
    }
    try {
      d.db.transaction(() => completeExchange(d, store, x, after))();
      completed.add(after.id);
    } catch (err) {
      logger.error('an exchange whose new sale was paid could not cancel the old seats; it stays waiting', {
        orderId: after.id,
        fromOrderId: x.fromOrderId,
        error: String(err),
      });
    }
  }

  // Told after the commit: the original sale's view and the refunds list follow.
  run.events.on('order', (v) => {
    if (!completed.delete(v.id)) return;
    const x = store.of(v.id);
    if (!x) return;
    run.changed(run.journal.get(x.fromOrderId));
    run.events.emit('refunds', { orderId: x.fromOrderId });
  });

  /** The exchange call: checks, approval, then the new sale (held first); the sales as they are now. */
  async function exchange(input: ExchangeRequest): Promise<{ from: OrderView; to: OrderView; refunds: RefundView[] }> {
    const parsed = ExchangeRequestSchema.safeParse(input);
    if (!parsed.success) throw validationError(issueFields(parsed.error.issues), EXCHANGE_INVALID);
    const req = parsed.data;
    const rec = run.record(req.orderId);
    if (!d.undo.shiftAt(d.now()))
      throw new AppError('NO_SHIFT', 'Open a shift first: an exchange and its difference are counted in a shift.');
    const first = planExchange(d, store, rec, req);
    const approved = await approve(
      d.undo,
      logger,
      req.approval,
      {
        kind: 'exchange',
        reference: rec.outOrderNo,
        amountKobo: first.toPayKobo + first.refundKobo,
        cashier: req.cashier,
      },
      d.now,
    );
    // Again after the approval: nothing else may have moved these seats meanwhile. From here to the
    // new sale's record there is no wait, so no other exchange or cancel comes between.
    const p = planExchange(d, store, run.record(req.orderId), req);
    const basket: BasketSaleInput = {
      tickets: req.to,
      concessions: [],
      ...(req.tender ? { tender: req.tender } : { tender: { kind: 'cash', tenderedKobo: 0 } }),
      ...(req.sn ? { sn: req.sn } : {}),
    };
    const to = await d.sales.sell(basket, {
      exchange: { creditKobo: p.creditKobo },
      alongside: (id) =>
        store.insert({
          orderId: id,
          fromOrderId: rec.id,
          seats: p.seats,
          creditKobo: p.creditKobo,
          creditCardKobo: p.creditTenders.cardKobo,
          creditCashKobo: p.creditTenders.cashKobo,
          refundKobo: p.refundKobo,
          reason: req.reason,
          note: req.note,
          approved,
          cashier: req.cashier,
          createdAt: d.now(),
        }),
    });
    const x = store.of(to.id);
    logger.info('exchange', {
      fromOrderId: rec.id,
      outOrderNo: rec.outOrderNo,
      toOrderId: to.id,
      toOutOrderNo: to.outOrderNo,
      seats: p.seats.join(','),
      creditKobo: p.creditKobo,
      toPayKobo: p.toPayKobo,
      refundKobo: p.refundKobo,
      state: x?.state ?? 'none',
      approvedHow: approved.how,
      cashier: req.cashier,
    });
    if (to.state === 'failed' || x?.state === 'failed')
      throw new AppError(
        'CONFLICT',
        `The exchange was not made: ${to.reason ?? 'the new seats could not be held'}. Sale ${rec.outOrderNo} is unchanged.`,
        { orderId: rec.id, newOrderId: to.id },
      );
    const refunds = x?.state === 'done' ? undoStore.ofOrder(rec.id).filter((r) => r.exchangeOrderId === to.id) : [];
    return { from: run.view(run.record(rec.id)), to: run.view(run.record(to.id)), refunds };
  }

  /** A sale's exchange links: the sale it replaces (any state of this one), the sales its tickets moved to (done). */
  function links(orderId: number): Pick<SaleLinks, 'exchangedFrom' | 'exchangedTo'> {
    const ref = (id: number) => ({ orderId: id, outOrderNo: run.record(id).outOrderNo });
    const of = store.of(orderId);
    return {
      exchangedFrom: of ? ref(of.fromOrderId) : null,
      exchangedTo: store
        .from(orderId)
        .filter((x) => x.state === 'done')
        .map((x) => ref(x.orderId)),
    };
  }

  /** The seats of a sale in an exchange waiting for its difference: no other undo may take them meanwhile. */
  const waitingSeats = (orderId: number): ReadonlySet<string> =>
    new Set(
      store
        .from(orderId)
        .filter((x) => x.state === 'waiting')
        .flatMap((x) => x.seats),
    );

  /** The credit that part paid an exchange's new sale, by the old sale's tenders (null: not an exchange's, or not done). */
  const creditOf = (orderId: number) => {
    const x = store.of(orderId);
    return x?.state === 'done' ? { cardKobo: x.creditCardKobo, cashKobo: x.creditCashKobo } : null;
  };

  return {
    exchange,
    moved,
    links,
    creditOf,
    creditGiven: (orderId: number) => creditGiven(store, orderId),
    salesOfShow: (show: Parameters<typeof salesOfShow>[2]) => salesOfShow(d, store, show),
    waitingSeats,
  };
}

export type Exchanges = ReturnType<typeof createExchanges>;
