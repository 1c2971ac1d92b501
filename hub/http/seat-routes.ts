// Seat holds of counters (counter credential): hold a sale's seats before its customer is charged,
// settle them when the order is final, and read a show's taken seats for the seat map. A counter
// holds only in its own branch (its credential's) and only for its own orders (store/seat-holds.ts).
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
import { holdSeats, settleSeats, takenSeats } from '../store/seat-holds';
import { counterAudience, counterOf } from './audiences';
import type { HubApp } from './zod-provider';

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
        return { settled: await settleSeats(ctx.db, c, body.orderKey, body.outcome, ctx.now()) };
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
