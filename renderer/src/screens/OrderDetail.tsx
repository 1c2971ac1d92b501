// One order opened from the Orders screen: every fact about it, why it waits (when it does), its
// history, the actions that apply (Check now / Try now while the outcome is open, Try again after
// it failed, the payment view on Sell), cancel / exchange / refunds of a paid sale (orders/AfterSale),
// and its receipt to print or reprint.
import { useEffect, useRef } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { bookingFeeText, isFinalState, ORDER_STATE_LABELS, type OrderView } from '../../../shared/orders';
import { basketFacts } from './orders/basket-facts';
import { PROFILE_LABELS } from '../../../shared/settings';
import { HANDLED_HOW_LABELS, lateOutcomeText } from '../../../shared/late-payments';
import { paymentTimes } from '../../../shared/payment-times';
import { seatList } from '../../../shared/seat-list';
import { seatHoldText, seatsUncheckedLine } from '../../../shared/seats';
import { DeliveryCheck } from '../components/DeliveryCheck';
import { OrderStatePill } from '../components/OrderStatePill';
import { useNow } from '../components/useNow';
import { useApp } from '../stores/app-store';
import { useOrders } from '../stores/orders-store';
import { useRefunds } from '../stores/refunds-store';
import { useSale } from '../stores/sale-store';
import { call } from '../transport/bridge';
import { ReceiptPanel } from './receipt/ReceiptPanel';
import { formatLagosDateTime, formatLagosTime, formatNaira, mmss, showDateText } from '../format';
import { Banner } from '../components/Banner';
import { closedStep, paidAfterClosing } from './closed-order';
import { CheckWithProvider } from './CheckWithProvider';
import { LatePaid, PaidAfterClosingPill } from './LatePaid';
import { AfterSale } from './orders/AfterSale';

