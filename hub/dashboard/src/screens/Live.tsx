// Live: payments as they happen on every counter in view (server-sent events from the Hub), newest
// first, each with its state pill as the counter app shows it. An order that changes moves to the top.
import { SaleAmount } from '../components/SalesMix';
import { useBranchLabel } from '../branch-names';
import { useEffect, useState } from 'react';
import { OrdersPageSchema, type OrderRow } from '../../../../shared/hub-dashboard-contract';
import { lagosDate } from '../../../../shared/time';
import { api, errorText } from '../api';
import { Banner, Link, ScreenTitle, StatePill } from '../components/bits';
import { lagosTimeSeconds } from '../format';
import { branchQuery, useDash, type LiveStatus } from '../store';

const STATUS_TEXT: Record<LiveStatus, string> = {
  connecting: 'Connecting…',
  live: 'Live: payments appear as they happen',
  reconnecting: 'Connection lost: reconnecting by itself…',
  paused: 'Paused in this tab',
  off: 'Not connected',
};

export function LiveScreen() {
  const label = useBranchLabel();
  const live = useDash((s) => s.live);
  const session = useDash((s) => s.session);
  const route = useDash((s) => s.route);
  const [earlier, setEarlier] = useState<OrderRow[]>([]);
  const [error, setError] = useState<string | null>(null);
  const q = branchQuery(
    { session, route },
    { from: lagosDate(Date.now()), to: lagosDate(Date.now()), practice: 'include', limit: '20' },
  );
  const key = q.toString();
  useEffect(() => {
    api.get('/orders', OrdersPageSchema, new URLSearchParams(key)).then(
      (p) => setEarlier(p.orders),
      (e) => setError(errorText(e)),
    );
  }, [key]);
  const liveIds = new Set(live.items.map((i) => i.id));
  const rows: (OrderRow & { fresh: boolean })[] = [
    ...live.items.map((i) => ({ ...i, fresh: true })),
    ...earlier.filter((o) => !liveIds.has(o.id)).map((o) => ({ ...o, fresh: false })),
  ];

  return (
    <section className="screen" aria-labelledby="screen-title">
      <ScreenTitle
        aside={
          <span className="pill" data-tone={live.status === 'live' ? 'good' : 'warn'} data-testid="live-status">
            {STATUS_TEXT[live.status]}
          </span>
        }
      >
        <span id="screen-title">Live</span>
      </ScreenTitle>
      {error ? <Banner tone="bad">{error}</Banner> : null}
      {rows.length === 0 ? (
        <p className="hint">No payments yet today. They appear here as counters sell.</p>
      ) : (
        <ol className="live-list" aria-live="polite" aria-relevant="additions" data-testid="live-list">
          {rows.map((o) => (
            <li
              key={o.id}
              className="live-item"
              data-fresh={o.fresh || undefined}
              data-reference={o.reference}
              data-state={o.state}
            >
              <span className="live-time">{lagosTimeSeconds(o.updatedAt)}</span>
              <span className="live-where">
                <strong>{o.counterName}</strong> · {o.cashier ?? 'no cashier'}
                {session?.manager.role === 'head-office' ? ` · ${label(o.branch)}` : ''}
              </span>
              <span className="live-what">
                {o.filmTitle ?? o.filmName ?? 'Payment'}
                {o.seats ? ` · ${o.seats}` : ''}
              </span>
              <span className="live-amount num">
                <SaleAmount o={o} />
              </span>
              <StatePill state={o.state} practice={o.practice} profile={o.profile} />
              <Link to={`/dashboard/orders/${o.id}`} className="live-open" aria-label={`History of ${o.reference}`}>
                History
              </Link>
            </li>
          ))}
        </ol>
      )}
      <p className="hint">
        Times are the counter's clock, in Lagos time. Entries marked Demo or Sandbox are practice sales (no real money).
      </p>
    </section>
  );
}
