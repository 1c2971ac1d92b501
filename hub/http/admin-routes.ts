// The administrator's API (Authorization: Bearer <admin token>): enrollment codes, counters,
// revocation, notifications, their delivery log and replay. The manager's screens build on it.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { HUB_API_PREFIX as P, IssueCodeRequestSchema } from '../../shared/hub-contract';
import type { HubContext } from '../context';
import { fail } from '../errors';
import { issueEnrollCode, listCounters, revokeCounter } from '../store/counters';
import { readJournal } from '../store/journal';
import { findNotifications, notificationLog, replayNotification } from '../store/notifications';
import { parseBody, requireAdmin } from './reply';

const IdParam = z.object({ id: z.string().regex(/^[A-Za-z0-9_]{1,64}$/, 'not an id') });
const NotifParam = z.object({ id: z.string().regex(/^\d{1,18}$/, 'a notification id is a number') });
const NotifQuery = z.object({ orderNo: z.string().max(64).optional(), limit: z.coerce.number().int().min(1).max(500).default(50) });

export function adminRoutes(app: FastifyInstance, ctx: HubContext): void {
  const A = `${P}/admin`;
  app.post(`${A}/enroll-codes`, { bodyLimit: ctx.limits.otherBodyBytes }, async (req) => {
    requireAdmin(ctx, req);
    return issueEnrollCode(ctx.db, ctx.now(), parseBody(IssueCodeRequestSchema, req.body ?? {}).ttlMinutes);
  });

  app.get(`${A}/counters`, async (req) => {
    requireAdmin(ctx, req);
    return { counters: await listCounters(ctx.db, (id) => ctx.relay.isConnected(id)) };
  });

  app.post(`${A}/counters/:id/revoke`, async (req) => {
    requireAdmin(ctx, req);
    const { id } = parseBody(IdParam, req.params);
    // Every instance (this one too) closes the counter's streams on the NOTIFY this sends.
    if (!(await revokeCounter(ctx.db, id, ctx.now()))) throw fail('HUB_NOT_FOUND', 404, `No counter ${id}.`);
    req.log.info({ counterId: id }, 'hub: counter revoked');
    return { revoked: id };
  });

  app.get(`${A}/counters/:id/journal`, async (req) => {
    requireAdmin(ctx, req);
    return { events: await readJournal(ctx.db, parseBody(IdParam, req.params).id) };
  });

  app.get(`${A}/notifications`, async (req) => {
    requireAdmin(ctx, req);
    const q = parseBody(NotifQuery, req.query);
    return { notifications: await findNotifications(ctx.db, q.orderNo ?? null, q.limit) };
  });

  app.get(`${A}/notifications/:id/log`, async (req) => {
    requireAdmin(ctx, req);
    const { id } = parseBody(NotifParam, req.params);
    const log = await notificationLog(ctx.db, id);
    if (!log) throw fail('HUB_NOT_FOUND', 404, `No notification ${id} (it may have been pruned).`);
    return log;
  });

  app.post(`${A}/notifications/:id/replay`, async (req) => {
    requireAdmin(ctx, req);
    const { id } = parseBody(NotifParam, req.params);
    const n = await replayNotification(ctx.db, id, ctx.now());
    if (n === null) throw fail('HUB_NOT_FOUND', 404, `No notification ${id} (it may have been pruned).`);
    return { deliveries: n };
  });
}
