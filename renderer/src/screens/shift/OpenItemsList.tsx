// Payments with no outcome yet, each with its sale number (or a top-up's reference), amount and why it waits.
import type { OpenItem } from '../../../../shared/records';
import { formatLagosTime, formatNaira } from '../../format';

export function OpenItemsList({ items }: { items: OpenItem[] }) {
  return (
    <table className="records-table open-items" data-testid="open-items">
      <caption className="sr-only">Payments with no outcome yet</caption>
      <thead>
        <tr>
          <th scope="col">Started</th>
          <th scope="col">Sale number / reference</th>
          <th scope="col" className="num">
            Amount
          </th>
          <th scope="col">Where it is</th>
        </tr>
      </thead>
      <tbody>
        {items.map((i) => (
          <tr key={`${i.kind}-${i.id}`}>
            <td className="num-time">{formatLagosTime(i.createdAt)}</td>
            <td className="order-no-text">
              {i.ref}
              {i.kind === 'topup' ? ' (top-up)' : ''}
            </td>
            <td className="num">{formatNaira(i.amountKobo)}</td>
            <td>
              <strong>{i.label}</strong>
              {i.reason ? <span className="hint"> · {i.reason}</span> : null}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
