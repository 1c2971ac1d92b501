// What both ways of selling (a show from the programme, a show typed by hand) share: whether the
// charge can go now and what its button says, the blocks of orders still open (after a reload too),
// the sale's total (tickets, and the booking fee per ticket) and the charge row under the form.
import { useEffect, useRef, type ReactNode } from 'react';
import { bookingFeeText, ON_TERMINAL_STATES, orderStateLabel, type OrderView } from '../../../../shared/orders';
import { Banner } from '../../components/Banner';
import { formatNaira } from '../../format';
import { useSale } from '../../stores/sale-store';
import { useShift } from '../../stores/shift-store';
import { useChargeQueue } from '../../stores/charge-queue-store';

/** "₦13,700.00 COU1-251125-0017": how a waiting order is named to the cashier. */
function orderName(o: Pick<OrderView, 'amountKobo' | 'outOrderNo'>): string {
  return `${formatNaira(o.amountKobo)} ${o.outOrderNo}`;
}

/** No shift is open (false while the shift is still being read: main refuses then). A sale needs one to count in. */
export function useNoShift(): boolean {
  return useShift((s) => s.loaded && !s.current);
}

/**
 * `noShift`: see useNoShift; `open`: every unfinished order; `totalKobo`: the sale's total, or null while it cannot be worked
 * out yet; `what`: the tickets in words ("2 Adult"), named on the button.
 */
export function chargeState(
  sn: string | null,
  open: readonly OrderView[],
  totalKobo: number | null,
  noShift: boolean,
  what?: string,
) {
  // One terminal shows one payment at a time: an unpaid order on it blocks the next charge.
  const terminalBusy = sn
    ? (open.find((o) => ON_TERMINAL_STATES.has(o.state) && o.sn.toUpperCase() === sn.toUpperCase()) ?? null)
    : null;
  const disabledReason = noShift
    ? 'No shift open: open one under Shift (Alt+4) before charging, so this sale counts in its Z report.'
    : !sn
      ? 'No terminal yet: choose the serial port or type the terminal SN in the Terminal box.'
      : terminalBusy
        ? `${orderName(terminalBusy)} is still on the terminal: ask the customer to cancel it there, or wait.`
        : null;
  const amount = totalKobo !== null ? formatNaira(totalKobo) : '';
  const chargeLabel = `Charge ${amount} ${what ? `for ${what}` : ''}`.replace(/\s+/g, ' ').trim();
  return { terminalBusy, disabledReason, chargeLabel, chargeWhere: sn ? `on terminal ${sn}` : '(no terminal yet)' };
}

/**
 * Every unfinished order but the one on the payment view and the box offices' queued charges (listed
 * beside the terminal, ChargeQueue.tsx): its amount, sale number, state and a way back to it.
 */
export function StillOpenOrders() {
  const open = useSale((s) => s.open);
  const shown = useSale((s) => (s.paymentOpen ? s.order?.id : undefined));
  const showOrder = useSale((s) => s.showOrder);
  const queue = useChargeQueue((s) => s.queue);
  const list = open.filter((o) => o.id !== shown && !queue.some((q) => q.orderId === o.id));
  if (list.length === 0) return null;
  return (
    <div className="still-open" data-testid="still-open">
      {list.map((o) => (
        <Banner key={o.id} as="div" className="open-order" tone="warn" role="status">
          <span>
            <strong className="nowrap">{orderName(o)}</strong> · {orderStateLabel(o)}
            {ON_TERMINAL_STATES.has(o.state) && (
              <>
                {' · still on the terminal '}
                <span className="nowrap">{o.sn}</span>: if the customer left, press Cancel on the terminal
              </>
            )}
          </span>
          <button type="button" onClick={() => showOrder(o)}>
            Show payment
          </button>
        </Banner>
      ))}
    </div>
  );
}

/**
 * The Charge bar sticks to the bottom of the screen, and its height changes (a reason, a second
 * button): the screen's scroll padding follows it, so a box that takes the focus (or is scrolled to)
 * stops above the bar, never under it.
 */
function useChargeBarPadding() {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = ref.current;
    const scroller = el?.closest<HTMLElement>('.content');
    if (!el || !scroller) return;
    const fit = () => {
      scroller.style.scrollPaddingBottom = `${Math.ceil(el.getBoundingClientRect().height) + 16}px`;
    };
    fit();
    const watch = new ResizeObserver(fit);
    watch.observe(el);
    return () => {
      watch.disconnect();
      scroller.style.scrollPaddingBottom = '';
    };
  }, []);
  return ref;
}

/** The message of the last charge, the terminal's error, the total (in the bar), the Charge button (or why not) and the keys hint (children). */
export function ChargeRow(props: {
  message: string | null;
  snError: string | undefined;
  disabledReason: string | null;
  busy: boolean;
  chargeLabel: string;
  chargeWhere: string;
  /** The order blocking the terminal, and the deliberate way to charge beside it. */
  terminalBusy?: OrderView | null;
  onChargeBeside?: (outOrderNo: string) => void;
  children: ReactNode;
  /** The sale's total, kept in the bar so it stays in view while any box is typed in. */
  total?: ReactNode;
}) {
  const { disabledReason, terminalBusy } = props;
  const bar = useChargeBarPadding();
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
      <div className="charge-row" ref={bar}>
        {props.total}
        <button
          type="submit"
          className="primary charge-button"
          disabled={!!disabledReason || props.busy}
          aria-describedby={disabledReason ? 'charge-reason' : undefined}
        >
          {props.busy ? (
            'Sending to the terminal…'
          ) : (
            <>
              {props.chargeLabel} <span className="nowrap">{props.chargeWhere}</span>
            </>
          )}
          <kbd aria-hidden="true">Enter</kbd>
        </button>
        {disabledReason && (
          <p id="charge-reason" className="charge-reason" role="status">
            {disabledReason}
          </p>
        )}
        {terminalBusy && props.onChargeBeside && (
          <button
            type="button"
            className="charge-beside"
            disabled={props.busy}
            onClick={() => props.onChargeBeside?.(terminalBusy.outOrderNo)}
          >
            Charge anyway: <span className="nowrap">{orderName(terminalBusy)}</span> stays on the terminal
          </button>
        )}
        <p className="hint keys-hint">{props.children}</p>
      </div>
    </>
  );
}

/** What the sale comes to: "2 tickets × ₦2,500.00 = ₦5,000.00 · booking fee 2 × ₦200.00 = ₦400.00", and the total. */
export function SaleTotal(props: {
  amounts: { tickets: number; ticketsKobo: number; bookingFeeKobo: number; totalKobo: number } | null;
  ticketName?: string;
  empty: string;
}) {
  const a = props.amounts;
  const fee =
    a && a.bookingFeeKobo > 0
      ? bookingFeeText({ tickets: a.tickets, bookingFeeKobo: a.bookingFeeKobo }, formatNaira)
      : null;
  return (
    <div className="sale-total" data-testid="sale-total">
      <div className="sale-breakdown">
        {a ? (
          <>
            {a.tickets} {props.ticketName ? `${props.ticketName} ` : ''}ticket{a.tickets === 1 ? '' : 's'} ×{' '}
            {formatNaira(a.ticketsKobo / a.tickets)} = {formatNaira(a.ticketsKobo)}
            {fee === null
              ? ''
              : ` · booking fee ${fee}${a.tickets > 1 && fee !== formatNaira(a.bookingFeeKobo) ? ` = ${formatNaira(a.bookingFeeKobo)}` : ''}`}
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
