// Shows: every show of a Lagos day (in the branch's programme, or sold without it) with its fill —
// seats sold, sales, their amount in ₦ and seats still being paid for — and a bar per show so the full and
// the empty shows read at a glance. Follows the live feed by itself on today.
import { useCallback } from 'react';
import { useBranchLabel } from '../branch-names';
import { ShowsViewSchema } from '../../../../shared/hub-programme-contract';
import { api } from '../api';
import { Banner, Link, Loading, ScreenTitle } from '../components/bits';
import { DayNav, useDay, useFollowDay } from '../components/DayNav';
import { dayLong, formatCount, formatNaira } from '../format';
import { fillBars, fillText } from '../programme-view';
import { branchQuery, useDash } from '../store';
import { useLoad } from '../use-load';
import { ShowSeats, useOccupancy } from '../components/ShowSeats';

export function ShowsScreen() {
  const label = useBranchLabel();
  const route = useDash((s) => s.route);
  const session = useDash((s) => s.session);
  const { day, todayDay, go } = useDay();
  const q = branchQuery({ session, route }, { day });
  const r = useLoad(`shows?${q}`, () => api.get('/shows', ShowsViewSchema, q));
  const occupancy = useOccupancy(q);
  const { reload: reloadShows } = r;
  const { reload: reloadSeats } = occupancy;
  const reloadBoth = useCallback(() => {
    reloadShows();
    reloadSeats();
  }, [reloadShows, reloadSeats]);
  useFollowDay(day, todayDay, reloadBoth);

  const v = r.data;
  const headOffice = session?.manager.role === 'head-office';
  const { scale, bars } = fillBars(v?.shows ?? []);

  return (
    <section className="screen" aria-labelledby="screen-title">
      <ScreenTitle aside={<DayNav day={day} todayDay={todayDay} go={go} future todayButton />}>
        <span id="screen-title">Shows</span> <span className="title-day">{dayLong(day)}</span>
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
          <Loading what="the day's shows" />
        )
      ) : (
        <>
          <div className="tiles" data-testid="shows-totals">
            <div className="tile" data-tone="good">
              <span className="tile-label">Seats sold</span>
              <span className="tile-value">{formatCount(v.totals.seatsSold)}</span>
              <span className="tile-sub">card total {formatNaira(v.totals.cardTotalKobo)}</span>
            </div>
            <div className="tile">
              <span className="tile-label">Shows</span>
              <span className="tile-value">{formatCount(v.totals.shows)}</span>
            </div>
            <div className="tile" data-tone={v.totals.seatsHeld ? 'warn' : undefined}>
              <span className="tile-label">Being paid for</span>
              <span className="tile-value">{formatCount(v.totals.seatsHeld)}</span>
              <span className="tile-sub">seats not paid yet</span>
            </div>
          </div>
          {v.shows.length === 0 ? (
            <p className="hint" data-testid="shows-empty">
              No shows on this day: none in the programme and none sold.{' '}
              <Link
                to={`/dashboard/programme${headOffice && route.query.get('branch') ? `?branch=${encodeURIComponent(route.query.get('branch')!)}` : ''}`}
              >
                Open the programme
              </Link>
              .
            </p>
          ) : (
            <ol className="show-list" data-testid="show-list">
              {v.shows.map((s, i) => {
                const b = bars[i]!;
                const occ = occupancy.find(s.branch, s.time, s.screen);
                return (
                  <li
                    key={`${s.branch}-${s.time}-${s.filmName}`}
                    className="card show-fill"
                    data-film={s.filmName}
                    data-time={s.time}
                    data-in-programme={s.inProgramme}
                  >
                    <div className="show-head">
                      <span className="show-time">{s.time}</span>
                      <span className="show-film">
                        <strong>{s.filmTitle ?? s.filmName}</strong>
                        {s.filmTitle && s.filmTitle !== s.filmName ? (
                          <span className="hint"> · {s.filmName}</span>
                        ) : null}
                      </span>
                      <span className="hint">
                        {s.screen ?? 'screen not known'}
                        {headOffice ? ` · ${label(s.branch)}` : ''}
                      </span>
                      {s.inProgramme ? null : (
                        <span
                          className="pill"
                          data-tone="info"
                          title="Sold with the hand-typed form: this show is not in the branch's programme"
                        >
                          Not in the programme
                        </span>
                      )}
                      <span className="show-card-total num">{formatNaira(s.cardTotalKobo)}</span>
                    </div>
                    <div className="fill-bar" aria-hidden="true">
                      <span className="fill-sold" style={{ width: `${b.soldPct}%` }} />
                      <span className="fill-held" style={{ width: `${b.heldPct}%` }} />
                    </div>
                    <p className="show-numbers" data-testid="show-numbers">
                      {fillText(s)}
                    </p>
                    {occ ? <ShowSeats occ={occ} headOffice={headOffice} onChanged={occupancy.reload} /> : null}
                  </li>
                );
              })}
            </ol>
          )}
          <p className="hint">
            Times are Lagos time. Paid sales only in the seats and amounts (booking fees included); Demo and Sandbox
            sales are left out.
            {scale > 0
              ? ` The bars compare each show with the day's fullest (${formatCount(scale)} seat${scale === 1 ? '' : 's'}); striped: being paid for.`
              : ''}
          </p>
        </>
      )}
    </section>
  );
}
