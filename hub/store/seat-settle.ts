// What a counter's synced journal says of its sales' seats: the only way a seat becomes sold. An
// order synced paid (or paid after closing) sells the seats it names of its show — its held ones
// and, when its hold had already ended, those again (a seat another sale has meanwhile is marked
// sold twice: a 'double' row, written here alone); a held seat the paid sale does not name is
// released. Failed, cancelled or expired orders release their holds. A paid sale that held nothing
// (sold while the Hub was unreachable) takes its seats of the programme's show (a practice one, of
// the Demo programme's too), sold twice at once when another paid sale has one. A synced sale that
// held nothing changes its show's taken seats (seat-taken.ts): its show's counters are told.
import type { SyncEvent } from '../../shared/hub-contract';
import { SEAT_ID_RE, seatList } from '../../shared/seat-list';
import type { HubDb, SqlRunner } from '../db/adapter';
import { notifyShows, PAID_WITH_SEAT, seatsNotice } from './seat-holds';
import { demoLayoutOf } from './seat-rules';
import { demoParams, ORDER_PAID, orderShowKey } from './seat-taken';
import { checkLayoutFile } from '../../shared/seat-layout';

type Row = Record<string, unknown>;

/** Takes a paid order's seats as sold; a seat another sale has meanwhile is marked sold twice (the 'double' row). */
async function sellAgain(
  q: SqlRunner,
  c: { id: string; branch: string },
  orderKey: string,
  practice: boolean,
  showKey: string,
  filmName: string | null,
  seats: string[],
  now: number,
): Promise<number> {
  if (!seats.length) return 0;
  const ins = await q.query<Row>(
    `insert into seat_holds (branch, practice, show_key, seat, order_key, counter_id, film_name, state, until_at, created_at, settled_at)
     select $1, $2, $3, t.seat, $4, $5, $6, 'sold', $7, $7, $7 from unnest($8::text[]) as t(seat)
     on conflict (branch, practice, show_key, seat) where state in ('held', 'sold') do nothing
     returning seat`,
    [c.branch, practice, showKey, orderKey, c.id, filmName, now, seats],
  );
  const got = new Set(ins.map((r) => String(r.seat)));
  const twice = seats.filter((s) => !got.has(s));
  if (twice.length)
    await q.query(
      `insert into seat_holds (branch, practice, show_key, seat, order_key, counter_id, film_name, state, until_at, created_at, settled_at)
       select $1, $2, $3, t.seat, $4, $5, $6, 'double', $7, $7, $7 from unnest($8::text[]) as t(seat)`,
      [c.branch, practice, showKey, orderKey, c.id, filmName, now, twice],
    );
  return seats.length;
}

/**
 * Ends the holds of a counter's order as its journal says: released frees them; sold keeps the
 * seats the paid order names (the others are released) and takes again those whose hold had
 * already ended (sold twice when another sale has one meanwhile). Returns the seats changed.
 */
async function settleIn(
  q: SqlRunner,
  c: { id: string; branch: string },
  orderKey: string,
  outcome: 'sold' | 'released',
  now: number,
): Promise<number> {
  const changed = await q.query<Row>(
    `update seat_holds h set state = ${outcome === 'sold' ? `case when ${PAID_WITH_SEAT} then 'sold' else 'released' end` : `'released'`}, settled_at = $3
      where h.order_key = $1 and h.counter_id = $2 and h.state = 'held'
      returning h.branch, h.show_key, h.practice`,
    [orderKey, c.id, now],
  );
  let n = changed.length;
  const shows = changed.map((r) => seatsNotice(String(r.branch), String(r.show_key), r.practice === true));
  if (outcome === 'sold') {
    // Seats the paid order names whose hold ended without being sold, and are not sold under it now.
    const ended = await q.query<Row>(
      `select distinct h.practice, h.show_key, h.seat, h.film_name from seat_holds h
        where h.order_key = $1 and h.counter_id = $2 and h.state in ('released', 'lapsed') and ${PAID_WITH_SEAT}
          and not exists (select 1 from seat_holds s where s.order_key = h.order_key and s.counter_id = h.counter_id
                            and s.show_key = h.show_key and s.seat = h.seat and s.state in ('sold', 'double'))`,
      [orderKey, c.id],
    );
    const byShow = new Map<string, Row[]>();
    for (const r of ended) {
      const k = `${String(r.practice)}|${String(r.show_key)}`;
      byShow.set(k, [...(byShow.get(k) ?? []), r]);
    }
    for (const rows of byShow.values()) {
      const r0 = rows[0]!;
      n += await sellAgain(
        q,
        c,
        orderKey,
        r0.practice === true,
        String(r0.show_key),
        r0.film_name === null ? null : String(r0.film_name),
        rows.map((r) => String(r.seat)),
        now,
      );
      shows.push(seatsNotice(c.branch, String(r0.show_key), r0.practice === true));
    }
  }
  await notifyShows(q, shows);
  return n;
}

