// Orders: every order on this counter, found again by number (sale, provider order, payment), the
// card's last four digits, film, seat or amount, by state, by day and time (today first), paid
// after closing, a page at a time; the queue waiting for the network; open one for its
// details, its history, Check now, and its receipt (print or reprint).
import { useEffect, useRef, useState } from 'react';
import { useOnMount } from '../components/useOnChange';
import { useShallow } from 'zustand/react/shallow';
import type { OrderView } from '../../../shared/orders';
import { addDays, lagosDate } from '../../../shared/time';
import { seatList } from '../../../shared/seat-list';
import { ScreenHead } from '../components/ScreenHead';
import { OrderStatePill } from '../components/OrderStatePill';
import { StatePill } from '../components/StatePill';
import { useApp } from '../stores/app-store';
import { PAGE_SIZE, todayQuery, useOrders, type OrderQuery } from '../stores/orders-store';
import { useReceipts } from '../stores/receipt-store';
import { OrderDetail } from './OrderDetail';
import { DayTimeBound } from './orders/DayTimeBound';
import { activeFilters, STATE_FILTERS } from './orders/active-filters';
import { FailedPrints } from './receipt/PrintJobList';
import { formatDayMonth, formatLagosTime, formatNaira } from '../format';
import '../sell-screen.css';
import '../orders-screen.css';
import '../data-table.css';

function dayRange(kind: 'today' | 'yesterday' | 'week' | 'all'): Pick<OrderQuery, 'from' | 'to'> {
  const today = lagosDate(Date.now());
  if (kind === 'all') return { from: '', to: '' };
  if (kind === 'yesterday') return { from: addDays(today, -1), to: addDays(today, -1) };
  return { from: kind === 'week' ? addDays(today, -6) : today, to: today };
}

function isDefault(q: OrderQuery): boolean {
  const t = todayQuery();
  return (
    q.text === '' &&
    q.states.length === 0 &&
    q.from === t.from &&
    q.to === t.to &&
    !q.paidAfterClosing &&
    !q.fromTime &&
    !q.toTime
  );
}

