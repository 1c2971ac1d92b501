// Seat holds across a branch's counters (table seat_holds). A sale's seats are held for its order
// (orderKey = the sale's outOrderNo) before its customer is charged, all or none; the database
// settles a race (a unique index on the live rows of a seat: held or sold), so of two counters
// asking for one seat exactly one gets it. A hold ends sold or released when the counter settles
// it or its journal syncs the order in a final state, or lapses at its `until` (sold after all when
// the journal already says paid). Each change NOTIFYs SEATS_CHANNEL; every Hub instance tells the
// branch's relay streams (`event: seats`, streams/seat-signal.ts).
import type { SyncEvent } from '../../shared/hub-contract';
import type { HubSeatTaken, SeatHoldRequestBody, SeatHoldResponse } from '../../shared/hub-seats-contract';
import { counterCode, referenceCounterCode } from '../../shared/counter-code';
import { showKey as keyOfShow } from '../../shared/programme';
import type { HubDb, SqlRunner } from '../db/adapter';
import { num } from '../db/adapter';
import { fail } from '../errors';
import { seatList } from './programme';

/** The NOTIFY channel of seat changes; payload JSON [branch, showKey, practice]. */
export const SEATS_CHANNEL = 'hub_seats';
export const seatsNotice = (branch: string, showKey: string, practice?: boolean) =>
  JSON.stringify(practice === undefined ? [branch, showKey] : [branch, showKey, practice]);
/** practice null: the notice does not say (an older instance): both kinds of streams are told. */
export function readSeatsNotice(payload: string): { branch: string; showKey: string; practice: boolean | null } | null {
  try {
    const v: unknown = JSON.parse(payload);
    return Array.isArray(v) && typeof v[0] === 'string' && typeof v[1] === 'string'
      ? { branch: v[0], showKey: v[1], practice: typeof v[2] === 'boolean' ? v[2] : null }
      : null;
  } catch {
    return null;
  }
}

export interface HoldingCounter {
  id: string;
  name: string;
  branch: string;
}

type Row = Record<string, unknown>;

/** A held row past its `until` ends: sold when the journal already says its order was paid, else lapsed. */
const LAPSE_STATE = `case when exists (select 1 from dash_orders o where o.counter_id = h.counter_id and o.reference = h.order_key and o.state = 'paid')
                     then 'sold' else 'lapsed' end`;

async function notifyShows(q: SqlRunner, shows: Iterable<string>): Promise<void> {
  for (const payload of new Set(shows)) await q.query('select pg_notify($1, $2)', [SEATS_CHANNEL, payload]);
}

const takenOf = (r: Row): HubSeatTaken => ({
  seat: String(r.seat),
  state: r.state === 'sold' ? 'sold' : 'held',
  counterId: String(r.counter_id),
  counterName: String(r.counter_name),
});

/** The live rows (sold, or held and not past `until`) of a show, or of some of its seats. */
async function liveRows(
  q: SqlRunner,
  branch: string,
  practice: boolean,
  showKey: string,
  now: number,
  seats: string[] | null,
): Promise<Row[]> {
  return q.query<Row>(
    `select h.seat, h.state, h.order_key, h.counter_id, c.name as counter_name, h.created_at
       from seat_holds h join counters c on c.id = h.counter_id
      where h.branch = $1 and h.practice = $2 and h.show_key = $3
        and (h.state = 'sold' or (h.state = 'held' and h.until_at > $4))
        ${seats ? 'and h.seat = any($5::text[])' : ''}
      order by h.seat`,
    seats ? [branch, practice, showKey, now, seats] : [branch, practice, showKey, now],
  );
}

/** The seats of a show held or sold on any counter of the branch (the counter's seat map). */
export async function takenSeats(
  q: SqlRunner,
  branch: string,
  practice: boolean,
  showKey: string,
  now: number,
): Promise<HubSeatTaken[]> {
  return (await liveRows(q, branch, practice, showKey, now, null)).map(takenOf);
}

class RaceLost extends Error {}
/** unique_violation, deadlock_detected, serialization_failure: another counter's hold won. */
const isRace = (e: unknown) =>
  e instanceof RaceLost ||
  (typeof e === 'object' && e !== null && ['23505', '40P01', '40001'].includes(String((e as { code?: unknown }).code)));

