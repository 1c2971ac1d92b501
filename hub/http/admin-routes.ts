// The administrator's API (Authorization: Bearer <admin token>, the admin audience's hook):
// enrollment codes, counters, revocation, notifications, their delivery log and replay.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { HUB_API_PREFIX as P, IssueCodeRequestSchema } from '../../shared/hub-contract';
import type { HubContext } from '../context';
import { fail } from '../errors';
import { issueEnrollCode, listCounters, revokeCounter } from '../store/counters';
import { readJournal } from '../store/journal';
import { writeAudit } from '../store/manager-admin';
import { findNotifications, notificationLog, replayNotification } from '../store/notifications';
import { adminAudience, checked } from './audiences';

const IdParam = z.object({ id: z.string().regex(/^[A-Za-z0-9_]{1,64}$/, 'not an id') });
const NotifParam = z.object({ id: z.string().regex(/^\d{1,18}$/, 'a notification id is a number') });
const NotifQuery = z.object({
  orderNo: z.string().max(64).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
});

export const ADMIN_PREFIX = `${P}/admin`;

export function adminRoutes(app: FastifyInstance, ctx: HubContext): void {
  void app.register(async (admin) => {
    admin.addHook('onRequest', adminAudience(ctx));
    const A = ADMIN_PREFIX;

    admin.post(
      `${A}/enroll-codes`,
      { bodyLimit: ctx.limits.otherBodyBytes, schema: { body: IssueCodeRequestSchema } },
      async (req) => {
        const body = checked(IssueCodeRequestSchema, req.body);
        const c = await issueEnrollCode(ctx.db, ctx.now(), body.ttlMinutes, body.branch ?? null);
        await writeAudit(
          ctx.db,
          { manager: null, name: 'Admin API', address: req.ip },
          'counter.code-issued',
          c.branch,
          `valid ${body.ttlMinutes} minutes`,
          ctx.now(),
        );
        req.log.info({ branch: c.branch }, 'hub: enrollment code issued on the admin API');
        return c;
      },
    );

    admin.get(`${A}/counters`, async () => ({
      counters: await listCounters(ctx.db, (id) => ctx.relay.isConnected(id)),
    }));

    admin.post(`${A}/counters/:id/revoke`, { schema: { params: IdParam } }, async (req) => {
      const { id } = checked(IdParam, req.params);
      // Every instance (this one too) closes the counter's streams on the NOTIFY this sends.
      if (!(await revokeCounter(ctx.db, id, ctx.now()))) throw fail('HUB_NOT_FOUND', 404, `No counter ${id}.`);
      ctx.credentials.forgetCounter(id);
      req.log.info({ counterId: id }, 'hub: counter revoked');
      return { revoked: id };
    });

    admin.get(`${A}/counters/:id/journal`, { schema: { params: IdParam } }, async (req) => ({
      events: await readJournal(ctx.db, checked(IdParam, req.params).id),
    }));

    admin.get(`${A}/notifications`, { schema: { querystring: NotifQuery } }, async (req) => {
      const q = checked(NotifQuery, req.query);
      return { notifications: await findNotifications(ctx.db, q.orderNo ?? null, q.limit) };
    });

    admin.get(`${A}/notifications/:id/log`, { schema: { params: NotifParam } }, async (req) => {
      const { id } = checked(NotifParam, req.params);
      const log = await notificationLog(ctx.db, id);
      if (!log) throw fail('HUB_NOT_FOUND', 404, `No notification ${id} (it may have been pruned).`);
      return log;
    });

    admin.post(`${A}/notifications/:id/replay`, { schema: { params: NotifParam } }, async (req) => {
      const { id } = checked(NotifParam, req.params);
      const n = await replayNotification(ctx.db, id, ctx.now());
      if (n === null) throw fail('HUB_NOT_FOUND', 404, `No notification ${id} (it may have been pruned).`);
      return { deliveries: n };
    });
  });
}
