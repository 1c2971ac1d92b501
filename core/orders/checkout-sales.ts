// The checkout's doors for a sale (SaleDoors): sell (where every way into a sale ends, whoever
// asked), a queued sale cancelled, and Try again (a sale again for one the provider says was not paid).
import { AppError } from '../../shared/errors';
import { saleAmounts, type OrderView, type SaleInput } from '../../shared/orders';
import { REASONS } from './order-decisions';
import type { OrderJournal, OrderRecord } from './order-journal';
import { isFinalState } from './order-state';
import { counterCode, lagosDayCode } from './out-order-no';
import { checkSale, saleNotRecorded } from './sale-intake';
import { admitSale, canSendQueued, waitingForTerminal } from './charge-guard';
import { assertNotPaid, type ClosedCheckDeps, type RetryRule } from './closed-check';
import type { CheckoutDeps, CheckoutSettings, SellOptions } from './checkout-deps';
import type { CheckoutRun } from './checkout-run';
import type { CheckoutSeats } from './checkout-seats';
import type { ConnectivityMonitor } from './connectivity';
import type { OrderCalls } from './order-calls';
import type { QueueSender } from './queue-sender';
import type { PosClient } from '../provider';
import { basketInputOf, type BasketSaleInput } from '../../shared/basket-sale';
import { checkBasketSale, isBasketInput, priceBasket, type BasketIntake, type BasketSources } from './basket-intake';

export interface CheckoutSalesDeps {
  run: CheckoutRun;
  now: () => number;
  settings: () => CheckoutSettings;
  /** Asked before a sale is recorded only to refuse it at once when the provider is not set up. */
  getPos: () => PosClient;
  shiftOpen: CheckoutDeps['shiftOpen'];
  /** Which queued orders give way to the cashier's own sale (a box office's charges). */
  yields: (o: { id: number }) => boolean;
  /** Who keeps an order from Try again. */
  retryRule: RetryRule;
  seats: CheckoutSeats;
  /** Sends a sale that need not queue. */
  calls: Pick<OrderCalls, 'create'>;
  queueSender: Pick<QueueSender, 'kick'>;
  monitor: Pick<ConnectivityMonitor, 'kick'>;
  /** Try again asks the provider first (closed-check.ts). */
  closed: ClosedCheckDeps;
  /** Where a basket's prices come from. */
  basket: BasketSources;
}

