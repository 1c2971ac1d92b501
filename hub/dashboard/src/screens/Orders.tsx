// Orders: search every counter's orders in view by any filter the Hub knows, 50 to a page; one
// order's full history as the counter recorded it; the CSV of a date range.
import { useState, type FormEvent } from 'react';
import { parseNaira } from '../../../../shared/money';
import {
  CountersViewSchema,
  OrderDetailSchema,
  OrdersPageSchema,
  type LateOnOrder,
  type OrderRow,
} from '../../../../shared/hub-dashboard-contract';
import { lagosDate } from '../../../../shared/time';
import { api, apiUrl } from '../api';
import { Banner, Link, Loading, ScreenTitle, StatePill } from '../components/bits';
import { DayField } from '../components/DayField';
import {
  formatNaira,
  formOfQuery,
  lagosDayTime,
  lagosDayTimeSeconds,
  lagosTimeSeconds,
  ORDER_STATES,
  ordersQuery,
  showDayTime,
  statePill,
  type OrderFilterForm,
} from '../format';
import { useBranchLabel } from '../branch-names';
import { branchQuery, useDash } from '../store';
import { useLoad } from '../use-load';

const TEXT_FIELDS: { k: keyof OrderFilterForm; label: string; hint?: string; inputMode?: 'numeric' | 'decimal' }[] = [
  {
    k: 'number',
    label: 'Sale, provider order or payment number',
    hint: "COU1-…, or the provider number's last digits",
  },
  { k: 'film', label: 'Film', hint: 'part of the name' },
  { k: 'seat', label: 'Seat', hint: 'one seat, e.g. F7' },
  { k: 'amount', label: 'Amount (₦)', inputMode: 'decimal' },
  { k: 'cashier', label: 'Cashier' },
];

/** The search's API query from the URL: the filters, with the branch only as the session allows. */
function searchQuery(q: URLSearchParams, scoped: URLSearchParams): URLSearchParams {
  const { query } = ordersQuery(formOfQuery(q), parseNaira);
  query.delete('branch');
  const b = scoped.get('branch');
  if (b) query.set('branch', b);
  return query;
}

