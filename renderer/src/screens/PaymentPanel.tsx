// The payment view after Charge: the live state in big words, what to tell the customer, the time
// left, the amount and sale number to read out, and at the end the outcome with what to do next.
import { useEffect, useRef } from 'react';
import { useOnChange } from '../components/useOnChange';
import { useShallow } from 'zustand/react/shallow';
import {
  isFinalState,
  orderCustomerLine,
  orderStateLabel,
  waitsForTerminal,
  type OrderView,
} from '../../../shared/orders';
import { HANDLED_HOW_LABELS, lateOutcomeText } from '../../../shared/late-payments';
import { STATE_SYMBOL, STATE_TONE } from '../components/OrderStatePill';
import { useNow } from '../components/useNow';
import { useSale } from '../stores/sale-store';
import { ReceiptPanel } from './receipt/ReceiptPanel';
import { formatLagosTime, formatNaira, mmss, showDateText } from '../format';
import { Banner } from '../components/Banner';
import { lagosInstant } from '../../../shared/time';
import { seatList } from '../../../shared/seat-list';
import { seatsUncheckedLine } from '../../../shared/seats';
import { startedText } from '../stores/show-pick';
import { ChargeOrigin } from './sell/ChargeOrigin';
import { concessionsText, PaymentTender } from './sell/PaymentBasket';
import { closedStep, PAID_AFTER_CLOSING, paidAfterClosing } from './closed-order';
import { CheckWithProvider } from './CheckWithProvider';
import { LatePaid } from './LatePaid';
import '../sell-screen.css';

/** How often an open payment is re-read from main besides its events. */
const SAFETY_REREAD_MS = 3000;
/** A sale closed as not paid whose payment the provider took after all: never "we can start again". */
const PAID_AFTER_CLOSING_LINE = 'Your card was charged after all: the payment went through. Here are your tickets.';

function timerText(order: OrderView, now: number): { big: string; small: string } | null {
  if (order.state === 'creating' || order.state === 'waiting') {
    const left = order.expiresAt - now;
    return left > 0
      ? { big: mmss(left), small: 'left to pay' }
      : { big: '00:00', small: 'time is up: getting the final answer' };
  }
  if ((order.state === 'unknown' || order.state === 'queued') && order.nextActionAt) {
    const left = order.nextActionAt - now;
    return { big: mmss(left), small: order.state === 'queued' ? 'until the next try' : 'until the next check' };
  }
  return null;
}

