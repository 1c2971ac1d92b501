// Exchange tickets of a paid sale to another show or other seats, below every door (docs/refunds.md,
// "Exchange"). The rules (exchange-rules.ts): only a paid sale, during a shift; each moved seat one of
// the sale's own, not cancelled and not already being exchanged; as many new seats as moved ones; a
// supervisor's approval (undo-approval.ts). The money is shared/exchange.ts: the credit of the moved tickets pays the new
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
import { AppError, isAppError, issueFields, validationError } from '../../shared/errors';
import type { Logger } from '../../shared/logger';
import { formatNaira } from '../../shared/money';
import type { OrderView } from '../../shared/orders';
import {
  EXCHANGE_INVALID,
  ExchangePriceSchema,
  ExchangeRequestSchema,
  refundTenders,
  UNDO_REASON_LABELS,
  type ExchangeQuote,
  type ExchangeRequest,
  type RefundView,
  type SaleLinks,
} from '../../shared/refunds';
import type { Db } from '../db';
import { clipText, type JournalSink } from '../journal-sink';
import type { CheckoutRun } from './checkout-run';
import type { checkoutSales } from './checkout-sales';
import { ExchangeStore, type ExchangeRow } from './exchange-store';
import {
  quoteExchange,
  creditGiven,
  leftToGive,
  planExchange,
  seatsLeft,
  type ExchangeRuleDeps,
} from './exchange-rules';
import type { OrderRecord } from './order-journal';
import { isFinalState } from './order-state';
import { approve } from './undo-approval';

export interface ExchangeDeps extends ExchangeRuleDeps {
  db: Db;
  run: CheckoutRun;
  sales: Pick<ReturnType<typeof checkoutSales>, 'sell'>;
  sink: JournalSink;
  logger: Logger;
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
  const back = made.map(
    (r) =>
      `${r.refundNo} ${formatNaira(r.amountKobo)} ${r.tender === 'cash' ? 'paid back in cash' : 'owed to the card'}`,
  );
  run.journal.noteEvent(
    from.id,
    at,
    `Exchanged seat${x.seats.length === 1 ? '' : 's'} ${x.seats.join(', ')} to sale ${sold.outOrderNo} (${UNDO_REASON_LABELS[x.reason]})${back.length ? `: ${back.join('; ')}` : ''}. Approved: ${x.approved.by}`,
  );
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

/**
 * An exchange priced as the panel's cashier picks: the credit, the new tickets' total, what is paid
 * or owed back; nothing recorded, no approval asked (the exchange call judges all of it again).
 */
function priceExchange(d: ExchangeDeps, store: ExchangeStore, input: unknown): ExchangeQuote {
  const parsed = ExchangePriceSchema.safeParse(input);
  if (!parsed.success)
    return { ok: false, problems: parsed.error.issues.map((i) => ({ field: i.path.join('.'), message: i.message })) };
  try {
    const { money } = quoteExchange(d, store, d.run.record(parsed.data.orderId), parsed.data);
    const { creditKobo, newTotalKobo, toPayKobo, refundKobo } = money;
    return { ok: true, creditKobo, newTotalKobo, toPayKobo, refundKobo };
  } catch (e) {
    if (!isAppError(e)) throw e;
    const fields = (e.details as { fields?: Record<string, string> } | undefined)?.fields;
    return {
      ok: false,
      problems: fields
        ? Object.entries(fields).map(([field, message]) => ({ field, message }))
        : [{ field: '', message: e.message }],
    };
  }
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
    /** An exchange priced as the panel's cashier picks: nothing recorded, no approval asked. */
    price: (input: unknown) => priceExchange(d, store, input),
    moved,
    links,
    creditOf,
    creditGiven: (orderId: number) => creditGiven(store, orderId),
    salesOfShow: (show: Parameters<typeof salesOfShow>[2]) => salesOfShow(d, store, show),
    waitingSeats,
  };
}

export type Exchanges = ReturnType<typeof createExchanges>;
