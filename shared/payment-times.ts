// When a payment happened, said one way on the receipt and on the order's detail. The provider's
// transactionTime is when its order was made (the sale's start); completedTime when it ended.
// "Paid at" is when the payment was taken (completedTime); an order nobody paid says when it ended,
// and "Card used at" only where a card was used (the provider names its account).
import type { OrderState } from './orders';

interface PaymentTimesInput {
  state: OrderState;
  transactionTime?: number | undefined;
  completedTime?: number | undefined;
  senderAccount?: string | undefined;
}

export function paymentTimes(p: PaymentTimesInput): [label: string, at: number][] {
  const out: [string, number][] = [];
  if (p.state === 'paid') {
    if (p.completedTime !== undefined) out.push(['Paid at', p.completedTime]);
    else if (p.transactionTime !== undefined) out.push(['Payment started', p.transactionTime]);
    return out;
  }
  if (p.senderAccount && p.transactionTime !== undefined) out.push(['Card used at', p.transactionTime]);
  if (p.completedTime !== undefined) out.push(['Ended at', p.completedTime]);
  return out;
}