/** The order number must be this counter's (its code, when it carries one) and not held by another counter. */
async function checkOwner(q: SqlRunner, c: HoldingCounter, orderKey: string): Promise<void> {
  const code = referenceCounterCode(orderKey);
  if (code !== null && code !== counterCode(c.name))
    throw fail(
      'HUB_FORBIDDEN',
      403,
      `The order ${orderKey} is another counter's sale: a counter holds seats only for its own sales.`,
    );
  const other = await q.query('select 1 from seat_holds where order_key = $1 and counter_id <> $2 limit 1', [
    orderKey,
    c.id,
  ]);
  if (other.length)
    throw fail('HUB_FORBIDDEN', 403, `Seats are already held for the order ${orderKey} by another counter.`);
}

/**
 * Holds every asked seat of the show for the order until now + holdMs, or none: `taken` lists the
 * seats another sale holds or sold. Asking again for the same order (a retry) keeps its seats and
 * moves its `until` on.
 */
export async function holdSeats(
  db: HubDb,
  c: HoldingCounter,
  r: SeatHoldRequestBody,
  now: number,
): Promise<SeatHoldResponse> {
  const showKey = keyOfShow(r.show);
  const seats = [...new Set(r.seats)].sort();
  const until = now + r.holdMs;
  const mine = (row: Row) => String(row.order_key) === r.orderKey && String(row.counter_id) === c.id;
  try {
    return await db.tx(async (q) => {
      await checkOwner(q, c, r.orderKey);
      // Holds of these seats past their `until` end first (so the unique index lets a new one in).
      const ended = await q.query(
        `update seat_holds h set state = ${LAPSE_STATE}, settled_at = $5
          where h.branch = $1 and h.practice = $2 and h.show_key = $3 and h.seat = any($4::text[]) and h.state = 'held' and h.until_at <= $5
          returning h.id`,
        [c.branch, r.practice, showKey, seats, now],
      );
      const live = await liveRows(q, c.branch, r.practice, showKey, now, seats);
      const others = live.filter((row) => !mine(row));
      if (others.length) {
        if (ended.length) await notifyShows(q, [seatsNotice(c.branch, showKey, r.practice)]);
        return { kind: 'taken', showKey, taken: others.map(takenOf) };
      }
      const have = new Set(live.map((row) => String(row.seat)));
      const missing = seats.filter((s) => !have.has(s));
      if (missing.length) {
        const ins = await q.query(
          `insert into seat_holds (branch, practice, show_key, seat, order_key, counter_id, film_name, state, until_at, created_at)
           select $1, $2, $3, t.seat, $4, $5, $6, 'held', $7, $8 from unnest($9::text[]) as t(seat)
           on conflict (branch, practice, show_key, seat) where state in ('held', 'sold') do nothing
           returning seat`,
          [c.branch, r.practice, showKey, r.orderKey, c.id, r.show.filmName, until, now, missing],
        );
        if (ins.length !== missing.length) throw new RaceLost();
      }
      await q.query(
        `update seat_holds set until_at = greatest(until_at, $4)
          where order_key = $1 and counter_id = $2 and show_key = $3 and state = 'held'`,
        [r.orderKey, c.id, showKey, until],
      );
      if (missing.length || ended.length) await notifyShows(q, [seatsNotice(c.branch, showKey, r.practice)]);
      return { kind: 'held', showKey, until };
    });
  } catch (e) {
    if (!isRace(e)) throw e;
    // Another counter's hold committed first: nothing of this one was kept; say whose seats they are.
    const live = await liveRows(db, c.branch, r.practice, showKey, now, seats);
    return { kind: 'taken', showKey, taken: live.filter((row) => !mine(row)).map(takenOf) };
  }
}

/** A paid order whose hold ended before it was paid (or that held nothing: sold offline) takes its seats as sold; a seat another sale has meanwhile is marked sold twice. */
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
 * Ends the holds of a counter's order: sold (paid) keeps the seats, released frees them. A paid
 * order whose hold had already lapsed or been released takes its seats again (sold twice when
 * another sale has one meanwhile). Returns the seats changed.
 */
export async function settleSeats(
  db: HubDb,
  c: { id: string; branch: string },
  orderKey: string,
  outcome: 'sold' | 'released',
  now: number,
): Promise<number> {
  return db.tx((q) => settleIn(q, c, orderKey, outcome, now));
}

