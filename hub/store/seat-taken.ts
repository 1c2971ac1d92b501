// The taken seats of a show: the one read behind every seat map (the counter's, the dashboard's
// and its occupancy counts), the seat check (`POST /seats/check`) and a new hold. A seat is taken by
// - a live row of seat_holds (liveRow, seat-rules.ts): sold (its sale synced paid), or live held;
// - a synced sale (dash_orders) naming it, unless a cancel or exchange took it out (cancelled_seats): paid (or paid after closing), or still open (queued,
//   creating, waiting, unknown) on a counter not revoked, made less than MAX_HOLD_MS ago (the
//   longest payment time plus the hold margin: a dead counter's waiting sale frees its seats then). This is how a show whose screen has no
//   seat map (no holds) is checked across counters, and how a sale made while the Hub was
//   unreachable, or one still waiting past its hold, keeps its seats.
// A sale belongs to the show (date, time, screen) its seats were held for; one that held nothing to
// the programme's show of its film, date and time when there is exactly one (a film at one time on
// two screens cannot be told apart: such a sale is in no show's map), for a practice sale else the
// Demo programme's. Practice (Demo, Sandbox) rows count only for practice, real ones only for real. One line per seat: sold before held before
// waiting (a seat_holds row before a sale's), then the earliest.
import { ORDER_STATES_OPEN } from '../../shared/hub-dashboard-contract';
import type { HubSeatConflict, SeatCheckRequest } from '../../shared/hub-programme-contract';
import { MAX_HOLD_MS } from '../../shared/hub-seats-contract';
import { showKey as keyOfShow } from '../../shared/programme';
import { SEAT_SEPARATORS_PATTERN } from '../../shared/seat-list';
import type { SqlRunner } from '../db/adapter';
import { num } from '../db/adapter';
import { demoShowsAround, liveRow } from './seat-rules';
import { Where, type Scope } from './scope';

type Row = Record<string, unknown>;

/** A dash_orders row `o` paid, or paid after closing (its seats are sold). */
export const ORDER_PAID = `(o.state = 'paid' or exists (select 1 from dash_late l where l.counter_id = o.counter_id and l.reference = o.reference and l.kind = 'paid-after-closing'))`;
const OPEN = ORDER_STATES_OPEN.map((s) => `'${s}'`).join(', ');
/**
 * The show key of a synced sale `o`: the one its seats were held for, else its programme show's when
 * there is exactly one, else (a practice sale, `demo` the placeholders of the Demo shows' dates,
 * times, films and screens) the Demo programme's.
 */
export const orderShowKey = (demo: { date: string; time: string; film: string; screen: string }) => `coalesce(
  (select min(x.show_key) from seat_holds x where x.counter_id = o.counter_id and x.order_key = o.reference),
  (select min(s.show_date || ' ' || s.show_time || ' ' || lower(trim(s.screen))) from programme_shows s
    where s.branch = o.branch and s.show_date = o.show_date and s.show_time = o.show_time and lower(s.film) = lower(trim(o.film_name))
   having count(distinct lower(trim(s.screen))) = 1),
  (select min(d.date || ' ' || d.time || ' ' || lower(trim(d.screen)))
     from unnest(${demo.date}::text[], ${demo.time}::text[], ${demo.film}::text[], ${demo.screen}::text[]) as d(date, time, film, screen)
    where o.practice and d.date = o.show_date and d.time = o.show_time and lower(d.film) = lower(trim(o.film_name))
   having count(distinct lower(trim(d.screen))) = 1))`;

/** The placeholders of the Demo shows around `now` for orderShowKey (none for real sales). */
export function demoParams(p: (v: unknown) => string, practice: boolean, now: number) {
  const shows = practice ? demoShowsAround(now) : [];
  return {
    date: p(shows.map((s) => s.date)),
    time: p(shows.map((s) => s.time)),
    film: p(shows.map((s) => s.film)),
    screen: p(shows.map((s) => s.screen)),
  };
}

export type TakenState = 'sold' | 'held' | 'waiting';
export interface TakenSeat {
  branch: string;
  /** null: a sale of no show of the programme (or of one of two screens): only the check without a screen reads it. */
  showKey: string | null;
  seat: string;
  state: TakenState;
  counterId: string;
  counterName: string;
  /** The sale's order number (outOrderNo). */
  reference: string;
  /** When the sale was made (its synced order's time, the counter's clock), else when the Hub held the seat. */
  at: number;
  filmName: string | null;
}

/** Which shows: one by its key, or (a check without the screen) a film at a time on every screen. */
export type TakenShow = { showKey: string } | { date: string; time: string; filmName: string };

export interface TakenQuery {
  scope: Scope;
  branch?: string | undefined;
  practice: boolean;
  /** A Lagos day: every show of it. */
  day?: string;
  show?: TakenShow;
  /** Only these seats (upper case). */
  seats?: string[];
}

const RANK: Record<TakenState, number> = { sold: 0, held: 2, waiting: 3 };

