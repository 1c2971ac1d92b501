// A show's seats on the Shows page: sold / held / free of its screen's layout, as the Hub counted
// them, and its seat map (read-only) on demand, where head office can release held seats (the
// show's, or a counter's). Shows whose screen has no layout say so.
import { useState } from 'react';
import { OccupancyViewSchema, ShowSeatsViewSchema, type ShowOccupancy } from '../../../../shared/hub-seats-contract';
import { api } from '../api';
import { formatCount } from '../format';
import { useLoad } from '../use-load';
import { Banner } from './bits';
import { ReleaseHolds } from './ReleaseHolds';
import { SeatMapRead } from './SeatMapRead';

const keyOf = (branch: string, time: string, screen: string | null) =>
  `${branch}|${time}|${(screen ?? '').trim().toLowerCase()}`;

/** The day's occupancy per show, found by branch, time and screen. */
export function useOccupancy(q: URLSearchParams) {
  const r = useLoad(`occupancy?${q}`, () => api.get('/seats/occupancy', OccupancyViewSchema, q));
  const byShow = new Map((r.data?.shows ?? []).map((o) => [keyOf(o.branch, o.time, o.screen), o]));
  return {
    reload: r.reload,
    error: r.error,
    find: (branch: string, time: string, screen: string | null) => byShow.get(keyOf(branch, time, screen)) ?? null,
  };
}

/** "120 sold · 4 held · 236 free of 360 seats" (null capacity: the screen has no layout). */
export function occupancyText(o: ShowOccupancy): string {
  const counts = `${formatCount(o.sold)} sold · ${formatCount(o.held)} held`;
  return o.capacity === null || o.free === null
    ? `${counts} · no seat map for ${o.screen}`
    : `${counts} · ${formatCount(o.free)} free of ${formatCount(o.capacity)} seats`;
}

export function ShowSeats({
  occ,
  headOffice,
  onChanged = () => {},
}: {
  occ: ShowOccupancy;
  headOffice: boolean;
  /** Seats were released here: the day's occupancy is read again. */
  onChanged?: () => void;
}) {
  const [open, setOpen] = useState(false);
  const title = `${occ.time} ${occ.filmTitle ?? occ.filmName ?? ''}`.trim();
  return (
    <div className="show-seats-wrap">
      <p className="show-seats" data-testid="show-occupancy">
        <span>Seats: {occupancyText(occ)}</span>
        {occ.soldTwice > 0 ? (
          <span className="pill" data-tone="bad">
            {formatCount(occ.soldTwice)} sold twice
          </span>
        ) : null}
        {occ.capacity !== null ? (
          <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>
            {open ? 'Hide the seat map' : 'Seat map'}
            <span className="visually-hidden"> of {title}</span>
          </button>
        ) : null}
      </p>
      {open ? <ShowSeatMap occ={occ} headOffice={headOffice} onChanged={onChanged} /> : null}
    </div>
  );
}

function ShowSeatMap({
  occ,
  headOffice,
  onChanged,
}: {
  occ: ShowOccupancy;
  headOffice: boolean;
  onChanged: () => void;
}) {
  // Head office names the show's branch; a branch manager's own branch is implied.
  const q = new URLSearchParams({ showKey: occ.showKey });
  if (headOffice) q.set('branch', occ.branch);
  const r = useLoad(`seats?${q}`, () => api.get('/seats/show', ShowSeatsViewSchema, q));
  if (r.error)
    return (
      <Banner tone="bad">
        The seat map could not be read: {r.error}{' '}
        <button type="button" onClick={r.reload}>
          Try again
        </button>
      </Banner>
    );
  if (!r.data) return <p className="hint">Reading the seat map…</p>;
  const v = r.data;
  if (!v.layout) return <p className="hint">{occ.screen} has no layout: its seats are typed at the counter.</p>;
  return (
    <>
      <SeatMapRead
        layout={v.layout}
        taken={v.taken}
        summary={`Seat map of ${v.layout.screen}: ${occupancyText(v.occupancy)}`}
      />
      {headOffice ? (
        <ReleaseHolds
          branch={occ.branch}
          showKey={occ.showKey}
          taken={v.taken}
          onReleased={() => {
            r.reload();
            onChanged();
          }}
        />
      ) : null}
    </>
  );
}
