// The refund slip (shared/refund-slip.ts): built from one refund owed and the sale it came from, and
// the printed document. The amount goes back in large type with what the customer does with it:
// cash is in their hand now; card money is owed until the cinema returns it (quote the refund number).
import type { OrderView } from '../../../shared/orders';
import { formatNaira } from '../../../shared/money';
import { DEMO_RECEIPT_BANNER, isDemoRecord } from '../../../shared/record-profile';
import { RETURN_HOW_LABELS, UNDO_REASON_LABELS, type RefundView } from '../../../shared/refunds';
import type { RefundSlip } from '../../../shared/refund-slip';
import { formatLagosDateTime } from '../../../shared/time';
import type { Block, PrintDoc } from '../printing/print-doc';

interface RefundSlipInput {
  refund: RefundView;
  order: OrderView;
  exchangeOutOrderNo?: string | undefined;
  cinemaName: string;
  counterName: string;
  reprint: boolean;
}

export function buildRefundSlip(i: RefundSlipInput): RefundSlip {
  const x = i.refund;
  const s = i.order.sale;
  return {
    refundId: x.id,
    refundNo: x.refundNo,
    kind: x.kind,
    orderId: x.orderId,
    outOrderNo: x.outOrderNo,
    filmTitle: s.tickets > 0 ? s.filmTitle : '',
    show: s.tickets > 0 ? `${s.showDate} ${s.showTime}` : '',
    seats: x.seats,
    lines: x.lines,
    tender: x.tender,
    amountKobo: x.amountKobo,
    reason: UNDO_REASON_LABELS[x.reason],
    note: x.note,
    approvedBy: x.approved.by,
    cashier: x.cashier,
    at: x.at,
    returned: x.returned,
    ...(i.exchangeOutOrderNo ? { exchangeOutOrderNo: i.exchangeOutOrderNo } : {}),
    cinemaName: i.cinemaName,
    counterName: i.counterName,
    demo: x.demo || isDemoRecord(i.order.profile),
    reprint: i.reprint,
  };
}

export function refundSlipDoc(s: RefundSlip): PrintDoc {
  const b: Block[] = [];
  if (s.demo) b.push({ t: 'banner', text: DEMO_RECEIPT_BANNER });
  b.push({ t: 'title', text: s.cinemaName });
  if (s.reprint) b.push({ t: 'mark', text: 'REPRINT' });
  b.push(
    { t: 'center', text: s.kind === 'exchange' ? 'REFUND SLIP (EXCHANGE)' : 'REFUND SLIP', bold: true },
    { t: 'big', text: `No. ${s.refundNo}`, center: true },
    { t: 'rule' },
    { t: 'pair', label: 'Of sale no.', value: s.outOrderNo, bold: true },
  );
  if (s.exchangeOutOrderNo) b.push({ t: 'pair', label: 'Exchanged to sale no.', value: s.exchangeOutOrderNo });
  if (s.filmTitle)
    b.push({ t: 'pair', label: 'Film', value: s.filmTitle }, { t: 'pair', label: 'Show', value: s.show });
  if (s.seats.length > 0)
    b.push({ t: 'pair', label: s.kind === 'exchange' ? 'Seats moved' : 'Seats cancelled', value: s.seats.join(', ') });
  for (const l of s.lines) b.push({ t: 'pair', label: `${l.quantity} × ${l.name}`, value: formatNaira(l.amountKobo) });
  b.push(
    { t: 'rule', double: true },
    {
      t: 'total',
      label: s.tender === 'cash' ? 'REFUNDED IN CASH' : 'REFUND TO THE CARD',
      value: formatNaira(s.amountKobo),
    },
  );
  if (s.tender === 'cash') b.push({ t: 'pair', label: 'Paid', value: 'Cash handed back at the counter', bold: true });
  else if (s.returned)
    b.push(
      { t: 'pair', label: 'Returned', value: RETURN_HOW_LABELS[s.returned.how], bold: true },
      { t: 'pair', label: 'Reference', value: s.returned.reference },
      { t: 'pair', label: 'On', value: formatLagosDateTime(s.returned.at) },
    );
  else
    b.push(
      { t: 'mark', text: 'OWED: NOT YET RETURNED' },
      { t: 'small', text: `The cinema owes this amount to your card. Quote ${s.refundNo} and sale ${s.outOrderNo}.` },
    );
  b.push(
    { t: 'rule' },
    { t: 'pair', label: 'Reason', value: s.note ? `${s.reason} (${s.note})` : s.reason },
    { t: 'pair', label: 'Approved by', value: s.approvedBy },
    { t: 'pair', label: 'Cashier', value: s.cashier },
    { t: 'pair', label: 'Counter', value: s.counterName },
    { t: 'pair', label: 'At', value: formatLagosDateTime(s.at) },
    { t: 'small', text: 'Times are Lagos time (WAT).' },
  );
  if (s.demo) b.push({ t: 'banner', text: DEMO_RECEIPT_BANNER });
  return {
    title: `${s.reprint ? 'Reprint of refund slip' : 'Refund slip'} ${s.refundNo} (${s.outOrderNo})`,
    blocks: b,
  };
}
