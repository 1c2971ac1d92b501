// A show cancelled by head office: from any paid sale of it, the show's paid sales with tickets
// still valid (the engine's `refunds.salesOfShow`, oldest first), each to open and then cancel or
// exchange in turn. Read on request, and again after each cancel or exchange of the open sale.
import { useState } from 'react';
import type { OrderView } from '../../../../shared/orders';
import { Banner } from '../../components/Banner';
import { useOnChange } from '../../components/useOnChange';
import { formatLagosTime, formatNaira, showDateText } from '../../format';
import { errorText } from '../../stores/call-errors';
import { useOrders } from '../../stores/orders-store';
import { useRefunds } from '../../stores/refunds-store';
import { call } from '../../transport/bridge';

type Sales = { order: OrderView; seats: string[] }[];

export function ShowSales({ order }: { order: OrderView }) {
  const open = useOrders((s) => s.open);
  const changed = useRefunds((s) => s.refunds.length);
  const [shown, setShown] = useState(false);
  const [sales, setSales] = useState<Sales | null>(null);
  const [error, setError] = useState<string | null>(null);
  const s = order.sale;
  const read = async () => {
    try {
      const r = await call('refunds.salesOfShow', {
        filmName: s.filmName,
        showDate: s.showDate,
        showTime: s.showTime,
        ...(order.seatHold?.showKey ? { showKey: order.seatHold.showKey } : {}),
      });
      setSales(r.sales);
      setError(null);
    } catch (e) {
      setError(errorText(e));
    }
  };
  useOnChange(() => {
    if (shown) void read();
  }, [shown, order.id, changed]);
  if (s.tickets === 0) return null;

  if (!shown)
    return (
      <div className="actions">
        <button type="button" data-testid="show-sales-open" onClick={() => setShown(true)}>
          Show cancelled? Its paid sales…
        </button>
      </div>
    );
  return (
    <div className="show-sales" data-testid="show-sales">
      <h3>
        Paid sales of {s.filmTitle}, {showDateText(s.showDate)} {s.showTime}
      </h3>
      {error && (
        <Banner tone="bad" role="alert">
          {error}
        </Banner>
      )}
      {sales && sales.length === 0 && <p>No paid sale of this show has tickets left.</p>}
      {sales && sales.length > 0 && (
        <ul>
          {sales.map((x) => (
            <li key={x.order.id}>
              <button type="button" className="link-button" onClick={() => void open(x.order.id)}>
                {x.order.outOrderNo}
              </button>{' '}
              {formatLagosTime(x.order.createdAt)} · seats {x.seats.join(', ')} ·{' '}
              {formatNaira(x.order.basket ? x.order.basket.amounts.totalKobo : x.order.amountKobo)}
              {x.order.id === order.id ? ' (this sale)' : ''}
            </li>
          ))}
        </ul>
      )}
      <p className="hint">Open each sale, then Cancel tickets… (F8) to refund it or Exchange… (F9) to move it.</p>
    </div>
  );
}
