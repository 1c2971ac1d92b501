// Calls of enrolled counters: enroll, journal sync, the relay stream and its acknowledgements, the
// branch's programme and the seat check.
import type { FastifyInstance } from 'fastify';
import {
  AckRequestSchema, EnrollRequestSchema, HUB_API_PREFIX as P, RELAY_STREAM_PATH, SyncRequestSchema, type SyncResponse,
} from '../../shared/hub-contract';
import type { HubContext } from '../context';
import { ackDeliveries } from '../store/notifications';
import { enrollCounter, recordCounterStatus, touchCounter } from '../store/counters';
import { storeSyncBatch } from '../store/journal';
import { HUB_PROGRAMME_PATH, HUB_SEATS_CHECK_PATH, SeatCheckRequestSchema, type HubProgramme, type SeatCheckResponse } from '../../shared/hub-programme-contract';
import { readProgramme, seatConflicts } from '../store/programme';
import { counterOf, limitAddress, parseBody } from './reply';

export function counterRoutes(app: FastifyInstance, ctx: HubContext): void {
  app.post(`${P}/enroll`, { bodyLimit: ctx.limits.otherBodyBytes }, async (req) => {
    limitAddress(ctx, req);
    const body = parseBody(EnrollRequestSchema, req.body);
    const r = await enrollCounter(ctx.db, body, ctx.now());
    req.log.info({ counterId: r.counterId, branch: r.branch, counterName: body.counterName }, 'hub: counter enrolled');
    return r;
  });

  app.get(`${P}/me`, async (req) => {
    const c = await counterOf(ctx, req);
    await touchCounter(ctx.db, c.id, ctx.now());
    return { counterId: c.id, name: c.name, branch: c.branch };
  });

  app.post(`${P}/sync`, { bodyLimit: ctx.limits.syncBodyBytes }, async (req): Promise<SyncResponse> => {
    const c = await counterOf(ctx, req);
    const body = parseBody(SyncRequestSchema, req.body);
    const now = ctx.now();
    // The status is recorded even when the batch is refused: the manager sees the counter is alive.
    await recordCounterStatus(ctx.db, c.id, body.status, now);
    const r = await storeSyncBatch(ctx.db, c.id, body.events, now);
    ctx.metrics.syncEvents.inc(r.stored);
    return r;
  });

  app.post(`${P}/relay/ack`, { bodyLimit: ctx.limits.otherBodyBytes }, async (req) => {
    const c = await counterOf(ctx, req);
    const body = parseBody(AckRequestSchema, req.body);
    return { acked: await ackDeliveries(ctx.db, c.id, body.eventIds, ctx.now()) };
  });

  app.get(HUB_PROGRAMME_PATH, async (req): Promise<HubProgramme> => {
    const c = await counterOf(ctx, req);
    const p = await readProgramme(ctx.db, c.branch);
    return { branch: p.branch, version: p.version, updatedAt: p.updatedAt, programme: p.programme };
  });

  app.post(HUB_SEATS_CHECK_PATH, { bodyLimit: ctx.limits.otherBodyBytes }, async (req): Promise<SeatCheckResponse> => {
    const c = await counterOf(ctx, req);
    const body = parseBody(SeatCheckRequestSchema, req.body);
    return { conflicts: await seatConflicts(ctx.db, c.branch, body) };
  });

  app.get(RELAY_STREAM_PATH, async (req, reply) => {
    const c = await counterOf(ctx, req);
    await touchCounter(ctx.db, c.id, ctx.now());
    const h = req.headers['last-event-id'];
    const last = typeof h === 'string' && /^\d{1,18}$/.test(h) ? Number(h) : null;
    reply.hijack();
    ctx.relay.open(c.id, reply.raw, last, c.branch);
    req.log.info({ counterId: c.id, lastEventId: last }, 'hub: relay stream opened');
  });
}