/**
 * A paid sale that held nothing (made while the Hub was unreachable): its seats are taken as sold
 * for its show, found as the taken seats find it (seat-taken.ts orderShowKey: the programme's one
 * show of its film, date and time, or for a practice sale the Demo programme's; a film at one time
 * on two screens cannot be told apart and is left alone). With a seat map (a practice sale's Demo
 * show: the Demo one), only seats of the map that are not blocked. A seat another sale has is sold
 * twice at once (sellAgain).
 */
async function sellOffline(
  q: SqlRunner,
  c: { id: string; branch: string },
  orderKey: string,
  now: number,
): Promise<void> {
  const held = await q.query('select 1 from seat_holds where order_key = $1 and counter_id = $2 limit 1', [
    orderKey,
    c.id,
  ]);
  if (held.length) return;
  const params: unknown[] = [c.id, orderKey];
  const p = (v: unknown) => `$${params.push(v)}`;
  const o = await q.query<Row>(
    `select o.practice, o.film_name, o.seats, o.cancelled_seats, ${orderShowKey(demoParams(p, true, now))} as show_key
       from dash_orders o
      where o.counter_id = $1 and o.reference = $2
        and ${ORDER_PAID}`,
    params,
  );
  const r = o[0];
  if (!r || r.show_key === null) return;
  const key = String(r.show_key);
  const practice = r.practice === true;
  const cancelled = new Set(pgArray(r.cancelled_seats));
  let seats = [...new Set(seatList(r.seats as string | null))].filter((s) => SEAT_ID_RE.test(s) && !cancelled.has(s));
  const screen = key.slice(17);
  const l = await q.query<Row>('select layout from screen_layouts where branch = $1 and screen_key = $2', [
    c.branch,
    screen,
  ]);
  const stored = l[0] ? checkLayoutFile(JSON.parse(String(l[0].layout)) as unknown) : null;
  const layout = stored?.kind === 'ok' ? stored.layout : practice ? demoLayoutOf(screen) : null;
  if (layout) {
    const open = new Set(
      layout.rows.flatMap((row) => row.cells.flatMap((x) => (x.kind === 'seat' && !x.blocked ? [x.id] : []))),
    );
    seats = seats.filter((s) => open.has(s));
  }
  if (!seats.length) return;
  await sellAgain(q, c, orderKey, practice, key, String(r.film_name), seats, now);
  await notifyShows(q, [seatsNotice(c.branch, key, practice)]);
}

/**
 * Tells the counters of the shows whose taken seats a synced sale that held nothing changed (made,
 * paid or ended while its counter could not reach the Hub): the maps read synced sales too
 * (seat-taken.ts).
 */
async function notifyUnheld(q: SqlRunner, c: { id: string; branch: string }, refs: string[], now: number) {
  const params: unknown[] = [c.id, refs];
  const p = (v: unknown) => `$${params.push(v)}`;
  const rows = await q.query<Row>(
    `select distinct o.practice, ${orderShowKey(demoParams(p, true, now))} as show_key from dash_orders o
      where o.counter_id = $1 and o.reference = any($2::text[]) and coalesce(o.seats, '') <> ''
        and not exists (select 1 from seat_holds x where x.counter_id = o.counter_id and x.order_key = o.reference)`,
    params,
  );
  await notifyShows(
    q,
    rows.filter((r) => r.show_key !== null).map((r) => seatsNotice(c.branch, String(r.show_key), r.practice === true)),
  );
}

/** text[] arrives as an array, or as '{a,b}' text from some type setups. */
const pgArray = (v: unknown): string[] =>
  Array.isArray(v)
    ? v.map(String)
    : typeof v === 'string'
      ? v
          .replace(/^\{|\}$/g, '')
          .split(',')
          .filter(Boolean)
      : [];

/** What a synced journal batch says of the counter's orders: a final state settles their holds. */
export async function settleFromJournal(
  db: HubDb,
  c: { id: string; branch: string },
  events: SyncEvent[],
  now: number,
): Promise<number> {
  const outcomes = new Map<string, 'sold' | 'released'>();
  const refs = new Set<string>();
  for (const e of events) {
    if (e.kind === 'order.created') refs.add(e.payload.reference);
    if (e.kind === 'order.status') {
      refs.add(e.payload.reference);
      const s = e.payload.status;
      if (s === 'paid') outcomes.set(e.payload.reference, 'sold');
      else if (s === 'failed' || s === 'cancelled' || s === 'expired') outcomes.set(e.payload.reference, 'released');
    } else if (e.kind === 'order.late' && e.payload.kind === 'paid-after-closing')
      outcomes.set(e.payload.reference, 'sold');
  }
  if (!outcomes.size && !refs.size) return 0;
  return db.tx(async (q) => {
    let n = 0;
    for (const [key, outcome] of outcomes) {
      n += await settleIn(q, c, key, outcome, now);
      if (outcome === 'sold') await sellOffline(q, c, key, now);
    }
    if (refs.size) await notifyUnheld(q, c, [...refs], now);
    return n;
  });
}
