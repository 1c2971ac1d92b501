// A day's or a shift's sales by category (tickets, booking fees, each concessions category) and by
// tender (card, cash, split), as the Hub summed them (hub/store/dashboard-sales.ts): shown, never added.
import type { OrderRow } from '../../../../shared/hub-dashboard-contract';
import type { SalesMix } from '../../../../shared/hub-sales-contract';
import { formatCount, formatNaira } from '../format';

const TENDER_WORD = { card: 'Card', cash: 'Cash', split: 'Split' } as const;

export function SalesMixView({ m, testId, compact }: { m: SalesMix; testId: string; compact?: boolean }) {
  const none = m.categories.length === 0;
  if (none && compact) return null;
  return (
    <div className="sales-mix" data-testid={testId} data-compact={compact || undefined}>
      <div className="table-wrap">
        <table className="sales-table" data-testid={`${testId}-categories`}>
          <caption>By category</caption>
          <thead>
            <tr>
              <th scope="col">Category</th>
              <th scope="col" className="num">
                Sold
              </th>
              <th scope="col" className="num">
                Amount
              </th>
            </tr>
          </thead>
          <tbody>
            {none ? (
              <tr>
                <td colSpan={3} className="hint">
                  Nothing sold yet.
                </td>
              </tr>
            ) : (
              m.categories.map((c) => (
                <tr key={`${c.kind}-${c.category}`} data-kind={c.kind} data-category={c.category}>
                  <th scope="row">{c.category}</th>
                  <td className="num" data-label="Sold">
                    {c.kind === 'fees' ? '' : formatCount(c.quantity)}
                  </td>
                  <td className="num" data-label="Amount">
                    {formatNaira(c.amountKobo)}
                  </td>
                </tr>
              ))
            )}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">All sales</th>
              <td />
              <td className="num strong" data-testid={`${testId}-total`}>
                {formatNaira(m.totalKobo)}
              </td>
            </tr>
          </tfoot>
        </table>
      </div>
      <div className="table-wrap">
        <table className="sales-table" data-testid={`${testId}-tenders`}>
          <caption>
            By tender <span className="hint">(split: part cash, part card)</span>
          </caption>
          <thead>
            <tr>
              <th scope="col">Tender</th>
              <th scope="col" className="num">
                Sales
              </th>
              <th scope="col" className="num">
                Cash
              </th>
              <th scope="col" className="num">
                Card
              </th>
            </tr>
          </thead>
          <tbody>
            {m.tenders.map((t) => (
              <tr key={t.tender} data-tender={t.tender}>
                <th scope="row">{TENDER_WORD[t.tender]}</th>
                <td className="num" data-label="Sales">
                  {formatCount(t.count)}
                </td>
                <td className="num" data-label="Cash">
                  {t.tender === 'card' ? '' : formatNaira(t.cashKobo)}
                </td>
                <td className="num" data-label="Card">
                  {t.tender === 'cash' ? '' : formatNaira(t.cardKobo)}
                </td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">Taken</th>
              <td />
              <td className="num strong" data-testid={`${testId}-cash`}>
                {formatNaira(m.cashKobo)}
              </td>
              <td className="num strong" data-testid={`${testId}-card`}>
                {formatNaira(m.cardKobo)}
              </td>
            </tr>
          </tfoot>
        </table>
      </div>
    </div>
  );
}

/** A sale's amount in a list: a card sale's as always; a cash or split sale's total, marked (its card part on hover). */
export function SaleAmount({ o }: { o: Pick<OrderRow, 'tender' | 'totalKobo' | 'amountKobo'> }) {
  if (o.tender === 'card') return <>{formatNaira(o.amountKobo)}</>;
  return (
    <span title={`Card part ${formatNaira(o.amountKobo)}`} data-tender={o.tender}>
      {formatNaira(o.totalKobo)} <span className="hint">{o.tender}</span>
    </span>
  );
}

/** An order's amount facts (its history): a card sale's amount; a cash or split sale's total and how it was paid. */
export function OrderAmountFacts({ o }: { o: Pick<OrderRow, 'tender' | 'totalKobo' | 'amountKobo' | 'cashPartKobo'> }) {
  if (o.tender === 'card')
    return (
      <div>
        <dt>Amount</dt>
        <dd>{formatNaira(o.amountKobo)}</dd>
      </div>
    );
  return (
    <>
      <div>
        <dt>Total</dt>
        <dd data-testid="order-total">{formatNaira(o.totalKobo)}</dd>
      </div>
      <div>
        <dt>Paid by</dt>
        <dd>
          {o.tender === 'cash' ? 'Cash' : 'Split'}: cash {formatNaira(o.cashPartKobo)}, card {formatNaira(o.amountKobo)}
        </dd>
      </div>
    </>
  );
}
