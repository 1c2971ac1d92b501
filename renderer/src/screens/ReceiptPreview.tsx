// A paid order as its receipt will read (times in Lagos). Printing arrives with the receipts work.
import { formatNaira } from '../../../shared/money';
import type { OrderView } from '../../../shared/orders';
import { formatLagosDateTime } from '../../../shared/time';
import { showDateText } from '../components/show-date';

export function ReceiptPreview({ order, counterName }: { order: OrderView; counterName: string }) {
  const s = order.sale;
  const paidAt = order.transactionTime ?? order.completedTime;
  const rows: [string, string][] = [
    ['Film', s.filmTitle === s.filmName ? s.filmTitle : `${s.filmTitle} (${s.filmName})`],
    ['Show', `${showDateText(s.showDate)}, ${s.showTime}`],
    ['Seats', s.seats.split(',').join(', ')],
    [`${s.tickets} ticket${s.tickets === 1 ? '' : 's'} × ${formatNaira(s.priceKobo)}`, formatNaira(s.tickets * s.priceKobo)],
    ['Booking fee', formatNaira(s.feeKobo)],
  ];
  const payment: [string, string | undefined][] = [
    ['Paid by', [order.senderName, order.senderAccount].filter(Boolean).join(' · ') || undefined],
    ['Payment no.', order.payNo],
    ['Provider order', order.orderNo],
    ['Our order', order.outOrderNo],
    ['Terminal', order.sn],
    ['Paid at', paidAt ? formatLagosDateTime(paidAt) : undefined],
  ];
  return (
    <section className="receipt" aria-labelledby="receipt-title">
      <h3 id="receipt-title" className="receipt-head">
        {counterName} <span>Cinema ticket receipt</span>
      </h3>
      <dl className="receipt-rows">
        {rows.map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
        <div className="receipt-total">
          <dt>Total paid</dt>
          <dd>{formatNaira(order.amountKobo)}</dd>
        </div>
        {payment
          .filter(([, v]) => v)
          .map(([k, v]) => (
            <div key={k} className="receipt-small">
              <dt>{k}</dt>
              <dd>{v}</dd>
            </div>
          ))}
      </dl>
      <p className="receipt-foot">Times are Lagos time (WAT).</p>
    </section>
  );
}
