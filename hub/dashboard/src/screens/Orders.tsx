// Orders: search every counter's orders in view by any filter the Hub knows, 50 to a page
// (OrderFilters.tsx is the form); one order's full history as the counter recorded it
// (OrderHistory.tsx); the CSV of a date range.
import { SaleAmount } from '../components/SalesMix';
import { useState } from 'react';
import { parseNaira } from '../../../../shared/money';
import { CountersViewSchema, OrdersPageSchema, type OrderRow } from '../../../../shared/hub-dashboard-contract';
import { lagosDate } from '../../../../shared/time';
import { api, apiUrl } from '../api';
import { Banner, Link, Loading, ScreenTitle, StatePill } from '../components/bits';
import { DayField } from '../components/DayField';
import { LatePill } from '../components/LatePill';
import { formOfQuery, lagosDayTime, ordersQuery, type OrderFilterForm } from '../format';
import { useBranchLabel } from '../branch-names';
import { branchQuery, useDash } from '../store';
import { useLoad } from '../use-load';
import { Filters } from './OrderFilters';
import { OrderHistory } from './OrderHistory';

/** The search's API query from the URL: the filters, with the branch only as the session allows. */
function searchQuery(q: URLSearchParams, scoped: URLSearchParams): URLSearchParams {
  const { query } = ordersQuery(formOfQuery(q), parseNaira);
  query.delete('branch');
  const b = scoped.get('branch');
  if (b) query.set('branch', b);
  return query;
}

