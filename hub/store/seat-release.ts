// Holds ended by the Hub, not by their counter: a revoked counter's at once (in the revoke's own
// transaction), a show's or a counter's by head office from the dashboard (audited by the route),
// and the pruning of rows that are only history: ended holds a day after they ended, and every row
// of a show more than SEAT_HISTORY_DAYS past (run with the notifications' pruner, server.ts and
// `npm run hub -- prune`). Sold seats stay sold here: they are paid sales; only the sale's own
// counter frees them, by a cancel or an exchange synced from its journal (after-sale.ts: 'cancelled').
import { addDays, lagosDate } from '../../shared/time';
import type { HubDb, SqlRunner } from '../db/adapter';
import { notifyShows, seatsNotice } from './seat-holds';

type Row = Record<string, unknown>;

/** Released and lapsed holds are kept this long after they ended (the dashboard's history of a day). */
export const ENDED_HOLD_KEEP_MS = 86_400_000;
/** Every row of a show (sold, sold twice included) is kept until this many days after the show's date. */
export const SEAT_HISTORY_DAYS = 30;

async function endWhere(q: SqlRunner, where: string, params: unknown[], now: number): Promise<number> {
  const rows = await q.query<Row>(
    `update seat_holds h set state = 'released', settled_at = $1 where h.state = 'held' and ${where}
     returning h.branch, h.show_key, h.practice`,
    [now, ...params],
  );
  await notifyShows(
    q,
    rows.map((r) => seatsNotice(String(r.branch), String(r.show_key), r.practice === true)),
  );
  return rows.length;
}

/** A revoked counter's holds end now (inside the revoke's transaction): its seats are free, its shows told. */
export async function endCounterHolds(q: SqlRunner, counterId: string, now: number): Promise<number> {
  return endWhere(q, 'h.counter_id = $2', [counterId], now);
}

/**
 * Head office ends the live holds of a branch's show, of one of its counters, or of that counter in
 * that show (real and practice alike); returns how many seats were released.
 */
export async function releaseHolds(
  db: HubDb,
  r: { branch: string; showKey?: string | undefined; counterId?: string | undefined },
  now: number,
): Promise<number> {
  const params: unknown[] = [r.branch];
  const parts = ['h.branch = $2'];
  if (r.showKey !== undefined) {
    params.push(r.showKey);
    parts.push(`h.show_key = $${params.length + 1}`);
  }
  if (r.counterId !== undefined) {
    params.push(r.counterId);
    parts.push(`h.counter_id = $${params.length + 1}`);
  }
  return db.tx((q) => endWhere(q, parts.join(' and '), params, now));
}

/** Deletes ended holds a day after they ended, and every row of shows SEAT_HISTORY_DAYS past; resolves to how many. */
export async function pruneSeatHolds(db: HubDb, now: number): Promise<number> {
  const before = addDays(lagosDate(now), -SEAT_HISTORY_DAYS);
  const rows = await db.query(
    `delete from seat_holds
      where (state in ('released', 'lapsed') and settled_at < $1) or left(show_key, 10) < $2
      returning id`,
    [now - ENDED_HOLD_KEEP_MS, before],
  );
  return rows.length;
}
