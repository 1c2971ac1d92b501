// The dashboard's view of seats (scoped by the manager's branch; the real seats, or the practice
// ones when asked): a day's shows with their occupancy (sold, held, free of the layout's capacity)
// counted here from the taken seats (seat-taken.ts, the read behind the counters' maps and the seat
// check too), one show's seats for the read-only map, and the seats sold twice (a paid sale synced
// for a seat another paid sale already had: possible only when sold while the Hub was unreachable)
// with both sales, practice ones marked, and the real ones in Needs attention (newest first per
// branch, at most SOLD_TWICE_PER_BRANCH each, with each branch's count). Screens display these
// figures; they never count seats themselves.
import type { AttentionLine } from '../../shared/hub-dashboard-contract';
import {
  SOLD_TWICE_PER_BRANCH,
  type DashSeatTaken,
  type OccupancyView,
  type ShowOccupancy,
  type ShowSeatsView,
  type SoldTwiceView,
} from '../../shared/hub-seats-contract';
import { showKey as keyOfShow } from '../../shared/programme';
import type { SqlRunner } from '../db/adapter';
import { num } from '../db/adapter';
import type { ScreenLayout } from '../../shared/seats';
import { layoutsOf, screenKey } from './screen-layouts';
import { demoLayoutOf } from './seat-rules';
import { takenOf } from './seat-taken';
import { Where, type Scope } from './scope';

type Row = Record<string, unknown>;

/** A screen's layout in the branch; for practice, the Demo layout when the branch has none (a Demo show's). */
const layoutOf = (layouts: Map<string, ScreenLayout>, branch: string, screen: string, practice: boolean) =>
  layouts.get(`${branch}\u0000${screenKey(screen)}`) ?? (practice ? demoLayoutOf(screen) : null);

/** date, time and screen (lower case) of a show key. */
const partsOf = (key: string) => ({ date: key.slice(0, 10), time: key.slice(11, 16), screen: key.slice(17) });

interface Counted {
  sold: number;
  held: number;
  soldTwice: number;
  filmName: string | null;
}

/** Sold and held seats per show of the day (takenOf: a sale still open counts as held), and its seats sold twice. */
async function counts(
  q: SqlRunner,
  scope: Scope,
  day: string,
  practice: boolean,
  now: number,
  branchFilter?: string,
): Promise<Map<string, Counted>> {
  const out = new Map<string, Counted>();
  const get = (branch: string, key: string, filmName: string | null) => {
    const k = `${branch}\u0000${key}`;
    const c = out.get(k) ?? { sold: 0, held: 0, soldTwice: 0, filmName };
    out.set(k, c);
    return c;
  };
  for (const t of await takenOf(q, { scope, branch: branchFilter, practice, day }, now)) {
    const c = get(t.branch, t.showKey!, t.filmName);
    if (t.state === 'sold') c.sold += 1;
    else c.held += 1;
  }
  const w = new Where(scope, 'h.branch', branchFilter);
  w.and(`h.practice = ${w.p(practice)}`)
    .and(`h.show_key like ${w.p(`${day} %`)}`)
    .and(`h.state = 'double'`);
  const twice = await q.query<Row>(
    `select h.branch, h.show_key, min(h.film_name) as film_name, count(*) as n from seat_holds h ${w.sql()} group by h.branch, h.show_key`,
    w.params,
  );
  for (const r of twice)
    get(String(r.branch), String(r.show_key), r.film_name === null ? null : String(r.film_name)).soldTwice = num(r.n);
  return out;
}

/** Every show of a Lagos day in the scope: those of the programme, and any other with seats taken. */
export async function occupancy(
  q: SqlRunner,
  scope: Scope,
  day: string,
  now: number,
  branchFilter?: string,
  practice = false,
): Promise<OccupancyView> {
  const pw = new Where(scope, 's.branch', branchFilter);
  pw.and(`s.show_date = ${pw.p(day)}`);
  const planned = await q.query<Row>(
    `select s.branch, s.film, f.title, s.screen, s.show_time from programme_shows s
       left join programme_films f on f.branch = s.branch and lower(f.name) = lower(s.film) ${pw.sql()}`,
    pw.params,
  );
  const taken = await counts(q, scope, day, practice, now, branchFilter);
  const shows = new Map<string, Omit<ShowOccupancy, 'capacity' | 'sold' | 'held' | 'free' | 'soldTwice'>>();
  for (const p of planned) {
    const key = keyOfShow({ date: day, time: String(p.show_time), screen: String(p.screen) });
    shows.set(`${String(p.branch)}\u0000${key}`, {
      branch: String(p.branch),
      showKey: key,
      filmName: String(p.film),
      filmTitle: p.title === null ? null : String(p.title),
      screen: String(p.screen),
      date: day,
      time: String(p.show_time),
    });
  }
  for (const [k, c] of taken) {
    if (shows.has(k)) continue;
    const [branch, key] = k.split('\u0000') as [string, string];
    const p = partsOf(key);
    shows.set(k, {
      branch,
      showKey: key,
      filmName: c.filmName,
      filmTitle: null,
      screen: p.screen,
      date: p.date,
      time: p.time,
    });
  }
  const layouts = await layoutsOf(q, [...new Set([...shows.values()].map((s) => s.branch))]);
  const list = [...shows.entries()].map(([k, s]): ShowOccupancy => {
    const c = taken.get(k) ?? { sold: 0, held: 0, soldTwice: 0 };
    const capacity = layoutOf(layouts, s.branch, s.screen, practice)?.capacity ?? null;
    return {
      ...s,
      capacity,
      sold: c.sold,
      held: c.held,
      free: capacity === null ? null : Math.max(0, capacity - c.sold - c.held),
      soldTwice: c.soldTwice,
    };
  });
  list.sort(
    (a, b) => a.time.localeCompare(b.time) || a.branch.localeCompare(b.branch) || a.screen.localeCompare(b.screen),
  );
  return { day, shows: list };
}