export function checkoutSales(d: CheckoutSalesDeps) {
  const { run, now, getPos, seats, calls, queueSender, monitor, closed, yields, retryRule } = d;
  const { journal, logger, view, changed, track } = run;

  /** The journal write that must happen before anything is sent; if it fails, nothing is sent. */
  function recordSale(o: Parameters<OrderJournal['insert']>[0]): OrderRecord {
    try {
      return journal.insert(o);
    } catch (err) {
      logger.error('could not record a sale', { error: String(err) });
      throw saleNotRecorded(err);
    }
  }

  /** The door's rules: NO_SHIFT; TERMINAL_BUSY unless the sale may wait its turn (then the order in the way); a box office's queued charge never keeps the cashier's door busy. */
  const admit = (open: readonly OrderRecord[], sn: string, opts: SellOptions) =>
    admitSale({
      open,
      sn,
      besideWaiting: opts.besideWaiting,
      whenBusy: opts.whenBusy,
      shiftOpen: d.shiftOpen,
      yields,
    });

  /**
   * Selling: where every door ends, whoever asked (typed Sell, programme, box office, folder drop,
   * charge link, Try again), and the only way to the provider for a new sale: the sale checked (its amount is its own), a shift open, at most one unpaid
   * order per terminal (busy: refused, or queued for its turn). Records the sale, then sends it in
   * the background; resolves at once (queued or creating). `retryOf`: the sale Try again repeats.
   */
  async function sell(
    input: SaleInput | BasketSaleInput,
    opts: SellOptions = {},
    retryOf?: number,
  ): Promise<OrderView> {
    if (run.stopped) throw new AppError('NOT_READY', 'The checkout is shutting down; try again in a moment.');
    const s = d.settings();
    // A basket (it names its tender) is priced by the engine; today's sale of one ticket type is checked as it was.
    const credit = opts.exchange?.creditKobo;
    const basket: BasketIntake | null = isBasketInput(input) ? checkBasketSale(input, d.basket, s, credit) : null;
    const sale = basket ? basket.sale : checkSale(input, s);
    const cash = basket?.sold.tender.kind === 'cash';
    // A sale wholly in cash puts no order on any terminal: only the shift rule applies to it.
    const open = cash ? [] : journal.listOpenForSale(sale.sn);
    const busy = admit(open, sale.sn, opts);
    if (!cash) getPos(); // refuse now, with the client's own message, if the provider is not set up
    // The seat rules (the layout's, then this counter's own sales) before anything is recorded.
    const seatOpts = basket
      ? { ...opts, show: { showKey: basket.showKey ?? opts.show?.showKey }, seatTypes: basket.seatTypes }
      : opts;
    const plan =
      sale.tickets > 0 ? seats.plan(sale, retryOf === undefined ? seatOpts : { ...seatOpts, retryOf }) : null;
    const alongside = seats.alongside(plan, opts.alongside);
    const createdAt = now();
    // Sales wait their turn behind a busy terminal's order and older queued ones that could go; otherwise
    // each goes straight out (while offline that attempt doubles as the check whether the provider is back).
    // The cashier's own sale goes ahead of a box office's queued charges: it waits behind none of them.
    const cashier = opts.whenBusy !== 'queue';
    const queueAhead =
      !cash &&
      (busy !== null ||
        open.some((o) => o.state === 'queued' && !(cashier && yields(o)) && canSendQueued(open, o, undefined, yields)));
    const queued = busy
      ? waitingForTerminal(busy)
      : { note: 'Sale recorded; queued behind older sales', reason: REASONS.queued };
    const rec = recordSale({
      sale,
      amountKobo: basket ? basket.sold.amounts.cardKobo : saleAmounts(sale).amountKobo,
      ...(basket ? { basket: basket.sold } : {}),
      counterCode: counterCode(s.counterName),
      businessDay: lagosDayCode(createdAt),
      createdAt,
      expireSeconds: s.orderExpireSeconds,
      state: queueAhead ? 'queued' : 'creating',
      attempts: queueAhead || cash ? 0 : 1,
      headMerchantId: s.headMerchantId,
      merchantId: s.merchantId,
      profile: s.profile ?? 'unrecorded',
      ...(retryOf !== undefined ? { retryOf } : {}),
      ...(alongside ? { alongside } : {}),
      note: cash ? 'Cash sale recorded' : queueAhead ? queued.note : 'Sale recorded; sending the order to the terminal',
      ...(queueAhead ? { reason: queued.reason } : {}),
    });
    logger.info('sale recorded', {
      orderId: rec.id,
      outOrderNo: rec.outOrderNo,
      amountKobo: rec.amountKobo,
      state: rec.state,
      ...(basket ? { tender: basket.sold.tender.kind, totalKobo: basket.sold.amounts.totalKobo } : {}),
    });
    changed(rec);
    // Held (or not checked) before the provider is asked, or the cash taken; taken elsewhere: failed, never sent.
    // An exchange's new seats must be held where the Hub can be asked: never moved on an unchecked hold.
    const needHeld = opts.exchange !== undefined;
    if (plan && (await seats.hold(rec, plan, s.profile === 'demo' || s.profile === 'sandbox', needHeld)) === 'stop')
      return view(journal.get(rec.id) ?? rec);
    if (queueAhead) {
      queueSender.kick();
      monitor.kick();
    } else {
      // A cash sale is paid here (calls.create never sends one); a card part goes to the terminal.
      const sent = track(calls.create(rec.id));
      if (cash) await sent;
      else void sent;
    }
    return view(journal.get(rec.id) ?? rec);
  }

  return {
    sell: (sale: SaleInput | BasketSaleInput, opts: SellOptions = {}): Promise<OrderView> => sell(sale, opts),

    /** A basket priced as `sell` would price it (the programme's ticket types, the catalogue with stock left); nothing recorded. */
    priceBasket: (basket: unknown) => priceBasket(basket, d.basket),

    /**
     * Cancels a sale that never left the counter (still queued): it will not be sent. An order
     * already on the terminal cannot be withdrawn (the provider has no such call): CONFLICT.
     */
    cancelQueued(id: number, note: string): OrderView {
      const r = journal.transition(id, 'cancelled', note, { from: ['queued'], patch: { reason: note } });
      if (r.changed) {
        changed(r.record);
        return view(r.record!);
      }
      const rec = run.record(id);
      throw new AppError(
        'CONFLICT',
        isFinalState(rec.state)
          ? `This sale is already ${rec.state}.`
          : 'The payment is already on the terminal and cannot be withdrawn from here: the customer can cancel it on the terminal, or it expires by itself.',
        { id, state: rec.state },
      );
    },

    /** Try again: a new sale (new outOrderNo) with the same tickets, through the same door, for a failed, expired or cancelled one the provider says was not paid. */
    async retrySale(id: number): Promise<OrderView> {
      const rec = run.record(id);
      if (!['failed', 'expired', 'cancelled'].includes(rec.state)) {
        throw new AppError(
          'CONFLICT',
          `This sale is ${rec.state}: only a failed, expired or cancelled sale can be started again.`,
          { id, state: rec.state },
        );
      }
      if (rec.basket?.amounts.creditKobo !== undefined)
        throw new AppError(
          'CONFLICT',
          'This sale was the difference of an exchange: exchange again from the original sale.',
          {
            id,
          },
        );
      const why = retryRule(id);
      if (why) throw new AppError('CONFLICT', why, { id });
      admit(journal.listOpenForSale(rec.sn), rec.sn, {}); // no query when the door refuses anyway (sell asks again after it)
      await assertNotPaid(closed, rec);
      return sell(rec.basket ? basketInputOf({ sale: rec.sale, basket: rec.basket }) : rec.sale, {}, id);
    },
  };
}
