// Seat holds across a branch's counters (table seat_holds). A sale's seats are held for its order
// (orderKey = the sale's outOrderNo) before its customer is charged, all or none, only for a show of
// the branch's programme with a seat map and only seats of that map (seat-rules.ts); the database
// settles a race (a unique index on the live rows of a seat: held or sold), so of two counters
// asking for one seat exactly one gets it. A counter may release its hold; a seat becomes sold only
// when the counter's journal syncs the order paid with it (seat-settle.ts), or lapses at its `until`
// (sold after all when the journal already says paid with that seat). A revoked counter's holds end
// at once (seat-release.ts). Each change NOTIFYs SEATS_CHANNEL; every Hub instance tells the
// branch's relay streams (`event: seats`, streams/seat-signal.ts). The counter's seat map reads a
// show's taken seats (seat-taken.ts: these live rows and the synced sales), as the seat check does.
import type { HubSeatTaken, SeatHoldRequestBody, SeatHoldResponse } from '../../shared/hub-seats-contract';
import { counterCode, referenceCounterCode } from '../../shared/counter-code';
import { SEAT_SEPARATORS_PATTERN } from '../../shared/seat-list';
import { showKey as keyOfShow } from '../../shared/programme';
import type { HubDb, SqlRunner } from '../db/adapter';
import { num } from '../db/adapter';
import { fail } from '../errors';
import { checkHeldCap, checkSeatsOf, holdableShow, holdBound, liveHeld, liveRow } from './seat-rules';
import { ORDER_PAID, takenOf } from './seat-taken';

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

/**
 * The journal says the hold's order was paid with the hold's seat of its show (real or practice
 * alike): the order paid (or paid after closing), its seats naming the seat (and no cancel since
 * taking it out, after-sale.ts), its date and time the show's. SQL over a seat_holds row `h`.
 */
export const PAID_WITH_SEAT = `exists (select 1 from dash_orders o
   where o.counter_id = h.counter_id and o.reference = h.order_key and o.practice = h.practice
     and ${ORDER_PAID}
     and left(h.show_key, 17) = o.show_date || ' ' || o.show_time || ' '
     and h.seat = any(regexp_split_to_array(upper(coalesce(o.seats, '')), '${SEAT_SEPARATORS_PATTERN}'))
     and not (h.seat = any(o.cancelled_seats)))`;

/** A held row past its `until` ends: sold when the journal already says its order was paid with that seat, else lapsed. */
const LAPSE_STATE = `case when ${PAID_WITH_SEAT} then 'sold' else 'lapsed' end`;

export async function notifyShows(q: SqlRunner, shows: Iterable<string>): Promise<void> {
  for (const payload of new Set(shows)) await q.query('select pg_notify($1, $2)', [SEATS_CHANNEL, payload]);
}

const takenOfRow = (r: Row): HubSeatTaken => ({
  seat: String(r.seat),
  state: r.state === 'sold' ? 'sold' : 'held',
  counterId: String(r.counter_id),
  counterName: String(r.counter_name),
});

