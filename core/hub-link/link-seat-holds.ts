// Seat holds through the Hub (the checkout's SeatHolds port) and the seats other counters took (the
// seat map's SeatTakenSource). A hold waits at most SEAT_HOLD_WAIT_MS (shared/seats.ts): a Hub that
// cannot be reached, or does not answer within it, never holds a sale up; the sale then goes on this
// counter's own knowledge (the local holds, when given), noted "Seats not checked across counters
// (Hub unreachable): …" (SEATS_UNCHECKED_REASONS). A Hub that answers and does not hold is obeyed: too many
// requests from this counter (429) is asked again once after the Hub's retryAfterMs when that is
// short (RATE_RETRY_MAX_MS), else the sale is refused, as for any other refusal of the Hub — never
// sold "unchecked". A settle is sent and forgotten: when it is lost, the journal sync settles the
// hold on the Hub, and a hold lapses at its `until` anyway.
import {
  HUB_SEATS_HOLD_PATH,
  HUB_SEATS_MAP_PATH,
  HUB_SEATS_SETTLE_PATH,
  HubSeatMapSchema,
  MAX_HOLD_MS,
  MAX_HOLD_SEATS,
  SeatHoldResponseSchema,
  SeatSettleResponseSchema,
  type HubSeatTaken,
  type SeatHoldRequestBody,
} from '../../shared/hub-seats-contract';
import type { Logger } from '../../shared/logger';
import { SEAT_ID_RE } from '../../shared/seat-list';
import {
  SEAT_HOLD_WAIT_MS,
  SEATS_UNCHECKED_REASONS,
  type SeatHoldOutcome,
  type SeatHolds,
  type SeatTaken,
  type SeatTakenSource,
} from '../../shared/seats';
import { HubCallError, type HubClient, type HubConnection } from './link-client';
import type { HubConnectionSource } from './link-types';

/** A hold lasts the order's lifetime plus this (the grace for a late answer and the final check). */
export const SEAT_HOLD_MARGIN_MS = 2 * 60_000;
/** The seat map's read of the Hub. */
const SEAT_MAP_TIMEOUT_MS = 2_000;
const SETTLE_TIMEOUT_MS = 5_000;
/**
 * A hold refused for rate is asked again once when the Hub's retryAfterMs is at most this, within
 * the one SEAT_HOLD_WAIT_MS (the retry waits what is left of it), so a longer wait is a refusal.
 */
export const RATE_RETRY_MAX_MS = 200;

/** Why a hold went unchecked (SEATS_UNCHECKED_REASONS of shared/seats.ts), or was refused. */
export const SEAT_HOLD_REASONS = {
  ...SEATS_UNCHECKED_REASONS,
  /** A hold the Hub cannot take as asked (a seat it cannot name, more seats than a hold takes): refused, never sent unchecked. */
  unholdable: `The Hub cannot hold these seats (at most ${MAX_HOLD_SEATS} seats of the seat map in one sale): choose the seats on the map, or sell them as smaller sales`,
  busy: (retryAfterMs: number) =>
    `The Hub is answering too many requests from this counter: sell these seats again in ${Math.max(1, Math.ceil(retryAfterMs / 1000))} s.`,
  hubRefused: (why: string) => `The Hub would not hold these seats: ${why.replace(/\.$/, '')}.`,
} as const;

const takenAt = (c: Pick<HubConnection, 'counterId'>, t: HubSeatTaken): SeatTaken => ({
  seat: t.seat,
  state: t.state,
  counterName: t.counterId === c.counterId ? `${t.counterName} (this counter)` : t.counterName,
  mine: t.counterId === c.counterId,
});

export interface HubSeatHoldsDeps {
  connection: HubConnectionSource;
  client: HubClient;
  logger: Logger;
  /** How long a hold lasts unless settled (ms): the order's lifetime plus SEAT_HOLD_MARGIN_MS. */
  holdMs: () => number;
  /** This counter's own holds (its sales): asked without a Hub, or when the Hub does not answer in time. */
  local?: SeatHolds;
  waitMs?: number;
  /** Waits out the Hub's retryAfterMs before a hold is asked again (default setTimeout). */
  sleep?: (ms: number) => Promise<void>;
}

const retryAfterOf = (e: HubCallError): number | null => {
  const v = e.details.retryAfterMs;
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null;
};

/**
 * The checkout's seat holds with a Hub: held on the Hub (then also locally, so this counter's own
 * map agrees), taken when another counter's sale has a seat, else the local answer marked
 * unchecked with why. Without an enrolled Hub it is the local holds.
 */