/** One show's seats for the read-only map; null when the scope does not reach the branch. */
export async function showSeats(
  q: SqlRunner,
  scope: Scope,
  branch: string,
  key: string,
  now: number,
  practice = false,
): Promise<ShowSeatsView | null> {
  if (scope.kind === 'branch' && scope.branch !== branch) return null;
  const day = await occupancy(q, scope, key.slice(0, 10), now, branch, practice);
  const p = partsOf(key);
  const occ: ShowOccupancy = day.shows.find((s) => s.showKey === key) ?? {
    branch,
    showKey: key,
    filmName: null,
    filmTitle: null,
    screen: p.screen,
    date: p.date,
    time: p.time,
    capacity: null,
    sold: 0,
    held: 0,
    free: null,
    soldTwice: 0,
  };
  const layout = layoutOf(await layoutsOf(q, [branch]), branch, occ.screen, practice);
  const taken = (await takenOf(q, { scope, branch, practice, show: { showKey: key } }, now)).map(
    (t): DashSeatTaken => ({
      seat: t.seat,
      state: t.state === 'sold' ? 'sold' : 'held',
      counterId: t.counterId,
      counterName: t.counterName,
      reference: t.reference,
      at: t.at,
    }),
  );
  return { occupancy: occ, layout, taken };
}

/**
 * The seats sold to two paid sales of one show, with both: the one that had it first, then the
 * other; the newest SOLD_TWICE_PER_BRANCH of each branch, newest first, and every branch's count.
 * Practice (Demo, Sandbox) ones are listed too, marked practice (each with the other practice sale),
 * unless `realOnly`.
 */
export async function soldTwice(
  q: SqlRunner,
  scope: Scope,
  branchFilter?: string,
  realOnly = false,
): Promise<SoldTwiceView> {
  const w = new Where(scope, 'd.branch', branchFilter);
  w.and(`d.state = 'double'`);
  if (realOnly) w.and('not d.practice');
  const counted = await q.query<Row>(
    `select d.branch, count(*) as n from seat_holds d ${w.sql()} group by d.branch order by d.branch`,
    w.params,
  );
  const rows = await q.query<Row>(
    `select * from (
       select d.branch, d.practice, d.show_key, d.seat, d.order_key as d_ref, d.counter_id as d_counter, dc.name as d_name, d.created_at as d_at,
              s.order_key as s_ref, s.counter_id as s_counter, sc.name as s_name, s.created_at as s_at,
              row_number() over (partition by d.branch order by d.created_at desc, d.id desc) as rn
         from seat_holds d join counters dc on dc.id = d.counter_id
         left join seat_holds s on s.branch = d.branch and s.practice = d.practice and s.show_key = d.show_key and s.seat = d.seat and s.state = 'sold'
         left join counters sc on sc.id = s.counter_id
         ${w.sql()}) x
      where x.rn <= ${w.p(SOLD_TWICE_PER_BRANCH)} order by x.branch, x.rn`,
    w.params,
  );
  const lines = rows.map((r) => ({
    branch: String(r.branch),
    practice: r.practice === true,
    showKey: String(r.show_key),
    seat: String(r.seat),
    sales: [
      ...(r.s_ref === null
        ? []
        : [
            {
              reference: String(r.s_ref),
              counterId: String(r.s_counter),
              counterName: String(r.s_name),
              at: num(r.s_at),
            },
          ]),
      { reference: String(r.d_ref), counterId: String(r.d_counter), counterName: String(r.d_name), at: num(r.d_at) },
    ],
  }));
  return { lines, counts: counted.map((r) => ({ branch: String(r.branch), seats: num(r.n) })) };
}

/**
 * Needs attention: one line per seat sold twice, naming both sales, the newest first in each branch;
 * a branch with more than are listed gets one more line with its count.
 */
export async function soldTwiceLines(
  q: SqlRunner,
  scope: Scope,
  lines: AttentionLine[],
  branchFilter?: string,
): Promise<void> {
  const v = await soldTwice(q, scope, branchFilter, true);
  for (const c of v.counts) {
    const listed = v.lines.filter((s) => s.branch === c.branch);
    for (const s of listed) {
      const last = s.sales[s.sales.length - 1]!;
      const both = s.sales.map((x) => `${x.reference} (${x.counterName})`).join(' and ');
      lines.push({
        kind: 'seat-sold-twice',
        branch: s.branch,
        counterId: last.counterId,
        counterName: last.counterName,
        orderId: null,
        notificationId: null,
        shiftId: null,
        since: last.at,
        subject: `Seat ${s.seat} of the show ${s.showKey} was sold twice: ${both}`,
        todo: `Seat one of the two customers elsewhere before the show (the second sale was made while its counter could not reach the Hub). Search Orders for ${last.reference}.`,
      });
    }
    if (c.seats > listed.length)
      lines.push({
        kind: 'seat-sold-twice',
        branch: c.branch,
        counterId: null,
        counterName: null,
        orderId: null,
        notificationId: null,
        shiftId: null,
        since: listed[listed.length - 1]?.sales.at(-1)?.at ?? 0,
        subject: `${c.seats} seats were sold twice in this branch: the newest ${listed.length} are listed above, ${c.seats - listed.length} older ones are not`,
        todo: "Shows lists each show's seats sold twice (Seats: … sold twice); seat the customers of the older ones too.",
      });
  }
}