/** The live rows (sold, or held, not past `until`, by a counter not revoked) of a show, or of some of its seats. */
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
      where h.branch = $1 and h.practice = $2 and h.show_key = $3 and ${liveRow('$4')}
        ${seats ? 'and h.seat = any($5::text[])' : ''}
      order by h.seat`,
    seats ? [branch, practice, showKey, now, seats] : [branch, practice, showKey, now],
  );
}

/**
 * The seats of a show taken on any counter of the branch (the counter's seat map): takenOf, a sale
 * still open (held or waiting) as held; only some seats, and not those of one sale (the one asking
 * to hold them), when given.
 */
export async function takenSeats(
  q: SqlRunner,
  branch: string,
  practice: boolean,
  showKey: string,
  now: number,
  seats?: string[],
  exceptOrder?: string,
  exceptCounter?: string,
): Promise<HubSeatTaken[]> {
  const taken = await takenOf(q, { scope: { kind: 'branch', branch }, practice, show: { showKey }, seats }, now);
  return taken
    .filter((t) => !(t.reference === exceptOrder && t.counterId === exceptCounter))
    .map((t) => ({
      seat: t.seat,
      state: t.state === 'sold' ? 'sold' : 'held',
      counterId: t.counterId,
      counterName: t.counterName,
    }));
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
 * Holds every asked seat of the show for the order until now + holdMs (never past the sale's first
 * hold + MAX_HOLD_MS), or none: `taken` lists the seats another sale holds or sold. Asking again for
 * the same order (a retry) keeps its seats and moves its `until` on within that bound. Refused
 * (HUB_SEATS_UNKNOWN) for a show not in the programme or seats not in its map, (HUB_HOLD_LIMIT)
 * past the counter's cap or the sale's payment time, (HUB_COUNTER_REVOKED) for a revoked counter.
 */
export async function holdSeats(
  db: HubDb,
  c: HoldingCounter,
  r: SeatHoldRequestBody,
  now: number,
): Promise<SeatHoldResponse> {
  const showKey = keyOfShow(r.show);
  const seats = [...new Set(r.seats)].sort();
  const mine = (row: Row) => String(row.order_key) === r.orderKey && String(row.counter_id) === c.id;
  try {
    return await db.tx(async (q) => {
      // The counter's row is the lock of its holds: its cap is counted by one hold at a time, and a
      // revoke (which ends its holds) waits for this one or is seen by it.
      const me = await q.query<Row>('select revoked_at from counters where id = $1 for update', [c.id]);
      if (!me[0] || me[0].revoked_at !== null)
        throw fail(
          'HUB_COUNTER_REVOKED',
          403,
          'This counter was removed from the Hub by its manager: it holds no seats.',
        );
      await checkOwner(q, c, r.orderKey);
      const show = await holdableShow(q, c.branch, r, now);
      checkSeatsOf(show.layout, seats);
      await checkHeldCap(q, c.id, r.orderKey, seats.length, now);
      const until = Math.min(now + r.holdMs, await holdBound(q, c.id, r.orderKey, now));
      // Holds of these seats past their `until`, or of a revoked counter, end first (so the unique index lets a new one in).
      const ended = await q.query(
        `update seat_holds h set state = case when h.until_at > $5 then 'released' else ${LAPSE_STATE} end, settled_at = $5
          where h.branch = $1 and h.practice = $2 and h.show_key = $3 and h.seat = any($4::text[]) and h.state = 'held'
            and not ${liveHeld('$5')}
          returning h.id`,
        [c.branch, r.practice, showKey, seats, now],
      );
      const live = await liveRows(q, c.branch, r.practice, showKey, now, seats);
      // Taken as the maps and the seat check say (seat-taken.ts): a live hold of another sale, or a
      // seat of another synced sale paid or still open (made while the Hub was unreachable).
      const others = await takenSeats(q, c.branch, r.practice, showKey, now, seats, r.orderKey, c.id);
      if (others.length) {
        if (ended.length) await notifyShows(q, [seatsNotice(c.branch, showKey, r.practice)]);
        return { kind: 'taken', showKey, taken: others };
      }
      const have = new Set(live.map((row) => String(row.seat)));
      const missing = seats.filter((s) => !have.has(s));
      if (missing.length) {
        const ins = await q.query(
          `insert into seat_holds (branch, practice, show_key, seat, order_key, counter_id, film_name, state, until_at, created_at)
           select $1, $2, $3, t.seat, $4, $5, $6, 'held', $7, $8 from unnest($9::text[]) as t(seat)
           on conflict (branch, practice, show_key, seat) where state in ('held', 'sold') do nothing
           returning seat`,
          [c.branch, r.practice, showKey, r.orderKey, c.id, show.filmName, until, now, missing],
        );
        // Another sale's hold of one of them committed after the read: none of this one is kept.
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
    return { kind: 'taken', showKey, taken: live.filter((row) => !mine(row)).map(takenOfRow) };
  }
}

/**
 * Releases the holds of a counter's order (its sale failed, was cancelled or expired): the seats
 * are free again. Returns the seats changed. A counter cannot sell by a settle (seat-settle.ts).
 */
export async function releaseSeats(
  db: HubDb,
  c: { id: string; branch: string },
  orderKey: string,
  now: number,
): Promise<number> {
  return db.tx(async (q) => {
    const changed = await q.query<Row>(
      `update seat_holds set state = 'released', settled_at = $3
        where order_key = $1 and counter_id = $2 and state = 'held'
        returning branch, show_key, practice`,
      [orderKey, c.id, now],
    );
    await notifyShows(
      q,
      changed.map((r) => seatsNotice(String(r.branch), String(r.show_key), r.practice === true)),
    );
    return changed.length;
  });
}

/** Ends the holds past their `until` (sold when the journal says paid with the seat, else lapsed) and those of revoked counters (released), and tells their shows' counters. */
export async function sweepLapsedHolds(db: HubDb, now: number): Promise<number> {
  return db.tx(async (q) => {
    const rows = await q.query<Row>(
      `update seat_holds h set state = case when h.until_at > $1 then 'released' else ${LAPSE_STATE} end, settled_at = $1
        where h.state = 'held' and not ${liveHeld('$1')} returning h.branch, h.show_key, h.practice`,
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
    `select count(*) as n from seat_holds h join counters c on c.id = h.counter_id
      where h.branch = $1 and h.show_key = $2 and ${liveRow('$3')}`,
    [branch, showKey, now],
  );
  return num(r[0]!.n);
}