export function hubSeatHolds(d: HubSeatHoldsDeps): SeatHolds {
  const wait = d.waitMs ?? SEAT_HOLD_WAIT_MS;
  const fallback = async (req: Parameters<SeatHolds['hold']>[0], reason: string): Promise<SeatHoldOutcome> => {
    if (!d.local) return { kind: 'unchecked', reason };
    const r = await d.local.hold(req);
    return r.kind === 'held' ? { kind: 'unchecked', reason } : r;
  };
  return {
    async hold(req) {
      const c = d.connection();
      if (!c) return d.local ? d.local.hold(req) : { kind: 'unchecked', reason: SEAT_HOLD_REASONS.noHub };
      const seats = [...new Set(req.seats)];
      // The Hub is there but could not take the hold as asked: refused, never sent unchecked.
      if (!seats.length || seats.length > MAX_HOLD_SEATS || seats.some((s) => !SEAT_ID_RE.test(s)))
        return { kind: 'refused', reason: SEAT_HOLD_REASONS.unholdable };
      const body: SeatHoldRequestBody = {
        orderKey: req.orderKey,
        show: {
          filmName: req.show.filmName,
          filmTitle: req.show.filmTitle,
          date: req.show.date,
          time: req.show.time,
          screen: req.show.screen,
        },
        seats,
        practice: req.practice,
        holdMs: Math.max(1_000, Math.min(MAX_HOLD_MS, Math.round(d.holdMs()))),
      };
      const started = Date.now();
      const ask = () =>
        d.client.call(c, 'POST', HUB_SEATS_HOLD_PATH, body, SeatHoldResponseSchema, {
          timeoutMs: Math.max(1, wait - (Date.now() - started)),
        });
      try {
        let r;
        try {
          r = await ask();
        } catch (e) {
          // Too many requests from this counter: asked again once, when the Hub says it is soon.
          const after = e instanceof HubCallError && e.code === 'HUB_RATE_LIMITED' ? retryAfterOf(e) : null;
          if (after === null || after > RATE_RETRY_MAX_MS) throw e;
          await (d.sleep ?? ((ms: number) => new Promise<void>((res) => setTimeout(res, ms))))(after);
          r = await ask();
        }
        if (r.kind === 'taken') return { kind: 'taken', taken: r.taken.map((t) => takenAt(c, t)) };
        // This counter's own map shows its hold too (and a Hub lost later still knows it).
        if (d.local) await d.local.hold(req).catch(() => undefined);
        return { kind: 'held' };
      } catch (e) {
        const err = e instanceof HubCallError ? e : null;
        const code = err?.code ?? 'HUB_UNREACHABLE';
        // The Hub answered and would not hold them: obeyed, the sale is refused (never sold unchecked).
        if (err && err.status !== null && err.status < 500 && code !== 'HUB_BAD_ANSWER') {
          d.logger.warn('the Hub refused a seat hold; the sale is refused', { code, orderKey: req.orderKey });
          const after = code === 'HUB_RATE_LIMITED' ? retryAfterOf(err) : null;
          return {
            kind: 'refused',
            reason:
              code === 'HUB_RATE_LIMITED'
                ? SEAT_HOLD_REASONS.busy(after ?? 1_000)
                : SEAT_HOLD_REASONS.hubRefused(err.message),
          };
        }
        // The Hub cannot be asked (unreachable, too slow, broken): this counter's own knowledge.
        d.logger.warn('seat hold through the Hub failed; selling on this counter’s own knowledge', {
          code,
          orderKey: req.orderKey,
        });
        if (code === 'HUB_UNREACHABLE')
          return fallback(
            req,
            /timed? ?out/i.test(String((e as Error).message)) ? SEAT_HOLD_REASONS.slow : SEAT_HOLD_REASONS.unreachable,
          );
        return fallback(req, SEAT_HOLD_REASONS.broken(e instanceof Error ? e.message : code));
      }
    },
    settle(orderKey, outcome) {
      d.local?.settle(orderKey, outcome);
      const c = d.connection();
      if (!c) return;
      d.client
        .call(c, 'POST', HUB_SEATS_SETTLE_PATH, { orderKey, outcome }, SeatSettleResponseSchema, {
          timeoutMs: SETTLE_TIMEOUT_MS,
        })
        .catch((e: unknown) =>
          // The journal sync settles it on the Hub; the hold lapses anyway.
          d.logger.info('seat settle not sent to the Hub; the journal sync settles it', {
            orderKey,
            outcome,
            code: e instanceof HubCallError ? e.code : 'HUB_UNREACHABLE',
          }),
        );
    },
  };
}

/** The seats every counter of the branch took for a show, as the Hub knows them. Throws without a Hub or when it does not answer. */
export function hubSeatTaken(d: {
  connection: HubConnectionSource;
  client: HubClient;
  timeoutMs?: number;
}): SeatTakenSource {
  return {
    async taken(showKey, practice) {
      const c = d.connection();
      if (!c) throw new HubCallError('HUB_UNREACHABLE', SEAT_HOLD_REASONS.noHub, null);
      const q = new URLSearchParams({ showKey, practice: String(practice) });
      const r = await d.client.call(c, 'GET', `${HUB_SEATS_MAP_PATH}?${q.toString()}`, undefined, HubSeatMapSchema, {
        timeoutMs: d.timeoutMs ?? SEAT_MAP_TIMEOUT_MS,
      });
      return { at: r.at, taken: r.taken.map((t) => takenAt(c, t)) };
    },
  };
}
