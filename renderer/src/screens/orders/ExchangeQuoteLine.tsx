// The Exchange panel's price, as the cashier picks the tickets and the new seats: the engine's quote
// (`refunds.priceExchange`: the credit of the moved tickets, the new tickets' total, and what the
// customer pays or is owed back). A screen adds up no money: every figure here is the engine's.
import { useEffect, useState } from 'react';
import type { ExchangeQuote, ExchangeRequest } from '../../../../shared/refunds';
import { formatNaira } from '../../format';
import { call } from '../../transport/bridge';

type QuoteArgs = Pick<ExchangeRequest, 'orderId' | 'seats' | 'to'>;

/** The engine's quote for these arguments, the latest asked winning; null until one is known. */
export function useExchangeQuote(args: QuoteArgs, ready: boolean): ExchangeQuote | null {
  const [quote, setQuote] = useState<ExchangeQuote | null>(null);
  const key = JSON.stringify(args);
  useEffect(() => {
    if (!ready) {
      setQuote(null);
      return;
    }
    let live = true;
    call('refunds.priceExchange', JSON.parse(key) as QuoteArgs).then(
      (q) => live && setQuote(q),
      () => live && setQuote(null),
    );
    return () => {
      live = false;
    };
  }, [key, ready]);
  return quote;
}

/** What the customer pays or is owed back, in words (null until the engine has priced it). */
export function quoteDue(q: ExchangeQuote | null): string | null {
  if (!q?.ok) return null;
  if (q.toPayKobo > 0) return `To pay ${formatNaira(q.toPayKobo)}`;
  if (q.refundKobo > 0) return `Owed back ${formatNaira(q.refundKobo)}`;
  return 'Nothing to pay';
}

export function ExchangeQuoteLine({ q, ready, count }: { q: ExchangeQuote | null; ready: boolean; count: number }) {
  if (!ready || !q)
    return (
      <p className="hint" data-testid="exchange-quote">
        Choose the new show and {count} new seat{count === 1 ? '' : 's'}: the difference shows here.
      </p>
    );
  if (!q.ok)
    return (
      <p className="hint" data-testid="exchange-quote">
        {q.problems[0]?.message ?? 'Check the exchange'}
      </p>
    );
  return (
    <p className="exchange-quote" data-testid="exchange-quote" aria-live="polite">
      Credit {formatNaira(q.creditKobo)} · New tickets {formatNaira(q.newTotalKobo)} ·{' '}
      <strong data-testid="exchange-quote-due">{quoteDue(q)}</strong>
    </p>
  );
}
