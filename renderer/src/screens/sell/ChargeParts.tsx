// What both ways of selling (a show from the programme, a show typed by hand) share: whether the
// charge can go now and what its button says, the banner of an order still open, the sale's total
// (tickets, and the booking fee per ticket) and the charge row under the form.
import type { ReactNode } from 'react';
import { bookingFeeText, isFinalState, ORDER_STATE_LABELS, type OrderView } from '../../../../shared/orders';
import { Banner } from '../../components/Banner';
import { formatNaira } from '../../format';

/** `totalKobo`: the sale's total, or null while it cannot be worked out yet. */
export function chargeState(sn: string | null, order: OrderView | null, totalKobo: number | null) {
  const openOrder = order && !isFinalState(order.state) ? order : null;
  // One terminal shows one payment at a time.
  const terminalBusy = openOrder && (openOrder.state === 'creating' || openOrder.state === 'waiting') ? openOrder : null;
  const disabledReason = !sn
    ? 'No terminal yet: choose the serial port or type the terminal SN in the Terminal box.'
    : terminalBusy
      ? `Order ${terminalBusy.outOrderNo} is still on the terminal (${ORDER_STATE_LABELS[terminalBusy.state].toLowerCase()}). Show it, or wait for it to end.`
      : null;
  const chargeLabel = `Charge ${totalKobo !== null ? formatNaira(totalKobo) : ''} ${sn ? `on terminal ${sn}` : '(no terminal yet)'}`.replace(/\s+/g, ' ');
  return { openOrder, terminalBusy, disabledReason, chargeLabel };
}

export function OpenOrderBanner({ order, onShow }: { order: OrderView; onShow(): void }) {
  return (
    <Banner as="div" className="open-order" tone="warn" role="status">
      <span>
        Order {order.outOrderNo} ({formatNaira(order.amountKobo)}): {ORDER_STATE_LABELS[order.state]}.
      </span>
      <button type="button" onClick={onShow}>
        Show payment
      </button>
    </Banner>
  );
}

/** The message of the last charge, the terminal's error, the Charge button (or why not) and the keys hint (children). */
export function ChargeRow(props: { message: string | null; snError: string | undefined; disabledReason: string | null; busy: boolean; chargeLabel: string; children: ReactNode }) {
  const { disabledReason } = props;
  return (
    <>
      {props.message && (
        <Banner tone="bad" role="alert">
          {props.message}
        </Banner>
      )}
      {props.snError && !disabledReason && (
        <p className="field-error" role="alert">
          {props.snError}
        </p>
      )}
      <div className="charge-row">
        <button type="submit" className="primary charge-button" disabled={!!disabledReason || props.busy} aria-describedby={disabledReason ? 'charge-reason' : undefined}>
          {props.busy ? 'Sending to the terminal…' : props.chargeLabel}
          <kbd aria-hidden="true">Enter</kbd>
        </button>
        {disabledReason && (
          <p id="charge-reason" className="charge-reason" role="status">
            {disabledReason}
          </p>
        )}
        <p className="hint keys-hint">{props.children}</p>
      </div>
    </>
  );
}

/** What the sale comes to: "2 tickets × ₦2,500.00 = ₦5,000.00 · booking fee 2 × ₦200.00 = ₦400.00", and the total. */
export function SaleTotal(props: { amounts: { tickets: number; ticketsKobo: number; bookingFeeKobo: number; totalKobo: number } | null; ticketName?: string; empty: string }) {
  const a = props.amounts;
  const fee = a && a.bookingFeeKobo > 0 ? bookingFeeText({ tickets: a.tickets, bookingFeeKobo: a.bookingFeeKobo }, formatNaira) : null;
  return (
    <div className="sale-total" data-testid="sale-total">
      <div className="sale-breakdown">
        {a ? (
          <>
            {a.tickets} {props.ticketName ? `${props.ticketName} ` : ''}ticket{a.tickets === 1 ? '' : 's'} × {formatNaira(a.ticketsKobo / a.tickets)} = {formatNaira(a.ticketsKobo)}
            {fee === null ? '' : ` · booking fee ${fee}${a.tickets > 1 && fee !== formatNaira(a.bookingFeeKobo) ? ` = ${formatNaira(a.bookingFeeKobo)}` : ''}`}
          </>
        ) : (
          props.empty
        )}
      </div>
      <div className="sale-total-line">
        <span>Total</span>
        <strong data-testid="total-amount">{a ? formatNaira(a.totalKobo) : '—'}</strong>
      </div>
    </div>
  );
}