function Results({
  query,
  headOffice,
  run,
  onIncludePractice,
}: {
  query: URLSearchParams;
  headOffice: boolean;
  run: number;
  onIncludePractice: () => void;
}) {
  const [cursors, setCursors] = useState<string[]>([]);
  const [forKey, setForKey] = useState(query.toString());
  if (forKey !== query.toString()) {
    setForKey(query.toString());
    setCursors([]);
  }
  const label = useBranchLabel();
  const cursor = cursors[cursors.length - 1];
  const q = new URLSearchParams(query);
  if (cursor) q.set('cursor', cursor);
  const r = useLoad(`orders?${q}#${run}`, () => api.get('/orders', OrdersPageSchema, q));
  const page = r.data;
  return (
    <section aria-labelledby="results-title">
      <h2 id="results-title">
        Orders
        {page ? (
          <span className="hint">
            {' '}
            — page {cursors.length + 1}, {page.orders.length} shown, newest first
          </span>
        ) : null}
      </h2>
      {r.error ? (
        <Banner tone="bad" testId="orders-error">
          {r.error}
        </Banner>
      ) : null}
      {!page ? (
        r.error ? null : (
          <Loading what="orders" />
        )
      ) : page.orders.length === 0 ? (
        <div className="orders-empty" data-testid="orders-empty">
          <p className="hint">No orders match.</p>
          {(query.get('practice') ?? 'exclude') === 'exclude' ? (
            <p>
              Demo and Sandbox sales are left out (they are not real money). A number from a Demo receipt is found with
              them:{' '}
              <button type="button" onClick={onIncludePractice}>
                Include Demo and Sandbox sales
              </button>
            </p>
          ) : null}
        </div>
      ) : (
        <div className="table-wrap">
          <table className="orders" data-testid="orders-table">
            <thead>
              <tr>
                <th scope="col">Created</th>
                <th scope="col">Sale number</th>
                <th scope="col" className="num">
                  Amount
                </th>
                <th scope="col">State</th>
                <th scope="col">Counter</th>
                <th scope="col">Cashier</th>
                <th scope="col">Film · seats</th>
                <th scope="col">Provider order number</th>
              </tr>
            </thead>
            <tbody>
              {page.orders.map((o: OrderRow) => (
                <tr key={o.id} data-reference={o.reference}>
                  <td className="o-created" data-testid="order-created">
                    {lagosDayTime(o.createdAt)}
                  </td>
                  <td className="o-ref">
                    <Link to={`/dashboard/orders/${o.id}`} aria-label={`History of sale ${o.reference}`}>
                      {o.reference}
                    </Link>
                  </td>
                  <td className="num o-amount" data-testid="order-amount">
                    <SaleAmount o={o} />
                  </td>
                  <td className="o-state" data-testid="order-state">
                    <StatePill state={o.state} practice={o.practice} profile={o.profile} />
                    <LatePill o={o} />
                  </td>
                  <td className="o-counter wrap" data-testid="order-counter">
                    {o.counterName}
                    {headOffice ? <span className="hint"> · {label(o.branch)}</span> : null}
                  </td>
                  <td className="o-cashier wrap">{o.cashier ?? '—'}</td>
                  <td className="o-film wrap">
                    {o.filmTitle ?? o.filmName ?? '—'}
                    {o.seats ? ` · ${o.seats}` : ''}
                  </td>
                  <td className="o-orderno wrap">
                    <span className="o-label">Provider order </span>
                    {o.orderNo ?? '—'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div className="actions pager">
        <button type="button" disabled={cursors.length === 0} onClick={() => setCursors(cursors.slice(0, -1))}>
          ‹ Newer 50
        </button>
        <button
          type="button"
          disabled={!page?.nextCursor}
          onClick={() => page?.nextCursor && setCursors([...cursors, page.nextCursor])}
        >
          Older 50 ›
        </button>
      </div>
    </section>
  );
}

function Export({ query }: { query: URLSearchParams }) {
  const today = lagosDate(Date.now());
  const [from, setFrom] = useState(query.get('from') ?? today);
  const [to, setTo] = useState(query.get('to') ?? today);
  const q = new URLSearchParams(query);
  q.set('from', from);
  q.set('to', to);
  const ok = Boolean(from && to && from <= to);
  return (
    <section className="card" aria-labelledby="export-title">
      <h2 id="export-title">Export to CSV</h2>
      <p className="hint">
        Every order of the days chosen that matches the filters above (all pages), oldest first. Amounts in naira, times
        in Lagos.
      </p>
      <div className="filter-grid">
        <div className="field">
          <label htmlFor="x-from">From (day)</label>
          <DayField id="x-from" value={from} onChange={setFrom} empty="Choose a day" />
        </div>
        <div className="field">
          <label htmlFor="x-to">To (day, included)</label>
          <DayField id="x-to" value={to} onChange={setTo} empty="Choose a day" />
        </div>
      </div>
      <p className="actions">
        {ok ? (
          <a className="button" href={apiUrl('/orders.csv', q)} download data-testid="orders-csv">
            Download CSV
          </a>
        ) : (
          <span className="field-error">Choose a first day on or before the last day.</span>
        )}
      </p>
    </section>
  );
}

export function OrdersScreen() {
  const session = useDash((s) => s.session);
  const route = useDash((s) => s.route);
  const setQuery = useDash((s) => s.setQuery);
  const label = useBranchLabel();
  const scoped = branchQuery({ session, route });
  const counters = useLoad(`counters?${scoped}`, () => api.get('/counters', CountersViewSchema, scoped));
  const [problem, setProblem] = useState<string | null>(null);
  // Search again with the same filters reads again (new sales may have come).
  const [run, setRun] = useState(0);
  if (route.orderId) return <OrderHistory id={route.orderId} />;
  const query = searchQuery(route.query, scoped);
  const onSearch = (f: OrderFilterForm) => {
    const r = ordersQuery(f, parseNaira);
    setProblem(r.problem);
    if (r.problem) return;
    const b = route.query.get('branch');
    if (b) r.query.set('branch', b);
    setRun((n) => n + 1);
    setQuery(r.query);
  };
  return (
    <section className="screen" aria-labelledby="screen-title">
      <ScreenTitle>
        <span id="screen-title">Orders</span>
      </ScreenTitle>
      <Filters
        key={`filters:${route.query}`}
        initial={formOfQuery(route.query)}
        counters={(counters.data?.counters ?? []).map((c) => ({
          id: c.id,
          name: `${c.name}${session?.manager.role === 'head-office' ? ` (${label(c.branch)})` : ''}`,
        }))}
        onSearch={onSearch}
        problem={problem}
      />
      <Results
        query={query}
        headOffice={session?.manager.role === 'head-office'}
        run={run}
        onIncludePractice={() => onSearch({ ...formOfQuery(route.query), practice: 'include' })}
      />
      <Export key={`export:${query}`} query={query} />
    </section>
  );
}