/** The provider's late word on a sale, in a manager's words (docs/late-payments.md). */
function lateText(l: LateOnOrder, soldKobo: number): { label: string; tone: 'bad' | 'warn' | 'info'; detail: string } {
  if (l.kind === 'paid-after-closing') {
    const handled = l.handled
      ? ` Handled on the counter by ${l.handled.by}, ${lagosDayTime(l.handled.at)}: ${l.handled.how === 'refund' ? 'customer gone, refund to be arranged' : 'tickets given'}.`
      : ' Not handled on the counter yet.';
    const refund = l.handled?.how === 'refund';
    return {
      label: refund ? 'Paid after closing · to refund' : 'Paid after closing',
      tone: l.handled ? 'info' : 'bad',
      detail: `${formatNaira(l.amountKobo)} was taken after the sale was closed (${lagosDayTime(l.at)}${l.payNo ? `, payment ${l.payNo}` : ''}).${handled}${refund ? ' Not in the takings.' : ''}`,
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

function LatePill({ o }: { o: OrderRow }) {
  if (!o.late) return null;
  const t = lateText(o.late, o.amountKobo);
  return (
    <span className="pill late-pill" data-tone={t.tone} data-testid="order-late" title={t.detail}>
      {t.label}
    </span>
  );
}

/** The filters behind "More filters" (open when one of them is set). */
const MORE_FILTERS: (keyof OrderFilterForm)[] = [
  'film',
  'seat',
  'amount',
  'cashier',
  'counterId',
  'state',
  'from',
  'to',
  'practice',
  'paidAfterClosing',
];

function TextField({
  x,
  f,
  set,
}: {
  x: (typeof TEXT_FIELDS)[number];
  f: OrderFilterForm;
  set: (k: keyof OrderFilterForm, v: string) => void;
}) {
  return (
    <div className="field">
      <label htmlFor={`f-${x.k}`}>
        {x.label}
        {x.hint ? <span className="hint"> ({x.hint})</span> : null}
      </label>
      <input
        id={`f-${x.k}`}
        value={f[x.k] ?? ''}
        inputMode={x.inputMode}
        onChange={(e) => set(x.k, e.target.value)}
        autoComplete="off"
      />
    </div>
  );
}

function Filters({
  initial,
  counters,
  onSearch,
  problem,
}: {
  initial: OrderFilterForm;
  counters: { id: string; name: string }[];
  onSearch: (f: OrderFilterForm) => void;
  problem: string | null;
}) {
  const [f, setF] = useState<OrderFilterForm>(initial);
  const set = (k: keyof OrderFilterForm, v: string) => setF((x) => ({ ...x, [k]: v }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSearch(f);
  };
  return (
    <form className="card filters" onSubmit={submit} role="search" aria-label="Search orders">
      <div className="filter-grid">
        <TextField x={TEXT_FIELDS[0]!} f={f} set={set} />
      </div>
      <details className="more-filters" open={MORE_FILTERS.some((k) => initial[k])}>
        <summary>More filters</summary>
        <div className="filter-grid">
          {TEXT_FIELDS.slice(1).map((x) => (
            <TextField key={x.k} x={x} f={f} set={set} />
          ))}
          <div className="field">
            <label htmlFor="f-counterId">Counter</label>
            <select id="f-counterId" value={f.counterId ?? ''} onChange={(e) => set('counterId', e.target.value)}>
              <option value="">Any counter</option>
              {counters.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="f-state">State</label>
            <select id="f-state" value={f.state ?? ''} onChange={(e) => set('state', e.target.value)}>
              <option value="">Any state</option>
              {ORDER_STATES.map((s) => (
                <option key={s} value={s}>
                  {statePill(s).label}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="f-from">From (day)</label>
            <DayField id="f-from" value={f.from ?? ''} onChange={(d) => set('from', d)} />
          </div>
          <div className="field">
            <label htmlFor="f-to">To (day, included)</label>
            <DayField id="f-to" value={f.to ?? ''} onChange={(d) => set('to', d)} />
          </div>
          <div className="field">
            <label htmlFor="f-practice">Demo and Sandbox sales</label>
            <select id="f-practice" value={f.practice ?? 'exclude'} onChange={(e) => set('practice', e.target.value)}>
              <option value="exclude">Leave out</option>
              <option value="include">Include</option>
              <option value="only">Only these</option>
            </select>
          </div>
          <div className="field">
            <label htmlFor="f-late">Paid after closing</label>
            <select
              id="f-late"
              value={f.paidAfterClosing ?? ''}
              onChange={(e) => set('paidAfterClosing', e.target.value)}
            >
              <option value="">Any</option>
              <option value="only">Only money taken after the sale was closed</option>
            </select>
          </div>
        </div>
      </details>
      {problem ? <Banner tone="bad">{problem}</Banner> : null}
      <div className="actions">
        <button className="primary" type="submit">
          Search
        </button>
        <button
          type="button"
          onClick={() => {
            setF({});
            onSearch({});
          }}
        >
          Clear
        </button>
      </div>
    </form>
  );
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
                    {formatNaira(o.amountKobo)}
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

function OrderHistory({ id }: { id: string }) {
  const r = useLoad(`order/${id}`, () => api.get(`/orders/${encodeURIComponent(id)}`, OrderDetailSchema));
  const d = r.data;
  const label = useBranchLabel();
  return (
    <section className="screen" aria-labelledby="screen-title">
      <ScreenTitle
        aside={
          <Link to="/dashboard/orders" className="button">
            ‹ Back to the search
          </Link>
        }
      >
        <span id="screen-title">Sale {d ? d.order.reference : ''}</span>
      </ScreenTitle>
      {r.error ? (
        <Banner tone="bad" testId="order-error">
          {r.error}
        </Banner>
      ) : null}
      {!d ? (
        r.error ? null : (
          <Loading what="the order" />
        )
      ) : (
        <>
          <div className="card order-facts" data-testid="order-facts">
            <StatePill state={d.order.state} practice={d.order.practice} profile={d.order.profile} />
            <LatePill o={d.order} />
            {d.order.late ? (
              <p className="late-detail" data-testid="order-late-detail">
                {lateText(d.order.late, d.order.amountKobo).detail}
              </p>
            ) : null}
            <dl>
              <div>
                <dt>Amount</dt>
                <dd>{formatNaira(d.order.amountKobo)}</dd>
              </div>
              <div>
                <dt>Counter</dt>
                <dd>
                  {d.order.counterName} ({label(d.order.branch)})
                </dd>
              </div>
              <div>
                <dt>Cashier</dt>
                <dd>{d.order.cashier ?? '—'}</dd>
              </div>
              <div>
                <dt>Sale number</dt>
                <dd>{d.order.reference}</dd>
              </div>
              <div>
                <dt>Provider order number</dt>
                <dd>{d.order.orderNo ?? '—'}</dd>
              </div>
              {/* A payment taken after closing has its own payment number (the closed order has none). */}
              <div>
                <dt>Payment number</dt>
                <dd data-testid="order-payno">
                  {d.order.payNo ?? d.order.late?.payNo ?? '—'}
                  {!d.order.payNo && d.order.late?.payNo ? ' (paid after closing)' : ''}
                </dd>
              </div>
              <div>
                <dt>Film</dt>
                <dd>{d.order.filmTitle ?? d.order.filmName ?? '—'}</dd>
              </div>
              <div>
                <dt>Show</dt>
                <dd>{showDayTime(d.order.showDate, d.order.showTime)}</dd>
              </div>
              <div>
                <dt>Seats</dt>
                <dd>
                  {d.order.seats ?? '—'}
                  {d.order.tickets ? ` (${d.order.tickets} tickets)` : ''}
                </dd>
              </div>
              <div>
                <dt>Created</dt>
                <dd>{lagosDayTime(d.order.createdAt)}</dd>
              </div>
            </dl>
          </div>
          <section className="card" aria-labelledby="history-title">
            <h2 id="history-title">History as the counter recorded it</h2>
            <div className="table-wrap">
              <table className="history" data-testid="order-history">
                <thead>
                  <tr>
                    <th scope="col">#</th>
                    <th scope="col">At (counter clock)</th>
                    <th scope="col">What</th>
                    <th scope="col">State</th>
                    <th scope="col">Numbers</th>
                    <th scope="col">Reached the Hub</th>
                  </tr>
                </thead>
                <tbody>
                  {d.history.map((h) => (
                    <tr key={h.seq}>
                      <td className="h-seq" data-label="#">
                        {h.seq}
                      </td>
                      <td className="h-at" data-label="At (counter clock)">
                        {lagosDayTimeSeconds(h.at)}
                      </td>
                      <td className="h-what" data-label="What">
                        {h.kind === 'order.created'
                          ? 'Sale started'
                          : h.kind === 'order.status'
                            ? 'State changed'
                            : h.kind}
                        {h.note ? ` — ${h.note}` : ''}
                      </td>
                      {/* The sale's first record carries no state from the counter (the Hub stored "queued"): showing it would
                          say "Waiting for the network" where the counter said "Sending to the terminal". */}
                      <td className="h-state" data-label="State">
                        {h.status && h.kind !== 'order.created' ? <StatePill state={h.status} /> : '—'}
                      </td>
                      <td className="h-numbers" data-label="Numbers">
                        {[h.orderNo && `provider order ${h.orderNo}`, h.payNo && `payment ${h.payNo}`]
                          .filter(Boolean)
                          .join(', ') || '—'}
                      </td>
                      <td className="h-received" data-label="Reached the Hub">
                        {lagosTimeSeconds(h.receivedAt)}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </section>
        </>
      )}
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
