// The administrator's API (Authorization: Bearer <admin token>, the admin audience's hook):
// enrollment codes, counters, revocation, notifications, their delivery log and replay, and the
// Prometheus metrics at /metrics (every branch's counter ids, refusal reasons, versions and memory).
import { z } from 'zod';
import {
  CounterViewSchema,
  HUB_API_PREFIX as P,
  IssueCodeRequestSchema,
  IssueCodeResponseSchema,
  NotificationLogSchema,
  ReplayResponseSchema,
} from '../../shared/hub-contract';
import type { HubContext } from '../context';
import { fail } from '../errors';
import { issueEnrollCode, listCounters, revokeCounter } from '../store/counters';
import { readJournal } from '../store/journal';
import { writeAudit } from '../store/manager-admin';
import { findNotifications, notificationLog, replayNotification } from '../store/notifications';
import { adminAudience } from './audiences';
import type { HubApp } from './zod-provider';

const IdParam = z.object({ id: z.string().regex(/^[A-Za-z0-9_]{1,64}$/, 'not an id') });
const NotifParam = z.object({ id: z.string().regex(/^\d{1,18}$/, 'a notification id is a number') });
const NotifQuery = z.object({
  orderNo: z.string().max(64).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
});

const CountersResponse = z.object({ counters: z.array(CounterViewSchema) });
const RevokedResponse = z.object({ revoked: z.string() });
/** The journal as stored: each event as the counter sent it (checked then, against the contract of its day). */
const JournalResponse = z.object({
  events: z.array(
    z.object({ seq: z.number().int(), kind: z.string(), at: z.number(), payload: z.record(z.string(), z.unknown()) }),
  ),
});
const NotificationsResponse = z.object({
  notifications: z.array(
    z.object({ id: z.string(), kind: z.string(), receivedAt: z.number(), orderNo: z.string().nullable() }),
  ),
});

export const ADMIN_PREFIX = `${P}/admin`;

export function adminRoutes(app: HubApp, ctx: HubContext): void {
  void app.register(async (admin: HubApp) => {
    admin.addHook('onRequest', adminAudience(ctx));
    const A = ADMIN_PREFIX;

    admin.post(
      `${A}/enroll-codes`,
      {
        bodyLimit: ctx.limits.otherBodyBytes,
        schema: { body: IssueCodeRequestSchema, response: { 200: IssueCodeResponseSchema } },
      },
      async (req) => {
        const body = req.body;
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

    admin.get(`${A}/counters`, { schema: { response: { 200: CountersResponse } } }, async () => ({
      counters: await listCounters(ctx.db, (id) => ctx.relay.isConnected(id)),
    }));

    admin.post(
      `${A}/counters/:id/revoke`,
      { schema: { params: IdParam, response: { 200: RevokedResponse } } },
      async (req) => {
        const { id } = req.params;
        // Every instance (this one too) closes the counter's streams on the NOTIFY this sends.
        if (!(await revokeCounter(ctx.db, id, ctx.now()))) throw fail('HUB_NOT_FOUND', 404, `No counter ${id}.`);
        ctx.credentials.forgetCounter(id);
        req.log.info({ counterId: id }, 'hub: counter revoked');
        return { revoked: id };
      },
    );

    admin.get(
      `${A}/counters/:id/journal`,
      { schema: { params: IdParam, response: { 200: JournalResponse } } },
      async (req) => ({ events: await readJournal(ctx.db, req.params.id) }),
    );

    admin.get(
      `${A}/notifications`,
      { schema: { querystring: NotifQuery, response: { 200: NotificationsResponse } } },
      async (req) => {
        const q = req.query;
        return { notifications: await findNotifications(ctx.db, q.orderNo ?? null, q.limit) };
      },
    );

    admin.get(
      `${A}/notifications/:id/log`,
      { schema: { params: NotifParam, response: { 200: NotificationLogSchema } } },
      async (req) => {
        const { id } = req.params;
        const log = await notificationLog(ctx.db, id);
        if (!log) throw fail('HUB_NOT_FOUND', 404, `No notification ${id} (it may have been pruned).`);
        return log;
      },
    );

    admin.post(
      `${A}/notifications/:id/replay`,
      { schema: { params: NotifParam, response: { 200: ReplayResponseSchema } } },
      async (req) => {
        const { id } = req.params;
        const n = await replayNotification(ctx.db, id, ctx.now());
        if (n === null) throw fail('HUB_NOT_FOUND', 404, `No notification ${id} (it may have been pruned).`);
        return { deliveries: n };
      },
    );

    admin.get('/metrics', async (_req, reply) =>
      reply.type(ctx.metrics.registry.contentType).send(await ctx.metrics.registry.metrics()),
    );
  });
}