export function OrdersScreen() {
  const o = useOrders(
    useShallow((s) => ({
      query: s.query,
      rows: s.rows,
      total: s.total,
      cardTotal: s.cardTotal,
      paidAfterClosing: s.paidAfterClosing,
      back: s.back,
      next: s.next,
      queued: s.queued,
      loaded: s.loaded,
      loading: s.loading,
      loadError: s.loadError,
      queryErrors: s.queryErrors,
      openId: s.openId,
      opened: s.opened,
      search: s.search,
      nextPage: s.nextPage,
      prevPage: s.prevPage,
      load: s.load,
      open: s.open,
      close: s.close,
      freshVisit: s.freshVisit,
    })),
  );
  const loadFailed = useReceipts((r) => r.loadFailed);
  const profile = useApp((a) => a.status?.profile);
  const [text, setText] = useState(o.query.text);
  const typing = useRef<ReturnType<typeof setTimeout> | null>(null);

  useOnMount(() => {
    // Each visit starts on today's orders: a window or state chosen on an earlier visit is not left hiding sales.
    if (o.freshVisit()) setText('');
    void o.load();
    void loadFailed();
  });

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

  const searchText = (value: string, now = false) => {
    setText(value);
    if (typing.current) clearTimeout(typing.current);
    if (now) void o.search({ text: value });
    else typing.current = setTimeout(() => void o.search({ text: value }), 250);
  };

  const q = o.query;
  const first = o.back.length * PAGE_SIZE + 1;
  const last = o.back.length * PAGE_SIZE + o.rows.length;
  // A day chip is lit only when it is the whole window (no times narrowing it).
  const range =
    q.fromTime || q.toTime
      ? undefined
      : (['today', 'yesterday', 'week', 'all'] as const).find((k) => {
          const r = dayRange(k);
          return r.from === q.from && r.to === q.to;
        });
  const filters = activeFilters(q);
  const clearAll = () => {
    setText('');
    if (typing.current) clearTimeout(typing.current);
    void o.search({ ...todayQuery(), fromTime: '', toTime: '', paidAfterClosing: false, includeDemo: false });
  };

  return (
    <section aria-labelledby="screen-title" className="screen checkout orders-screen records-screen">
      <ScreenHead title="Orders" loadError={o.loadError && `Could not load the orders: ${o.loadError}`}>
        {o.openId === null && (
          <button type="button" onClick={() => void o.load()} disabled={o.loading}>
            {o.loading ? 'Loading…' : 'Refresh'}
          </button>
        )}
      </ScreenHead>

      {o.openId !== null ? (
        o.opened ? (
          <OrderDetail order={o.opened} />
        ) : (
          <p>Loading the order…</p>
        )
      ) : (
        <>
          <FailedPrints />
          {o.queued.length > 0 && (
            <div className="card">
              <h2>Waiting for the network ({o.queued.length})</h2>
              <p className="hint">
                These payments are saved and go to the terminal by themselves when the network is back. Do not charge
                them again.
              </p>
              <OrderTable orders={o.queued} onOpen={(id) => void o.open(id)} caption="Orders waiting for the network" />
            </div>
          )}

          <form
            className="card order-search"
            role="search"
            aria-label="Find orders"
            onSubmit={(e) => {
              e.preventDefault();
              searchText(text, true);
            }}
          >
            <div className="field order-search-text">
              <label htmlFor="order-search-text">
                Find an order: sale number (or its last digits), provider order or payment number, the card's last four
                digits, film, seat, or amount
              </label>
              <div className="with-button">
                <input
                  id="order-search-text"
                  type="search"
                  value={text}
                  placeholder="for example 0042, Avengers, F7, 5200 or the card's 4321"
                  autoComplete="off"
                  spellCheck={false}
                  onChange={(e) => searchText(e.target.value)}
                />
                {(text || !isDefault(q)) && (
                  <button
                    type="button"
                    onClick={clearAll}
                    title="Back to today's orders: no words, times, states or other filters"
                  >
                    Clear
                  </button>
                )}
              </div>
            </div>
            <div className="order-filters">
              <div className="segmented" role="group" aria-label="Days">
                {(
                  [
                    ['today', 'Today'],
                    ['yesterday', 'Yesterday'],
                    ['week', 'Last 7 days'],
                    ['all', 'All days'],
                  ] as const
                ).map(([k, label]) => (
                  <button
                    key={k}
                    type="button"
                    aria-pressed={range === k}
                    onClick={() => void o.search({ ...dayRange(k), fromTime: '', toTime: '' })}
                  >
                    {label}
                  </button>
                ))}
              </div>
              <div className="date-range">
                <DayTimeBound
                  label="From"
                  date={q.from}
                  time={q.fromTime ?? ''}
                  max={q.to}
                  timeError={o.queryErrors.fromTime}
                  onDate={(from) => void o.search({ from })}
                  onTime={(fromTime) => void o.search({ fromTime })}
                />
                <DayTimeBound
                  label="To"
                  date={q.to}
                  time={q.toTime ?? ''}
                  min={q.from}
                  timeError={o.queryErrors.toTime}
                  onDate={(to) => void o.search({ to })}
                  onTime={(toTime) => void o.search({ toTime })}
                />
              </div>
              <label className="check">
                <input
                  type="checkbox"
                  checked={!!q.paidAfterClosing}
                  onChange={(e) => void o.search({ paidAfterClosing: e.target.checked })}
                />{' '}
                Only paid after closing
              </label>
              {profile !== 'demo' && (
                <label className="check">
                  <input
                    type="checkbox"
                    checked={!!q.includeDemo}
                    onChange={(e) => void o.search({ includeDemo: e.target.checked })}
                  />{' '}
                  Include Demo sales
                </label>
              )}
            </div>
            {o.queryErrors.to && (
              <p className="field-error" role="alert">
                {o.queryErrors.to}
              </p>
            )}
            <div className="segmented state-filters" role="group" aria-label="States">
              <button type="button" aria-pressed={q.states.length === 0} onClick={() => void o.search({ states: [] })}>
                All states
              </button>
              {STATE_FILTERS.map((f) => {
                const on = f.states.every((s) => q.states.includes(s));
                return (
                  <button
                    key={f.label}
                    type="button"
                    aria-pressed={on}
                    onClick={() =>
                      void o.search({
                        states: on
                          ? q.states.filter((s) => !f.states.includes(s))
                          : [...q.states.filter((s) => !f.states.includes(s)), ...f.states],
                      })
                    }
                  >
                    {f.label}
                  </button>
                );
              })}
            </div>
          </form>

          <div className="card">
            <div className="orders-head">
              <h2>{isDefault(q) ? 'Today' : 'Orders found'}</h2>
              {o.loaded && (
                <p className="orders-summary" data-testid="orders-summary" aria-live="polite">
                  {o.total} order{o.total === 1 ? '' : 's'} · {o.cardTotal.count} paid · card total{' '}
                  {formatNaira(o.cardTotal.amountKobo)}
                  {o.paidAfterClosing.count > 0 &&
                    ` (of which ${o.paidAfterClosing.count} paid after closing: ${formatNaira(o.paidAfterClosing.amountKobo)})`}
                </p>
              )}
              {o.loaded && filters.length > 0 && (
                <p className="orders-filters-text" data-testid="orders-filters">
                  Filters on: {filters.join(' · ')}
                </p>
              )}
            </div>
            {!o.loaded && !o.loadError ? (
              <p>Loading…</p>
            ) : o.rows.length === 0 ? (
              <p className="placeholder">
                {isDefault(q)
                  ? 'No sales yet today.'
                  : !q.text && q.states.length === 0 && !q.paidAfterClosing && !q.fromTime && !q.toTime
                    ? 'No orders on these days.'
                    : `No order matches. Filters on: ${filters.join(' · ')}. ${q.text ? 'Check the number, press' : 'Press'} Clear to remove the filters, or look at other days (All days).`}
              </p>
            ) : (
              <>
                <OrderTable
                  orders={o.rows}
                  onOpen={(id) => void o.open(id)}
                  caption="Orders, newest first"
                  showDate={range !== 'today'}
                />
                {(o.back.length > 0 || o.next) && (
                  <div className="actions pager">
                    <button type="button" disabled={o.back.length === 0 || o.loading} onClick={() => void o.prevPage()}>
                      ← Newer
                    </button>
                    <span data-testid="orders-range">
                      {first}–{last} of {o.total}
                    </span>
                    <button type="button" disabled={!o.next || o.loading} onClick={() => void o.nextPage()}>
                      Older →
                    </button>
                  </div>
                )}
              </>
            )}
          </div>
        </>
      )}
    </section>
  );
}

