// Today: the card total of the day at a glance, per hour beside the same weekday last week, then by
// branch → counter → cashier. Refreshes by itself when the live feed reports a change.
import { Fragment } from 'react';
import { TodayViewSchema, type Tally, type TodayView } from '../../../../shared/hub-dashboard-contract';
import { lagosHm } from '../../../../shared/time';
import { api, apiUrl } from '../api';
import { Banner, Link, Loading, ScreenTitle } from '../components/bits';
import { DayNav, useDay, useFollowDay } from '../components/DayNav';
import { HourChart } from '../components/HourChart';
import { SalesMixView } from '../components/SalesMix';
import { AfterSaleTiles } from '../components/AfterSaleTiles';
import { ApprovalCodePanel } from '../components/ApprovalCode';
import { changeText, dayLong, dayShort, formatCount, formatNaira, lastWeekSoFar } from '../format';
import { useBranchLabel } from '../branch-names';
import { branchQuery, useDash } from '../store';
import { useLoad } from '../use-load';

function Tile({
  label,
  value,
  sub,
  tone,
  testId,
}: {
  label: string;
  value: string;
  sub?: string;
  tone?: 'good' | 'bad' | 'warn';
  testId: string;
}) {
  return (
    <div className="tile" data-tone={tone} data-testid={testId}>
      <span className="tile-label">{label}</span>
      <span className="tile-value">{value}</span>
      {sub ? <span className="tile-sub">{sub}</span> : null}
    </div>
  );
}

function TallyCells({ t }: { t: Tally }) {
  return (
    <>
      <td className="num" data-label="Paid">
        {formatCount(t.paidCount)}
      </td>
      <td className="num strong" data-label="Card total" data-testid="tally-card-total">
        {formatNaira(t.paidKobo)}
      </td>
      <td className="num" data-label="Failed" data-zero={t.failedCount === 0 || undefined}>
        {formatCount(t.failedCount)}
      </td>
      <td className="num" data-label="Cancelled" data-zero={t.cancelledCount === 0 || undefined}>
        {formatCount(t.cancelledCount)}
      </td>
      <td className="num" data-label="Expired" data-zero={t.expiredCount === 0 || undefined}>
        {formatCount(t.expiredCount)}
      </td>
      <td className="num" data-label="Still open" data-zero={t.openCount === 0 || undefined}>
        {formatCount(t.openCount)}
      </td>
      <td className="num" data-label="Top-ups">
        {t.topupCount ? `${formatCount(t.topupCount)} · ${formatNaira(t.topupKobo)}` : '0'}
      </td>
    </>
  );
}