/** The taken seats, one line per seat of each show (see the head of the file), by show then seat. */
export async function takenOf(q: SqlRunner, t: TakenQuery, now: number): Promise<TakenSeat[]> {
  const w = new Where(t.scope, 't.branch', t.branch);
  const pr = w.p(t.practice);
  const at = w.p(now);
  const demo = demoParams((v) => w.p(v), t.practice, now);
  // An open sale keeps its seats as long as a hold could (MAX_HOLD_MS from when it was made): a
  // counter that died with a sale waiting does not keep them for ever; its journal's paid still sells them.
  const openSince = w.p(now - MAX_HOLD_MS);
  const day = w.p(t.day ?? (t.show && 'showKey' in t.show ? t.show.showKey.slice(0, 10) : t.show?.date));
  const show = t.show;
  // The show's time, also in each branch of the union below (the orders' index leads with their day and time).
  const time = w.p(show ? ('showKey' in show ? show.showKey.slice(11, 16) : show.time) : null);
  if (show && 'showKey' in show) w.and(`t.show_key = ${w.p(show.showKey)}`);
  else if (show)
    w.and(`t.show_time = ${w.p(show.time)}`).and(`lower(trim(t.film_name)) = lower(trim(${w.p(show.filmName)}))`);
  else w.and('t.show_key is not null');
  if (t.seats) w.and(`t.seat = any(${w.p(t.seats)}::text[])`);
  const rows = await q.query<Row>(
    `with t as (
       select h.branch, h.show_key, substr(h.show_key, 12, 5) as show_time, h.film_name, h.seat,
              case when h.state = 'sold' then 'sold' else 'held' end as state, 0 as source,
              h.order_key as reference, h.counter_id, h.created_at as at
         from seat_holds h
        where h.practice = ${pr} and left(h.show_key, 10) = ${day} and ${liveRow(at)}
          and (${time}::text is null or substr(h.show_key, 12, 5) = ${time})
       union all
       select o.branch, ${orderShowKey(demo)}, o.show_time, o.film_name, u.seat,
              case when ${ORDER_PAID} then 'sold' else 'waiting' end, 1,
              o.reference, o.counter_id, o.created_at
         from dash_orders o
        cross join lateral unnest(regexp_split_to_array(upper(coalesce(o.seats, '')), '${SEAT_SEPARATORS_PATTERN}')) as u(seat)
        where o.practice = ${pr} and o.show_date = ${day} and (${time}::text is null or o.show_time = ${time}) and u.seat <> ''
          and not (u.seat = any(o.cancelled_seats))
          and (${ORDER_PAID} or (o.state in (${OPEN}) and o.created_at > ${openSince}
               and not exists (select 1 from counters rc where rc.id = o.counter_id and rc.revoked_at is not null))))
     select t.*, c.name as counter_name from t join counters c on c.id = t.counter_id ${w.sql()}`,
    w.params,
  );
  const best = new Map<string, TakenSeat & { rank: number }>();
  const madeAt = new Map<string, number>();
  for (const r of rows) {
    if (num(r.source) === 1) madeAt.set(`${String(r.counter_id)}\u0000${String(r.reference)}`, num(r.at));
    const state = String(r.state) as TakenState;
    const line = {
      branch: String(r.branch),
      showKey: r.show_key === null ? null : String(r.show_key),
      seat: String(r.seat),
      state,
      counterId: String(r.counter_id),
      counterName: String(r.counter_name),
      reference: String(r.reference),
      at: num(r.at),
      filmName: r.film_name === null ? null : String(r.film_name),
      rank: RANK[state] + num(r.source),
    };
    // Without a screen every screen's line of a seat competes; else each show has its own.
    const k = `${line.branch}\u0000${show && !('showKey' in show) ? '' : line.showKey}\u0000${line.seat}`;
    const had = best.get(k);
    if (!had || line.rank < had.rank || (line.rank === had.rank && line.at < had.at)) best.set(k, line);
  }
  return [...best.values()]
    .sort(
      (a, b) =>
        a.branch.localeCompare(b.branch) ||
        (a.showKey ?? '').localeCompare(b.showKey ?? '') ||
        a.seat.localeCompare(b.seat),
    )
    .map(({ rank: _, ...x }) => ({ ...x, at: madeAt.get(`${x.counterId}\u0000${x.reference}`) ?? x.at }));
}

/**
 * The seat check (`POST /seats/check`): which asked seats of the show are taken (takenOf), in the
 * asked order: paid when sold, waiting when held or in a sale still open. The show is keyed with its
 * screen; a request without one (an older counter) reads the film at that time on every screen.
 */
export async function seatConflicts(
  q: SqlRunner,
  branch: string,
  r: SeatCheckRequest & { practice: boolean },
  now: number,
): Promise<HubSeatConflict[]> {
  const screen = r.show.screen?.trim();
  const asked = r.seats.map((s) => s.trim().toUpperCase());
  const taken = await takenOf(
    q,
    {
      scope: { kind: 'branch', branch },
      practice: r.practice,
      show: screen
        ? { showKey: keyOfShow({ date: r.show.date, time: r.show.time, screen }) }
        : { date: r.show.date, time: r.show.time, filmName: r.show.filmName },
      seats: [...new Set(asked)],
    },
    now,
  );
  const bySeat = new Map(taken.map((t) => [t.seat, t]));
  return asked.flatMap((seat): HubSeatConflict[] => {
    const t = bySeat.get(seat);
    return t
      ? [
          {
            seat,
            counterId: t.counterId,
            counterName: t.counterName,
            state: t.state === 'sold' ? 'paid' : 'waiting',
            at: t.at,
            reference: t.reference,
          },
        ]
      : [];
  });
}