async function settleIn(
  q: SqlRunner,
  c: { id: string; branch: string },
  orderKey: string,
  outcome: 'sold' | 'released',
  now: number,
): Promise<number> {
  const changed = await q.query<Row>(
    `update seat_holds set state = $3, settled_at = $4
      where order_key = $1 and counter_id = $2 and state = 'held'
      returning branch, show_key, practice`,
    [orderKey, c.id, outcome, now],
  );
  let n = changed.length;
  const shows = changed.map((r) => seatsNotice(String(r.branch), String(r.show_key), r.practice === true));
  if (outcome === 'sold') {
    // Seats of this order that ended without being sold, and are not sold under it now.
    const ended = await q.query<Row>(
      `select distinct h.practice, h.show_key, h.seat, h.film_name from seat_holds h
        where h.order_key = $1 and h.counter_id = $2 and h.state in ('released', 'lapsed')
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
 * for its show, found in the branch's programme by film, date and time (the journal does not carry
 * the screen; a film at one time on two screens cannot be told apart and is left alone).
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
  const o = await q.query<Row>(
    `select o.practice, o.film_name, o.seats, s.screen, s.show_date, s.show_time
       from dash_orders o join programme_shows s on s.branch = o.branch and s.show_date = o.show_date and s.show_time = o.show_time and lower(s.film) = lower(o.film_name)
      where o.counter_id = $1 and o.reference = $2 and o.state = 'paid'`,
    [c.id, orderKey],
  );
  if (o.length !== 1) return;
  const r = o[0]!;
  const key = keyOfShow({ date: String(r.show_date), time: String(r.show_time), screen: String(r.screen) });
  const seats = [...new Set(seatList(r.seats as string | null))].filter((s) => /^[A-Z]{1,3}[0-9]{1,3}$/.test(s));
  if (!seats.length) return;
  await sellAgain(q, c, orderKey, r.practice === true, key, String(r.film_name), seats, now);
  await notifyShows(q, [seatsNotice(c.branch, key, r.practice === true)]);
}

/** What a synced journal batch says of the counter's orders: a final state settles their holds. */
export async function settleFromJournal(
  db: HubDb,
  c: { id: string; branch: string },
  events: SyncEvent[],
  now: number,
): Promise<number> {
  const outcomes = new Map<string, 'sold' | 'released'>();
  for (const e of events) {
    if (e.kind === 'order.status') {
      const s = e.payload.status;
      if (s === 'paid') outcomes.set(e.payload.reference, 'sold');
      else if (s === 'failed' || s === 'cancelled' || s === 'expired') outcomes.set(e.payload.reference, 'released');
    } else if (e.kind === 'order.late' && e.payload.kind === 'paid-after-closing')
      outcomes.set(e.payload.reference, 'sold');
  }
  if (!outcomes.size) return 0;
  return db.tx(async (q) => {
    let n = 0;
    for (const [key, outcome] of outcomes) {
      n += await settleIn(q, c, key, outcome, now);
      if (outcome === 'sold') await sellOffline(q, c, key, now);
    }
    return n;
  });
}

/** Ends the holds past their `until` (sold when the journal says paid, else lapsed) and tells their shows' counters. */
export async function sweepLapsedHolds(db: HubDb, now: number): Promise<number> {
  return db.tx(async (q) => {
    const rows = await q.query<Row>(
      `update seat_holds h set state = ${LAPSE_STATE}, settled_at = $1
        where h.state = 'held' and h.until_at <= $1 returning h.branch, h.show_key, h.practice`,
      [now],
    );
    await notifyShows(
      q,
      rows.map((r) => seatsNotice(String(r.branch), String(r.show_key), r.practice === true)),
    );
    return rows.length;
  });
}

/** How many seats are live (held or sold) now: for tests and the benchmark. */
export async function liveSeatCount(q: SqlRunner, branch: string, showKey: string, now: number): Promise<number> {
  const r = await q.query<{ n: unknown }>(
    `select count(*) as n from seat_holds where branch = $1 and show_key = $2 and (state = 'sold' or (state = 'held' and until_at > $3))`,
    [branch, showKey, now],
  );
  return num(r[0]!.n);
}