function OrderTable({
  orders,
  onOpen,
  caption,
  showDate = false,
}: {
  orders: OrderView[];
  onOpen: (id: number) => void;
  caption: string;
  showDate?: boolean;
}) {
  const today = lagosDate(Date.now());
  return (
    <table className="orders-table">
      <caption className="sr-only">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{showDate ? 'When' : 'Time'}</th>
          <th scope="col">Sale number</th>
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
            <td className="num-time">
              {showDate && lagosDate(x.createdAt) !== today ? `${formatDayMonth(x.createdAt)}, ` : ''}
              {formatLagosTime(x.createdAt)}
            </td>
            <td>
              <button
                type="button"
                className="link-button"
                onClick={(e) => {
                  e.stopPropagation();
                  onOpen(x.id);
                }}
                aria-label={`Open order ${x.outOrderNo}`}
              >
                {x.outOrderNo}
              </button>
            </td>
            <td>{x.sale.tickets > 0 ? x.sale.filmTitle : 'Concessions'}</td>
            <td>{seatList(x.sale.seats).join(', ')}</td>
            <td className="num">
              {formatNaira(x.basket ? x.basket.amounts.totalKobo : x.amountKobo)}
              {x.basket && x.basket.tender.kind !== 'card' && (
                <span className="hint"> {x.basket.tender.kind === 'cash' ? 'cash' : 'split'}</span>
              )}
            </td>
            <td>
              <div className="state-cell">
                <OrderStatePill state={x.state} />
                {x.late?.kind === 'paid-after-closing' && (
                  <StatePill tone="bad" symbol="₦" label="Paid after closing" state="paid-after-closing" small />
                )}
              </div>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
