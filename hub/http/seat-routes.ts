// Seat holds of counters (counter credential): hold a sale's seats before its customer is charged,
// release them when the order failed, and read a show's taken seats for the seat map. A counter
// holds only in its own branch (its credential's), only for its own orders, only a programme show's
// seats of its seat map, a capped number at once (store/seat-holds.ts, seat-rules.ts); it never
// sells by a call: a seat is sold from its synced journal (store/seat-settle.ts).
import {
  HUB_SEATS_HOLD_PATH,
  HUB_SEATS_MAP_PATH,
  HUB_SEATS_SETTLE_PATH,
  SeatHoldRequestBodySchema,
  SeatMapQuerySchema,
  SeatSettleRequestSchema,
  SeatHoldResponseSchema,
  SeatSettleResponseSchema,
  HubSeatMapSchema,
  type HubSeatMap,
  type SeatHoldResponse,
  type SeatSettleResponse,
} from '../../shared/hub-seats-contract';
import type { HubContext } from '../context';
import { holdSeats, releaseSeats, takenSeats } from '../store/seat-holds';
import { counterAudience, counterOf } from './audiences';
import type { HubApp } from './zod-provider';

/** The settle's answer to `sold`: nothing changes until the journal syncs the order paid. */
export const SOLD_BY_JOURNAL =
  "Nothing changed: a seat is sold when this counter's journal syncs the order paid with it; until then the hold stays (to its until).";

export function seatRoutes(app: HubApp, ctx: HubContext): void {
  void app.register(async (counters: HubApp) => {
    counters.addHook('onRequest', counterAudience(ctx));

    counters.post(
      HUB_SEATS_HOLD_PATH,
      {
        bodyLimit: ctx.limits.otherBodyBytes,
        schema: { body: SeatHoldRequestBodySchema, response: { 200: SeatHoldResponseSchema } },
      },
      async (req): Promise<SeatHoldResponse> => {
        const c = counterOf(req);
        const body = req.body;
        const r = await holdSeats(ctx.db, c, body, ctx.now());
        if (r.kind === 'taken')
          req.log.info(
            {
              counterId: c.id,
              orderKey: body.orderKey,
              showKey: r.showKey,
              seats: r.taken.map((t) => t.seat).slice(0, 20),
            },
            'hub: seats already taken by another sale; not held',
          );
        return r;
      },
    );

    counters.post(
      HUB_SEATS_SETTLE_PATH,
      {
        bodyLimit: ctx.limits.otherBodyBytes,
        schema: { body: SeatSettleRequestSchema, response: { 200: SeatSettleResponseSchema } },
      },
      async (req): Promise<SeatSettleResponse> => {
        const c = counterOf(req);
        const body = req.body;
        // A counter releases; it never sells: a seat is sold when its journal syncs the order paid.
        if (body.outcome === 'sold') return { settled: 0, note: SOLD_BY_JOURNAL };
        return { settled: await releaseSeats(ctx.db, c, body.orderKey, ctx.now()) };
      },
    );

    counters.get(
      HUB_SEATS_MAP_PATH,
      { schema: { querystring: SeatMapQuerySchema, response: { 200: HubSeatMapSchema } } },
      async (req): Promise<HubSeatMap> => {
        const c = counterOf(req);
        const q = req.query;
        const at = ctx.now();
        return {
          showKey: q.showKey,
          at,
          taken: await takenSeats(ctx.db, c.branch, q.practice === 'true', q.showKey, at),
        };
      },
    );
  });
}