export function PaymentPanel() {
  const s = useSale(
    useShallow((st) => ({
      order: st.order,
      retriedFrom: st.retriedFrom,
      actionBusy: st.actionBusy,
      actionMessage: st.actionMessage,
      refreshOrder: st.refreshOrder,
      retry: st.retry,
      checkNow: st.checkNow,
      newSale: st.newSale,
      closePayment: st.closePayment,
      customerLeft: st.customerLeft,
    })),
  );
  const panelRef = useRef<HTMLElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const primaryRef = useRef<HTMLButtonElement>(null);
  const order = s.order;
  const final = order ? isFinalState(order.state) : false;
  const now = useNow(!!order && !final);

  // A new order on the view: read its state first, and ask main for its latest view once.
  useOnChange(() => {
    if (!order) return;
    headingRef.current?.focus();
    void s.refreshOrder();
  }, [order?.id]);

  // Events are the fast path, but one can be lost (a stream reopened on a busy PC, a state change
  // that raced the charge's answer): while the payment is open, re-read it now and then, so the
  // panel never stays on a state main has left.
  useOnChange(() => {
    if (!order || final) return;
    const timer = setInterval(() => void s.refreshOrder(true), SAFETY_REREAD_MS);
    return () => clearInterval(timer);
  }, [order?.id, final]);

  // At the outcome, the next step is one Enter away (unless the cashier is busy elsewhere).
  useEffect(() => {
    if (!final) return;
    const active = document.activeElement as HTMLElement | null;
    const idle =
      !active ||
      active === document.body ||
      active === headingRef.current ||
      (active as HTMLButtonElement).disabled ||
      !!panelRef.current?.contains(active) ||
      !!active.closest('.demo-terminal');
    if (idle) primaryRef.current?.focus();
    // A Check with the provider's answer changes the main action (Try again once it said not paid);
    // the answer can come while the button is still busy (disabled: it cannot take the focus), so
    // the focus is placed again when the panel is no longer busy.
  }, [final, order?.id, order?.lastCheck?.at, s.actionBusy]);

  if (!order) return null;
  // A sale the provider paid after the counter closed it is a paid sale.
  const late = paidAfterClosing(order);
  const label = late ? PAID_AFTER_CLOSING : orderStateLabel(order);
  const tone = late ? STATE_TONE.paid : STATE_TONE[order.state];
  const timer = timerText(order, now);
  const sale = order.sale;
  const startedAtSale = startedText(lagosInstant(sale.showDate, sale.showTime), order.createdAt);
  // A closed unpaid sale: Check with the provider first, Try again only once it said not paid.
  const step = closedStep(order);
  // Sent to the provider while the Hub was unreachable: said on the panel, the order and the receipt.
  const uncheckedSeats = seatsUncheckedLine(order.seatHold);
  const tender = order.basket?.tender.kind ?? 'card';
  const concessions = concessionsText(order);

  return (
    <section ref={panelRef} className="payment" data-tone={tone} aria-labelledby="payment-title" data-testid="payment">
      <div className="status-head" data-tone={tone}>
        <span
          className="status-ring"
          aria-hidden="true"
          data-spin={order.state === 'waiting' || order.state === 'creating' ? 'true' : undefined}
        >
          {late ? STATE_SYMBOL.paid : STATE_SYMBOL[order.state]}
        </span>
        <div className="pay-status-text">
          <h2 id="payment-title" ref={headingRef} tabIndex={-1} data-testid="payment-state">
            {label}
          </h2>
          <p className="status-say">
            <span className="status-say-label">Tell the customer</span>
            <span data-testid="customer-line">
              “{order.late?.kind === 'paid-after-closing' ? PAID_AFTER_CLOSING_LINE : orderCustomerLine(order)}”
            </span>
          </p>
        </div>
        {timer && (
          <div className="pay-timer" data-testid="countdown">
            <span className="pay-timer-big">{timer.big}</span>
            <span className="pay-timer-small">{timer.small}</span>
          </div>
        )}
      </div>

      {order.reason && !late && (
        <p className="pay-reason" data-testid="payment-reason">
          <strong>{final ? 'Why: ' : 'Note: '}</strong>
          {order.reason}
        </p>
      )}
      {late && <LatePaid orderId={order.id} late={late} testId="payment-late" />}
      {order.late && !late && (
        <Banner tone={order.late.handled ? 'info' : 'bad'} role="alert" data-testid="payment-late">
          {lateOutcomeText(order.late)}
          {order.late.handled &&
            ` Handled: ${HANDLED_HOW_LABELS[order.late.handled.how]} (by ${order.late.handled.by}, ${formatLagosTime(order.late.handled.at)}).`}
        </Banner>
      )}
      {uncheckedSeats && (
        <Banner tone="warn" data-testid="payment-seats-unchecked">
          {uncheckedSeats}: another counter may have sold these seats too.
        </Banner>
      )}
      {waitsForTerminal(order) && (
        <Banner tone="warn" data-testid="waiting-for-terminal">
          Another payment is on this terminal. This one is saved and goes to the terminal by itself as soon as that one
          is paid, cancelled or expired. Do not charge it again.
        </Banner>
      )}
      {order.state === 'queued' && !waitsForTerminal(order) && (
        <Banner tone="warn">
          The network is down. This payment is saved and will be sent to the terminal by itself as soon as the network
          is back. Do not charge it again.
        </Banner>
      )}
      {order.state === 'unknown' && (
        <Banner tone="warn">
          We do not know yet whether the card was charged. Do not charge again: CounterPay keeps checking, or press
          Check now.
        </Banner>
      )}
      {(order.state === 'waiting' || order.state === 'creating') && (
        <p className="pay-cancel-hint" data-testid="cancel-hint">
          Customer changed their mind or walked away? Press <strong>Cancel on the terminal</strong>: the payment ends
          there. If you cannot, press <strong>Customer left</strong>: CounterPay keeps checking this payment and frees
          the screen for the next sale.
        </p>
      )}
      {s.retriedFrom && !final && <p className="hint">New try of sale {s.retriedFrom}, with a new sale number.</p>}

      <ChargeOrigin orderId={order.id} />
      <dl className="pay-facts">
        <div className="pay-fact-amount">
          <dt>{tender === 'split' ? 'Card part' : tender === 'cash' ? 'Paid in cash' : 'Amount'}</dt>
          <dd data-testid="payment-amount">
            {formatNaira(tender === 'cash' && order.basket ? order.basket.amounts.totalKobo : order.amountKobo)}
          </dd>
        </div>
        <div className="pay-fact-order">
          <dt>Sale number</dt>
          <dd data-testid="out-order-no">{order.outOrderNo}</dd>
        </div>
      </dl>
      <PaymentTender order={order} />
      {sale.tickets > 0 && (
        <p className="pay-sale">
          {sale.tickets} ticket{sale.tickets === 1 ? '' : 's'} · {sale.filmTitle} · seats{' '}
          {seatList(sale.seats).join(', ')} · {showDateText(sale.showDate)} {sale.showTime}
          {startedAtSale && (
            <span className="show-started" data-testid="sale-show-started">
              {startedAtSale} when sold
            </span>
          )}
        </p>
      )}
      {concessions && (
        <p className="pay-sale" data-testid="payment-concessions">
          {concessions}
        </p>
      )}
      <p className="pay-terminal">
        {order.sn ? (
          <>
            Terminal <strong data-testid="payment-sn">{order.sn}</strong> ·{' '}
          </>
        ) : (
          'Cash, no terminal · '
        )}
        started {formatLagosTime(order.createdAt)}
      </p>

      {step.kind !== 'none' && (
        <CheckWithProvider
          orderId={order.id}
          step={step}
          busy={s.actionBusy}
          onCheck={() => void s.checkNow()}
          onRetry={() => void s.retry()}
          primaryRef={primaryRef}
          retryHint="Try again sends the same tickets as a new payment with a new sale number."
        >
          <button type="button" onClick={s.newSale}>
            New sale
          </button>
        </CheckWithProvider>
      )}
      {(order.state === 'paid' || late || !final) && (
        <div className="actions pay-actions">
          {(order.state === 'paid' || late) && (
            // While a payment after closing is not settled with the customer, its buttons above come first.
            <button
              ref={late && !late.handled ? undefined : primaryRef}
              type="button"
              className={late && !late.handled ? undefined : 'primary'}
              onClick={s.newSale}
            >
              New sale
            </button>
          )}
          {(order.state === 'unknown' || order.state === 'waiting') && (
            <button
              type="button"
              className={order.state === 'unknown' ? 'primary' : undefined}
              disabled={s.actionBusy}
              onClick={() => void s.checkNow()}
            >
              {s.actionBusy ? 'Checking…' : 'Check now'}
            </button>
          )}
          {(order.state === 'waiting' || order.state === 'creating') && (
            <button type="button" onClick={s.customerLeft}>
              Customer left (keep checking)
            </button>
          )}
          {!final && (
            <button type="button" onClick={s.closePayment}>
              Hide (payment continues) <kbd aria-hidden="true">Esc</kbd>
            </button>
          )}
        </div>
      )}
      {s.actionMessage && (
        <Banner tone="bad" role="alert">
          {s.actionMessage}
        </Banner>
      )}

      {(order.state === 'paid' || late) && (
        <div className="pay-receipt">
          <h3>Receipt</h3>
          {/* A new key when the late payment arrives, and when its payment number does: the preview is read again. */}
          <ReceiptPanel
            key={`${order.id}:${late ? (late.payNo ?? 'late') : ''}`}
            orderId={order.id}
            autoPrint={!late}
          />
        </div>
      )}

      <div className="sr-only" aria-live="polite" aria-atomic="true">
        {final ? '' : `${label}. ${order.reason ?? ''}`}
      </div>
      <div className="sr-only" aria-live="assertive" aria-atomic="true">
        {final ? `${label}. ${late ? '' : (order.reason ?? '')}` : ''}
      </div>
    </section>
  );
}
