// A sale's late word from the provider (docs/late-payments.md), in a manager's words: the pill on
// the Orders list and on one order's history, and its sentence.
import type { LateOnOrder, OrderRow } from '../../../../shared/hub-dashboard-contract';
import { formatNaira, lagosDayTime } from '../format';

/** The provider's late word on a sale, in a manager's words (docs/late-payments.md). */
export function lateText(
  l: LateOnOrder,
  soldKobo: number,
): { label: string; tone: 'bad' | 'warn' | 'info'; detail: string } {
  if (l.kind === 'paid-after-closing') {
    const handled = l.handled
      ? ` Handled on the counter by ${l.handled.by}, ${lagosDayTime(l.handled.at)}: ${l.handled.how === 'refund' ? 'customer gone, refund to be arranged' : 'tickets given'}.`
      : ' Not handled on the counter yet.';
    const refund = l.handled?.how === 'refund';
    return {
      label: refund ? 'Paid after closing · to refund' : 'Paid after closing',
      tone: l.handled ? 'info' : 'bad',
      detail: `${formatNaira(l.amountKobo)} was taken after the sale was closed (${lagosDayTime(l.at)}${l.payNo ? `, payment ${l.payNo}` : ''}).${handled}${refund ? ' Not in the card total.' : ''}`,
    };
  }
  const other =
    l.amountKobo !== soldKobo ? ` for ${formatNaira(l.amountKobo)}, not the ${formatNaira(soldKobo)} sold` : '';
  return {
    label: `Reported ${l.providerStatus} later`,
    tone: l.handled ? 'warn' : 'bad',
    detail: `Paid on the counter, then reported ${l.providerStatus}${other} by the provider (${lagosDayTime(l.at)}): check the payment in the provider's dashboard.${l.handled ? ` Seen on the counter by ${l.handled.by}, ${lagosDayTime(l.handled.at)}.` : ' Not seen on the counter yet.'}`,
  };
}

export function LatePill({ o }: { o: OrderRow }) {
  if (!o.late) return null;
  const t = lateText(o.late, o.amountKobo);
  return (
    <span className="pill late-pill" data-tone={t.tone} data-testid="order-late" title={t.detail}>
      {t.label}
    </span>
  );
}
