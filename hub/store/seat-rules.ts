// What a counter may hold (docs/seat-maps.md, "What a counter is trusted with"): the Hub owns the
// seat truth and a counter only asks. A hold names a show of the branch's programme whose screen
// has a seat map, and seats of that map that are not blocked; a practice (Demo or Sandbox) hold may
// also name a show of the Demo programme (yesterday to tomorrow, Lagos). A counter holds at most
// MAX_HELD_SEATS_PER_COUNTER seats at once, and a sale's hold never lasts past its first hold plus
// MAX_HOLD_MS (the longest payment time of an order and a margin), renewals included.
import { demoProgramme } from '../../shared/demo-programme';
import { MAX_HELD_SEATS_PER_COUNTER, MAX_HOLD_MS, type SeatHoldRequestBody } from '../../shared/hub-seats-contract';
import { checkLayoutFile } from '../../shared/seat-layout';
import type { ScreenLayout } from '../../shared/seats';
import { addDays, lagosDate } from '../../shared/time';
import type { SqlRunner } from '../db/adapter';
import { num } from '../db/adapter';
import { fail } from '../errors';
import { screenKey } from './screen-layouts';

type Row = Record<string, unknown>;

/**
 * The live-hold condition, the only copy: a seat_holds row (alias `h`) held, not past its `until`
 * (`now`: an SQL placeholder such as `$4`), by a counter not revoked (a revoked counter's held rows
 * are not live even before the revoke or the sweep ends them).
 */
export const liveHeld = (now: string, h = 'h') =>
  `(${h}.state = 'held' and ${h}.until_at > ${now} and not exists (select 1 from counters rc where rc.id = ${h}.counter_id and rc.revoked_at is not null))`;
/** A seat_holds row that takes its seat: sold, or live held. */
export const liveRow = (now: string, h = 'h') => `(${h}.state = 'sold' or ${liveHeld(now, h)})`;

/** The show a hold may name: its film as the programme names it, and its screen's seat map. */
export interface HoldableShow {
  filmName: string;
  layout: ScreenLayout;
}

const demoLayout = (() => {
  const p = demoProgramme('2000-01-01', '2000-01-02');
  const r = checkLayoutFile(p.layouts![0]);
  if (r.kind !== 'ok') throw new Error('the Demo layout does not read');
  return r.layout;
})();

/** Layouts read from their stored file, by branch, screen and upload time: a hold does not check the file again (5 ms for 1,300 seats). */
const layoutCache = new Map<string, ScreenLayout | null>();
const LAYOUT_CACHE_SIZE = 64;
function layoutOf(cacheKey: string, text: string): ScreenLayout | null {
  const hit = layoutCache.get(cacheKey);
  if (hit !== undefined) return hit;
  const r = checkLayoutFile(JSON.parse(text) as unknown);
  const l = r.kind === 'ok' ? r.layout : null;
  if (layoutCache.size >= LAYOUT_CACHE_SIZE) layoutCache.delete(layoutCache.keys().next().value!);
  layoutCache.set(cacheKey, l);
  return l;
}

/** The shows of the Demo programme of yesterday, today and tomorrow (Lagos): a practice sale may be of one. */
export function demoShowsAround(now: number): { date: string; time: string; film: string; screen: string }[] {
  const today = lagosDate(now);
  const one = demoProgramme(today, today).shows.filter((s) => s.date === today);
  return [addDays(today, -1), today, addDays(today, 1)].flatMap((date) =>
    one.map((s) => ({ date, time: s.time, film: s.film, screen: s.screen })),
  );
}

/** The Demo layout of a Demo show's screen, or null (its seats are typed). */
export const demoLayoutOf = (screen: string): ScreenLayout | null =>
  screenKey(screen) === screenKey(demoLayout.screen) ? demoLayout : null;

/** A show of the Demo programme of yesterday, today or tomorrow (Lagos) with a seat map, or null. */
function demoShow(show: SeatHoldRequestBody['show'], now: number): HoldableShow | null {
  const today = lagosDate(now);
  const p = demoProgramme(addDays(today, -1), addDays(today, 1));
  const days = new Set([addDays(today, -1), today, addDays(today, 1)]);
  const times = new Set(p.shows.filter((s) => screenKey(s.screen) === screenKey(demoLayout.screen)).map((s) => s.time));
  if (!days.has(show.date) || !times.has(show.time) || screenKey(show.screen) !== screenKey(demoLayout.screen))
    return null;
  return {
    filmName: p.shows.find((s) => s.time === show.time && screenKey(s.screen) === screenKey(demoLayout.screen))!.film,
    layout: demoLayout,
  };
}

/**
 * The show of the hold, found in the branch's programme (by date, time and screen, any case) with
 * its screen's seat map; refused HUB_SEATS_UNKNOWN when there is none, naming what is missing.
 */
