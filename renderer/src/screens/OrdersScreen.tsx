// Orders: today's sales and the ones queued for the network, live; open one for its details,
// its history and what can be done with it.
import { useEffect } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { formatNaira } from '../../../shared/money';
import type { OrderView } from '../../../shared/orders';
import { formatLagosTime } from '../../../shared/time';
import { OrderStatePill } from '../components/OrderStatePill';
import { useOrders } from '../stores/orders-store';
import { OrderDetail } from './OrderDetail';
import '../checkout.css';

export function OrdersScreen() {
  const o = useOrders(
    useShallow((s) => ({ today: s.today, queued: s.queued, loaded: s.loaded, loading: s.loading, loadError: s.loadError, openId: s.openId, load: s.load, open: s.open, close: s.close })),
  );

  useEffect(() => {
    void o.load();
  }, []); // eslint-disable-line react-hooks/exhaustive-deps

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && !e.defaultPrevented && useOrders.getState().openId !== null) {
        e.preventDefault();
        useOrders.getState().close();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const opened = o.openId !== null ? (o.today.find((x) => x.id === o.openId) ?? o.queued.find((x) => x.id === o.openId)) : undefined;
  const paid = o.today.filter((x) => x.state === 'paid');
  const paidTotal = paid.reduce((sum, x) => sum + x.amountKobo, 0);

  return (
    <section aria-labelledby="screen-title" className="screen checkout orders-screen">
      <div className="screen-head">
        <h1 id="screen-title" tabIndex={-1}>
          Orders
        </h1>
        {o.openId === null && (
          <button type="button" onClick={() => void o.load()} disabled={o.loading}>
            {o.loading ? 'Loading…' : 'Refresh'}
          </button>
        )}
      </div>
      {o.loadError && (
        <p className="banner" data-tone="bad" role="alert">
          Could not load the orders: {o.loadError}
        </p>
      )}

      {o.openId !== null ? (
        opened ? (
          <OrderDetail order={opened} />
        ) : (
          <p>Loading the order…</p>
        )
      ) : (
        <>
          {o.queued.length > 0 && (
            <div className="card">
              <h2>Waiting for the network ({o.queued.length})</h2>
              <p className="hint">These payments are saved and go to the terminal by themselves when the network is back. Do not charge them again.</p>
              <OrderTable orders={o.queued} onOpen={(id) => void o.open(id)} caption="Orders waiting for the network" />
            </div>
          )}
          <div className="card">
            <div className="orders-head">
              <h2>Today</h2>
              {o.loaded && (
                <p className="orders-summary" data-testid="orders-summary">
                  {o.today.length} order{o.today.length === 1 ? '' : 's'} · {paid.length} paid · {formatNaira(paidTotal)} taken
                </p>
              )}
            </div>
            {!o.loaded && !o.loadError ? (
              <p>Loading…</p>
            ) : o.today.length === 0 ? (
              <p className="placeholder">No sales yet today.</p>
            ) : (
              <OrderTable orders={o.today} onOpen={(id) => void o.open(id)} caption="Today's orders, newest first" />
            )}
          </div>
        </>
      )}
    </section>
  );
}

function OrderTable({ orders, onOpen, caption }: { orders: OrderView[]; onOpen: (id: number) => void; caption: string }) {
  return (
    <table className="orders-table">
      <caption className="sr-only">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Time</th>
          <th scope="col">Order number</th>
          <th scope="col">Film</th>
          <th scope="col">Seats</th>
          <th scope="col" className="num">
            Amount
          </th>
          <th scope="col">State</th>
        </tr>
      </thead>
      <tbody>
        {orders.map((x) => (
          <tr key={x.id} data-state={x.state} onClick={() => onOpen(x.id)}>
            <td className="num-time">{formatLagosTime(x.createdAt)}</td>
            <td>
              <button type="button" className="link-button" onClick={(e) => { e.stopPropagation(); onOpen(x.id); }} aria-label={`Open order ${x.outOrderNo}`}>
                {x.outOrderNo}
              </button>
            </td>
            <td>{x.sale.filmTitle}</td>
            <td>{x.sale.seats.split(',').join(', ')}</td>
            <td className="num">{formatNaira(x.amountKobo)}</td>
            <td>
              <OrderStatePill state={x.state} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
