// A paid order as its receipt will read (times in Lagos). Printing arrives with the receipts work.
import { formatNaira } from '../../../shared/money';
import type { OrderView } from '../../../shared/orders';
import { formatLagosDateTime } from '../../../shared/time';

function showDateText(date: string, time: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return `${date} ${time}`;
  // A calendar date, not an instant: format it at noon UTC so no zone can move the day.
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), 12));
  const day = new Intl.DateTimeFormat('en-NG', { weekday: 'short', day: '2-digit', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(d);
  return `${day}, ${time}`;
}

export function ReceiptPreview({ order, counterName }: { order: OrderView; counterName: string }) {
  const s = order.sale;
  const paidAt = order.transactionTime ?? order.completedTime;
  const rows: [string, string][] = [
    ['Film', s.filmTitle === s.filmName ? s.filmTitle : `${s.filmTitle} (${s.filmName})`],
    ['Show', showDateText(s.showDate, s.showTime)],
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
