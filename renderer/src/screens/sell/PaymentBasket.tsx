// What the payment view says about a basket: its concession lines, how it was paid (the cash
// taken, the card part on the terminal) and the change, big; and for a split whose card part did
// not go through, exactly what to hand back (`handBackText`, the words of the shift report). Every
// figure is the recorded sale's (`soldBasketOf`).
import { soldBasketOf } from '../../../../shared/basket-sale';
import type { OrderView } from '../../../../shared/orders';
import { handBackText } from '../../../../shared/tender-lines';
import { Banner } from '../../components/Banner';
import { formatNaira } from '../../format';

const CARD_DID_NOT_GO = new Set(['failed', 'cancelled', 'expired']);

/** "1 × Popcorn combo (Fanta 50cl) · 2 × Water 75cl", or null when the sale has no concessions. */
export function concessionsText(order: OrderView): string | null {
  const lines = soldBasketOf(order).lines.flatMap((l) => (l.kind === 'tickets' ? [] : [l]));
  if (lines.length === 0) return null;
  return lines
    .map((l) => {
      const choices = l.chosen.filter((c) => c.choice).map((c) => c.name);
      return `${l.quantity} × ${l.name}${choices.length ? ` (${choices.join(', ')})` : ''}`;
    })
    .join(' · ');
}

/** The tender of a cash or split sale and its change; the hand-back of a split whose card failed. */
export function PaymentTender({ order }: { order: OrderView }) {
  if (!order.basket || order.basket.tender.kind === 'card') return null;
  const { tender, amounts } = order.basket;
  const handBack =
    tender.kind === 'split' && CARD_DID_NOT_GO.has(order.state)
      ? handBackText({
          ref: order.outOrderNo,
          amountKobo: amounts.cashKobo,
          outcome: order.state as 'failed' | 'cancelled' | 'expired',
        })
      : null;
  return (
    <>
      {handBack && (
        <Banner tone="bad" role="alert" data-testid="hand-back">
          {handBack}
        </Banner>
      )}
      <dl className="pay-facts pay-tender" data-testid="payment-tender">
        <div>
          <dt>{tender.kind === 'split' ? 'Cash part' : 'Cash tendered'}</dt>
          <dd>{formatNaira(tender.kind === 'split' ? amounts.cashKobo : amounts.tenderedKobo)}</dd>
        </div>
        {amounts.changeKobo > 0 && (
          <div className="pay-change">
            <dt>Change</dt>
            <dd data-testid="payment-change">{formatNaira(amounts.changeKobo)}</dd>
          </div>
        )}
      </dl>
    </>
  );
}