export function OrderDetail({ order }: { order: OrderView }) {
  const o = useOrders(
    useShallow((s) => ({
      history: s.history,
      historyError: s.historyError,
      actionBusy: s.actionBusy,
      actionMessage: s.actionMessage,
      rows: s.rows,
      close: s.close,
      retry: s.retry,
      checkNow: s.checkNow,
    })),
  );
  const go = useApp((a) => a.go);
  const undoCount = useRefunds((s) =>
    s.orderId === order.id ? `${s.refunds.length}:${s.links?.cancelledSeats.length ?? 0}` : '',
  );
  const showOrder = useSale((s) => s.showOrder);
  const headingRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    headingRef.current?.focus();
  }, [order.id]);

  const final = isFinalState(order.state);
  const now = useNow(!final && order.nextActionAt !== undefined);
  // A sale the provider paid after the counter closed it is a paid sale, never charged again; a
  // closed unpaid one is checked with the provider before Try again is offered.
  const late = paidAfterClosing(order);
  const step = closedStep(order);
  const unchecked = seatsUncheckedLine(order.seatHold);
  const s = order.sale;
  const retryOf =
    order.retryOf !== undefined
      ? (o.rows.find((x) => x.id === order.retryOf)?.outOrderNo ?? `#${order.retryOf}`)
      : undefined;

  const toPayment = (view: OrderView) => {
    showOrder(view);
    go('sell');
  };

  const film: [string, string | undefined][] =
    s.tickets > 0
      ? [
          ['Film', s.filmTitle === s.filmName ? s.filmTitle : `${s.filmTitle} (${s.filmName})`],
          ['Show', `${showDateText(s.showDate)} ${s.showTime}`],
          ['Seats', seatList(s.seats).join(', ')],
          ['Seat hold', seatHoldText(order.seatHold)],
        ]
      : [];
  const facts: [string, string | undefined][] = [
    ...(order.basket
      ? [...basketFacts(order.basket), ...film]
      : ([
          ['Amount', formatNaira(order.amountKobo)],
          ...film,
          ['Tickets', `${s.tickets} × ${formatNaira(s.priceKobo)}`],
          [
            'Booking fee',
            s.bookingFeeKobo > 0 && bookingFeeText(s, formatNaira) !== formatNaira(s.bookingFeeKobo)
              ? `${formatNaira(s.bookingFeeKobo)} (${bookingFeeText(s, formatNaira)})`
              : formatNaira(s.bookingFeeKobo),
          ],
        ] as [string, string | undefined][])),
    ['Terminal', order.sn || undefined],
    ['Profile', order.profile && order.profile !== 'unrecorded' ? PROFILE_LABELS[order.profile] : undefined],
    ['Started', formatLagosDateTime(order.createdAt)],
    [final ? 'Payment time limit was' : 'Payment time limit', formatLagosDateTime(order.expiresAt)],
    ['Provider order number', order.orderNo],
    // Paid after closing: the late payment's facts (LatePaid, above), never the closed order's own card time or provider word.
    ...(late
      ? []
      : ([
          ['Payment number', order.payNo],
          [
            order.state === 'paid' ? 'Paid by' : 'Card holder',
            [order.senderName, order.senderAccount].filter(Boolean).join(' · ') || undefined,
          ],
          ...paymentTimes(order).map(([label, at]): [string, string] => [label, formatLagosDateTime(at)]),
          ['Provider status', order.providerStatus],
        ] as [string, string | undefined][])),
    ['Sent to the provider', `${order.attempts} time${order.attempts === 1 ? '' : 's'}`],
    ['New try of', retryOf],
  ];

  return (
    <div className="order-detail">
      <div className="actions">
        <button type="button" onClick={o.close}>
          ← All orders <kbd aria-hidden="true">Esc</kbd>
        </button>
      </div>
      <div className="card">
        <div className="order-detail-head">
          <h2 ref={headingRef} tabIndex={-1} data-testid="order-detail-title">
            Order <span className="order-no-text">{order.outOrderNo}</span>
          </h2>
          <OrderStatePill state={order.state} />
          {late && <PaidAfterClosingPill />}
        </div>
        {order.profile === 'demo' && (
          <Banner tone="warn" data-testid="order-demo">
            Demo sale: play money, not a payment. It is not counted in a real shift.
          </Banner>
        )}
        {order.reason && (
          <p className="pay-reason" data-testid="order-reason">
            <strong>
              {late
                ? 'Why it closed on the counter: '
                : final
                  ? 'Why: '
                  : order.state === 'queued'
                    ? 'Why it waits: '
                    : 'Note: '}
            </strong>
            {order.reason}
          </p>
        )}
        {unchecked && (
          <Banner tone="warn" data-testid="order-seats-unchecked">
            {unchecked}: another counter may have sold these seats too.
          </Banner>
        )}
        {late && <LatePaid orderId={order.id} late={late} testId="order-late" />}
        {order.late && !late && (
          <Banner tone={order.late.handled ? 'info' : 'bad'} role="alert" data-testid="order-late">
            {lateOutcomeText(order.late)}
            {order.late.handled &&
              ` Handled: ${HANDLED_HOW_LABELS[order.late.handled.how]} (by ${order.late.handled.by}, ${formatLagosTime(order.late.handled.at)}).`}
          </Banner>
        )}
        {!final && order.nextActionAt !== undefined && (
          <p className="hint" data-testid="next-action">
            {order.state === 'queued' ? 'Next try to send it' : 'Next check with the provider'} at{' '}
            {formatLagosDateTime(order.nextActionAt)} (in {mmss(order.nextActionAt - now)}).
          </p>
        )}
        <dl className="detail-facts">
          {facts
            .filter(([, v]) => v !== undefined && v !== '')
            .map(([k, v]) => (
              <div key={k}>
                <dt>{k}</dt>
                <dd>{v}</dd>
              </div>
            ))}
        </dl>
        <div className="actions">
          {(order.state === 'unknown' || order.state === 'waiting') && (
            <button type="button" className="primary" disabled={o.actionBusy} onClick={() => void o.checkNow(order.id)}>
              {o.actionBusy ? 'Checking…' : 'Check now'}
            </button>
          )}
          {order.state === 'queued' && (
            <button type="button" className="primary" disabled={o.actionBusy} onClick={() => void o.checkNow(order.id)}>
              {o.actionBusy ? 'Trying…' : 'Try to send it now'}
            </button>
          )}
          {!final && (
            <button type="button" onClick={() => toPayment(order)}>
              Show the payment screen
            </button>
          )}
        </div>
        {step.kind !== 'none' && (
          <CheckWithProvider
            orderId={order.id}
            step={step}
            busy={o.actionBusy}
            onCheck={() => void o.checkNow(order.id)}
            onRetry={async () => {
              const view = await o.retry(order.id);
              if (view) toPayment(view);
            }}
            retryHint="Try again sends the same tickets as a new payment with a new sale number, and opens it on the Sell screen."
          />
        )}
        {o.actionMessage && (
          <Banner tone="bad" role="alert">
            {o.actionMessage}
          </Banner>
        )}
      </div>

      {order.state === 'paid' && <AfterSale order={order} />}

      {(order.state === 'paid' || late) && (
        <div className="card" role="region" aria-labelledby="receipt-title">
          <h2 id="receipt-title">Receipt</h2>
          {/* A new key when the late payment arrives, and when its payment number does: the preview is read again. */}
          {/* …and after each cancel or exchange: the receipt then names the seats no longer valid and the sales around it. */}
          <ReceiptPanel key={`${order.id}:${late ? (late.payNo ?? 'late') : ''}:${undoCount}`} orderId={order.id} />
        </div>
      )}
      {final && order.state !== 'paid' && !late && (
        <details className="card">
          <summary>Payment slip (marked NOT PAID, for the customer’s records)</summary>
          <ReceiptPanel orderId={order.id} />
        </details>
      )}

      {order.orderNo && (
        <div className="card" role="region" aria-labelledby="delivery-title">
          <h2 id="delivery-title">Provider’s webhook delivery</h2>
          <p className="hint">
            Asks the provider whether its payment notification for this order reached this counter’s webhook receiver.
          </p>
          <DeliveryCheck
            key={order.id}
            testId="order-delivery"
            label="Check webhook delivery"
            ask={() => call('delivery.check', { orderId: order.id })}
          />
        </div>
      )}

      <div className="card">
        <h2>History</h2>
        {o.historyError && (
          <p className="field-error" role="alert">
            {o.historyError}
          </p>
        )}
        {!o.history ? (
          !o.historyError && <p>Loading…</p>
        ) : (
          <ol className="history" data-testid="order-history">
            {o.history.map((ev, i) => (
              <li key={`${ev.at}-${i}`}>
                <span className="history-time">{formatLagosDateTime(ev.at)}</span>
                <span className="history-move">
                  {ev.from ? `${ORDER_STATE_LABELS[ev.from]} → ` : ''}
                  <strong>{ORDER_STATE_LABELS[ev.to]}</strong>
                </span>
                {ev.note && <span className="history-note">{ev.note}</span>}
              </li>
            ))}
          </ol>
        )}
      </div>
    </div>
  );
}
