// Head office manages manager accounts (disable, enable, remove, reset a password) and reads the
// audit log; any manager changes their own password. Every action that ends sessions also closes
// those sessions' live feeds at once.
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  AuditEntrySchema,
  ChangePasswordRequestSchema,
  DASHBOARD_PREFIX as D,
  EndSessionsRequestSchema,
  ManagerIdParamSchema,
  ManagerSessionsSchema,
  ManagersListSchema,
  ResetPasswordRequestSchema,
} from '../../shared/hub-dashboard-contract';
import type { HubContext } from '../context';
import { fail } from '../errors';
import {
  changeOwnPassword,
  endManagerSessions,
  listAudit,
  managerRoster,
  managerSessions,
  removeManager,
  resetPassword,
  setManagerDisabled,
  type Actor,
} from '../store/manager-admin';
import { sessionOf } from './audiences';
import type { HubApp } from './zod-provider';

const AuditQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(500).default(100),
    before: z.coerce.number().int().positive().optional(),
  })
  .strict();

const Ended = z.number().int().nonnegative();
const answer = <T extends z.ZodRawShape>(shape: T) => ({ response: { 200: z.object(shape) } });

/** Registered inside the manager audience (dashboard-routes.ts). */
export function dashboardManagerRoutes(app: HubApp, ctx: HubContext): void {
  const headOffice = (req: FastifyRequest): Actor => {
    const s = sessionOf(req);
    if (s.manager.role !== 'head-office')
      throw fail('HUB_FORBIDDEN', 403, 'Only head office manages manager accounts.');
    return { manager: s.manager, address: req.ip };
  };
  /** Ended sessions are forgotten by the credential cache and their live feeds closed, at once. */
  const endFeeds = (hashes: string[], reason: string) => {
    ctx.credentials.forgetSessions(hashes);
    return ctx.dashboard.live.endSessions(hashes, reason);
  };

  app.post(
    `${D}/managers/:id/disable`,
    { schema: { params: ManagerIdParamSchema, ...answer({ disabled: z.string(), sessionsEnded: Ended }) } },
    async (req) => {
      const by = headOffice(req);
      const { id } = req.params;
      const ended = await setManagerDisabled(ctx.db, by, id, true, ctx.now());
      ctx.credentials.forgetManager(id);
      endFeeds(ended, 'Head office disabled this manager account.');
      req.log.info({ managerId: id, by: by.manager.id, sessions: ended.length }, 'hub: manager disabled');
      return { disabled: id, sessionsEnded: ended.length };
    },
  );

  app.post(
    `${D}/managers/:id/enable`,
    { schema: { params: ManagerIdParamSchema, ...answer({ enabled: z.string() }) } },
    async (req) => {
      const by = headOffice(req);
      const { id } = req.params;
      await setManagerDisabled(ctx.db, by, id, false, ctx.now());
      req.log.info({ managerId: id, by: by.manager.id }, 'hub: manager enabled');
      return { enabled: id };
    },
  );

  app.post(
    `${D}/managers/:id/remove`,
    { schema: { params: ManagerIdParamSchema, ...answer({ removed: z.string(), sessionsEnded: Ended }) } },
    async (req) => {
      const by = headOffice(req);
      const { id } = req.params;
      const ended = await removeManager(ctx.db, by, id, ctx.now());
      ctx.credentials.forgetManager(id);
      endFeeds(ended, 'Head office removed this manager account.');
      req.log.info({ managerId: id, by: by.manager.id, sessions: ended.length }, 'hub: manager removed');
      return { removed: id, sessionsEnded: ended.length };
    },
  );

  app.post(
    `${D}/managers/:id/reset-password`,
    {
      schema: {
        params: ManagerIdParamSchema,
        body: ResetPasswordRequestSchema,
        ...answer({ reset: z.string(), sessionsEnded: Ended }),
      },
    },
    async (req) => {
      const by = headOffice(req);
      const { id } = req.params;
      const { password } = req.body;
      const ended = await resetPassword(ctx.db, by, id, password, ctx.now());
      endFeeds(ended, 'Head office set a new password for this account: log in again.');
      req.log.info({ managerId: id, by: by.manager.id, sessions: ended.length }, 'hub: manager password reset');
      return { reset: id, sessionsEnded: ended.length };
    },
  );

  app.post(
    `${D}/password`,
    { schema: { body: ChangePasswordRequestSchema, ...answer({ changed: z.boolean(), sessionsEnded: Ended }) } },
    async (req) => {
      const s = sessionOf(req);
      const body = req.body;
      const ended = await changeOwnPassword(
        ctx.db,
        { manager: s.manager, address: req.ip },
        s.idHash,
        body.current,
        body.password,
        ctx.now(),
      );
      endFeeds(ended, 'The password of this account was changed: log in again.');
      req.log.info({ managerId: s.manager.id, sessions: ended.length }, 'hub: manager changed their password');
      return { changed: true, sessionsEnded: ended.length };
    },
  );

  app.get(`${D}/managers`, { schema: { response: { 200: ManagersListSchema } } }, async (req) => {
    headOffice(req);
    return { managers: await managerRoster(ctx.db, ctx.now(), ctx.dashboard.session) };
  });

  app.get(
    `${D}/managers/:id/sessions`,
    { schema: { params: ManagerIdParamSchema, response: { 200: ManagerSessionsSchema } } },
    async (req) => {
      headOffice(req);
      const { id } = req.params;
      return { sessions: await managerSessions(ctx.db, id, sessionOf(req).idHash, ctx.now(), ctx.dashboard.session) };
    },
  );

  app.post(
    `${D}/managers/:id/sessions/end`,
    { schema: { params: ManagerIdParamSchema, body: EndSessionsRequestSchema, ...answer({ sessionsEnded: Ended }) } },
    async (req) => {
      const by = headOffice(req);
      const { id } = req.params;
      const { ref } = req.body;
      const ended = await endManagerSessions(ctx.db, by, sessionOf(req).idHash, id, ref ?? null, ctx.now());
      endFeeds(ended, 'Head office ended this session: log in again.');
      req.log.info({ managerId: id, by: by.manager.id, sessions: ended.length }, 'hub: manager sessions ended');
      return { sessionsEnded: ended.length };
    },
  );

  app.get(
    `${D}/audit`,
    { schema: { querystring: AuditQuery, ...answer({ entries: z.array(AuditEntrySchema) }) } },
    async (req) => {
      headOffice(req);
      const q = req.query;
      return { entries: await listAudit(ctx.db, q.limit, q.before) };
    },
  );
}