export async function holdableShow(
  q: SqlRunner,
  branch: string,
  r: Pick<SeatHoldRequestBody, 'show' | 'practice'>,
  now: number,
): Promise<HoldableShow> {
  const key = screenKey(r.show.screen);
  const shows = await q.query<Row>(
    `select s.film, l.layout, l.updated_at from programme_shows s
       left join screen_layouts l on l.branch = s.branch and l.screen_key = $4
      where s.branch = $1 and s.show_date = $2 and s.show_time = $3 and lower(trim(s.screen)) = $4
      order by s.position limit 1`,
    [branch, r.show.date, r.show.time, key],
  );
  const found = shows[0];
  if (found && found.layout !== null) {
    const l = layoutOf(`${branch}\u0000${key}\u0000${String(found.updated_at)}`, String(found.layout));
    if (l) return { filmName: String(found.film), layout: l };
  }
  const demo = r.practice ? demoShow(r.show, now) : null;
  if (demo) return demo;
  const what = `${r.show.date} ${r.show.time} on ${r.show.screen}`;
  if (!found)
    throw fail(
      'HUB_SEATS_UNKNOWN',
      422,
      `The show ${what} is not in this branch's programme: seats are held only for the programme's shows. Fetch the programme again on the counter.`,
      { reason: 'show', show: r.show },
    );
  throw fail(
    'HUB_SEATS_UNKNOWN',
    422,
    `${r.show.screen} has no seat map on the Hub: its seats are typed at the counter and not held.`,
    { reason: 'layout', screen: r.show.screen },
  );
}

/** Every seat must exist in the seat map and not be blocked; refused HUB_SEATS_UNKNOWN naming the others. */
export function checkSeatsOf(layout: ScreenLayout, seats: readonly string[]): void {
  const known = new Map<string, boolean>();
  for (const row of layout.rows) for (const c of row.cells) if (c.kind === 'seat') known.set(c.id, c.blocked);
  const unknown = seats.filter((s) => !known.has(s));
  const blocked = seats.filter((s) => known.get(s) === true);
  if (!unknown.length && !blocked.length) return;
  const parts = [
    unknown.length
      ? `${unknown.slice(0, 10).join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not in the seat map of ${layout.screen}`
      : null,
    blocked.length ? `${blocked.slice(0, 10).join(', ')} ${blocked.length === 1 ? 'is' : 'are'} blocked` : null,
  ].filter(Boolean);
  throw fail('HUB_SEATS_UNKNOWN', 422, `${parts.join('; ')}: choose seats of the map.`, {
    reason: 'seats',
    unknown: unknown.slice(0, 50),
    blocked: blocked.slice(0, 50),
  });
}

/**
 * The latest `until` a hold of this sale may have: its first hold (of any seat, ever) plus
 * MAX_HOLD_MS. Refused HUB_HOLD_LIMIT once that is past: the sale's payment time is over.
 */
export async function holdBound(q: SqlRunner, counterId: string, orderKey: string, now: number): Promise<number> {
  const r = await q.query<{ first: unknown }>(
    'select min(created_at) as first from seat_holds where order_key = $1 and counter_id = $2',
    [orderKey, counterId],
  );
  const first = r[0]?.first === null || r[0]?.first === undefined ? now : num(r[0].first);
  const bound = first + MAX_HOLD_MS;
  if (bound <= now)
    throw fail(
      'HUB_HOLD_LIMIT',
      409,
      `The sale ${orderKey} was first held ${Math.round((now - first) / 60_000)} minutes ago: its payment time is over, its seats are not held again. Make a new sale.`,
      { reason: 'expired', firstHeldAt: first, maxHoldMs: MAX_HOLD_MS },
    );
  return bound;
}

/** A counter holds at most MAX_HELD_SEATS_PER_COUNTER seats at once (this sale's own held seats count once). */
export async function checkHeldCap(
  q: SqlRunner,
  counterId: string,
  orderKey: string,
  adding: number,
  now: number,
): Promise<void> {
  const r = await q.query<{ n: unknown }>(
    `select count(*) as n from seat_holds h where h.counter_id = $1 and ${liveHeld('$2')} and h.order_key <> $3`,
    [counterId, now, orderKey],
  );
  const held = num(r[0]!.n);
  if (held + adding > MAX_HELD_SEATS_PER_COUNTER)
    throw fail(
      'HUB_HOLD_LIMIT',
      409,
      `This counter already holds ${held} seats for sales being paid: at most ${MAX_HELD_SEATS_PER_COUNTER} at once. Finish or cancel a sale first.`,
      { reason: 'counter', held, limit: MAX_HELD_SEATS_PER_COUNTER },
    );
}