function Breakdown({ v }: { v: TodayView }) {
  const label = useBranchLabel();
  return (
    <section className="card" aria-labelledby="breakdown-title">
      <h2 id="breakdown-title">By branch, counter and cashier</h2>
      {v.branches.length === 0 ? (
        <p className="hint">No sales on this day yet.</p>
      ) : (
        <div className="table-wrap">
          <table className="breakdown" data-testid="breakdown">
            <thead>
              <tr>
                <th scope="col">Where</th>
                <th scope="col" className="num">
                  Paid
                </th>
                <th scope="col" className="num">
                  Card total
                </th>
                <th scope="col" className="num">
                  Failed
                </th>
                <th scope="col" className="num">
                  Cancelled
                </th>
                <th scope="col" className="num">
                  Expired
                </th>
                <th scope="col" className="num">
                  Still open
                </th>
                <th scope="col" className="num">
                  Top-ups
                </th>
              </tr>
            </thead>
            <tbody>
              {v.branches.map((b) => (
                <Fragment key={b.branch}>
                  <tr className="row-branch" data-branch={b.branch}>
                    <th scope="row" data-testid="branch-label">
                      {label(b.branch)}
                    </th>
                    <TallyCells t={b} />
                  </tr>
                  {b.counters.map((c) => (
                    <Fragment key={c.counterId}>
                      <tr className="row-counter" data-counter={c.counterName}>
                        <th scope="row">
                          <span className="indent-1">{c.counterName}</span>
                        </th>
                        <TallyCells t={c} />
                      </tr>
                      {c.cashiers.map((k) => (
                        <tr className="row-cashier" key={k.cashier} data-cashier={k.cashier}>
                          <th scope="row">
                            <span className="indent-2">{k.cashier || 'no cashier named'}</span>
                          </th>
                          <TallyCells t={k} />
                        </tr>
                      ))}
                    </Fragment>
                  ))}
                </Fragment>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row">All</th>
                <TallyCells t={v.totals} />
              </tr>
            </tfoot>
          </table>
        </div>
      )}
      <p className="hint">Top-ups are counted per counter (the journal does not name their cashier).</p>
    </section>
  );
}

/** The items export of the day in view, for the branch in view. */
function itemsQuery(q: URLSearchParams, day: string): URLSearchParams {
  const out = new URLSearchParams({ from: day, to: day });
  const branch = q.get('branch');
  if (branch) out.set('branch', branch);
  return out;
}

export function TodayScreen() {
  const route = useDash((s) => s.route);
  const session = useDash((s) => s.session);
  const { day, todayDay, go } = useDay();
  const query = branchQuery({ session, route }, { day: route.query.get('day') });
  const r = useLoad(`today?${query}`, () => api.get('/today', TodayViewSchema, query));
  useFollowDay(day, todayDay, r.reload);

  const v = r.data;
  const isToday = day === todayDay;
  const hourNow = isToday ? Number(lagosHm(Date.now()).slice(0, 2)) : null;
  const lwSoFar = v ? lastWeekSoFar(v.hourly, hourNow ?? 23) : 0;
  const change = v ? changeText(v.totals.paidKobo, lwSoFar) : null;

  return (
    <section className="screen" aria-labelledby="screen-title">
      <ScreenTitle aside={<DayNav day={day} todayDay={todayDay} go={go} todayButton />}>
        <span id="screen-title">{isToday ? 'Today' : 'Card total'}</span>{' '}
        <span className="title-day">{dayLong(day)}</span>
      </ScreenTitle>
      {r.error ? (
        <Banner tone="bad">
          {r.error}{' '}
          <button type="button" onClick={r.reload}>
            Try again
          </button>
        </Banner>
      ) : null}
      {!v ? (
        r.error ? null : (
          <Loading what="the day's card total" />
        )
      ) : (
        <>
          <div className="tiles" data-testid="today-tiles">
            <Tile
              testId="tile-card-total"
              label="Card total"
              value={formatNaira(v.totals.paidKobo)}
              sub={`${formatCount(v.totals.paidCount)} paid${change ? ` · ${change} against ${dayShort(v.lastWeekDay)}${isToday ? ' by this hour' : ''}` : ''}`}
              tone="good"
            />
            <Tile
              testId="tile-failed"
              label="Failed"
              value={formatCount(v.totals.failedCount)}
              tone={v.totals.failedCount ? 'bad' : undefined}
            />
            <Tile testId="tile-cancelled" label="Cancelled" value={formatCount(v.totals.cancelledCount)} />
            <Tile testId="tile-expired" label="Expired" value={formatCount(v.totals.expiredCount)} />
            <Tile
              testId="tile-open"
              label="Still open"
              value={formatCount(v.totals.openCount)}
              tone={v.totals.openCount ? 'warn' : undefined}
              sub={v.totals.openCount ? 'see Needs attention' : undefined}
            />
            <Tile
              testId="tile-topups"
              label="Top-ups"
              value={formatNaira(v.totals.topupKobo)}
              sub={`${formatCount(v.totals.topupCount)} sent`}
            />
            <Tile
              testId="tile-paid-after-closing"
              label="Paid after closing"
              value={formatNaira(v.totals.paidAfterClosingKobo)}
              sub={`${formatCount(v.totals.paidAfterClosingCount)} in the card total`}
              tone={v.totals.paidAfterClosingCount ? 'warn' : undefined}
            />
            {v.totals.refundDueCount ? (
              <Tile
                testId="tile-refund-due"
                label="To refund (paid after closing)"
                value={formatNaira(v.totals.refundDueKobo)}
                sub={`${formatCount(v.totals.refundDueCount)} customer${v.totals.refundDueCount === 1 ? '' : 's'} gone: not in the card total`}
                tone="warn"
              />
            ) : null}
          </div>
          {v.afterSale ? <AfterSaleTiles f={v.afterSale} /> : null}
          {isToday ? <ApprovalCodePanel /> : null}
          {v.totals.openCount ? (
            <p className="hint">
              <Link to="/dashboard/attention">Open Needs attention</Link> for the payments still open.
            </p>
          ) : null}
          <section className="card">
            <HourChart
              points={v.hourly}
              dayLabel={isToday ? 'Today' : dayShort(v.day)}
              lastWeekLabel={`${dayShort(v.lastWeekDay)} (last week)`}
              currentHour={hourNow}
            />
          </section>
          <section className="card" aria-labelledby="sales-title">
            <h2 id="sales-title">Sales by category and tender</h2>
            <SalesMixView m={v.sales} testId="today-sales" />
            <p className="actions">
              <a
                className="button"
                href={apiUrl('/items.csv', itemsQuery(query, v.day))}
                download
                data-testid="items-csv"
              >
                Download the items sold (CSV)
              </a>
              <span className="hint">
                Sales paid this day (Demo and Sandbox apart). Cash is what the drawers took; card what the terminals
                took.
              </span>
            </p>
          </section>
          <Breakdown v={v} />
          {v.practice.paidCount + v.practice.failedCount + v.practice.openCount > 0 ? (
            <p className="hint" data-testid="practice-note">
              Demo and Sandbox (practice, no real money, not in the card total): {formatCount(v.practice.paidCount)}{' '}
              paid for {formatNaira(v.practice.paidKobo)}.
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}
