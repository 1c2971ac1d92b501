// Seat holds of counters (counter credential): hold a sale's seats before its customer is charged,
// settle them when the order is final, and read a show's taken seats for the seat map. A counter
// holds only in its own branch (its credential's) and only for its own orders (store/seat-holds.ts).
import type { FastifyInstance } from 'fastify';
import {
  HUB_SEATS_HOLD_PATH,
  HUB_SEATS_MAP_PATH,
  HUB_SEATS_SETTLE_PATH,
  SeatHoldRequestBodySchema,
  SeatMapQuerySchema,
  SeatSettleRequestSchema,
  type HubSeatMap,
  type SeatHoldResponse,
  type SeatSettleResponse,
} from '../../shared/hub-seats-contract';
import type { HubContext } from '../context';
import { holdSeats, settleSeats, takenSeats } from '../store/seat-holds';
import { checked, counterAudience, counterOf } from './audiences';

export function seatRoutes(app: FastifyInstance, ctx: HubContext): void {
  void app.register(async (counters) => {
    counters.addHook('onRequest', counterAudience(ctx));

    counters.post(
      HUB_SEATS_HOLD_PATH,
      { bodyLimit: ctx.limits.otherBodyBytes, schema: { body: SeatHoldRequestBodySchema } },
      async (req): Promise<SeatHoldResponse> => {
        const c = counterOf(req);
        const body = checked(SeatHoldRequestBodySchema, req.body);
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
      { bodyLimit: ctx.limits.otherBodyBytes, schema: { body: SeatSettleRequestSchema } },
      async (req): Promise<SeatSettleResponse> => {
        const c = counterOf(req);
        const body = checked(SeatSettleRequestSchema, req.body);
        return { settled: await settleSeats(ctx.db, c, body.orderKey, body.outcome, ctx.now()) };
      },
    );

    counters.get(
      HUB_SEATS_MAP_PATH,
      { schema: { querystring: SeatMapQuerySchema } },
      async (req): Promise<HubSeatMap> => {
        const c = counterOf(req);
        const q = checked(SeatMapQuerySchema, req.query);
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
