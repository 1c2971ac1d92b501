// The dashboard's way in: the first-start setup and login (anonymous: registered inside the
// anonymous audience by dashboard-routes.ts), then the session read and logout (inside the manager
// audience). A login always gets a new session id, in an HttpOnly, SameSite=Strict cookie.
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  DASHBOARD_PREFIX as D,
  LoginRequestSchema,
  LogoutResponseSchema,
  SESSION_COOKIE,
  SessionViewSchema,
  SetupRequestSchema,
  type SessionView,
} from '../../shared/hub-dashboard-contract';
import type { HubContext } from '../context';
import { fail } from '../errors';
import { checkLogin } from '../store/login-throttle';
import {
  closeAllSessions,
  closeSession,
  completeSetup,
  MAX_SESSIONS_PER_MANAGER,
  openSession,
  readSession,
  type Session,
} from '../store/managers';
import { writeAudit } from '../store/manager-admin';
import { sha256 } from '../store/tokens';
import { checkOrigin, sessionCookieOf, sessionOf } from './audiences';
import type { HubApp } from './zod-provider';

const session = { response: { 200: SessionViewSchema } };
const loggedOut = { response: { 200: LogoutResponseSchema } };

/** The session cookie, the session as the browser sees it, and a new session for a manager just let in. */
function sessionKit(ctx: HubContext) {
  const dc = ctx.dashboard;
  const cookie = (value: string, maxAgeS: number) =>
    `${SESSION_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAgeS}${dc.secureCookie ? '; Secure' : ''}`;
  const viewOf = (s: Session): SessionView => ({
    manager: s.manager,
    csrfToken: s.csrfToken,
    idleExpiresAt: s.idleExpiresAt,
    expiresAt: s.expiresAt,
  });

  async function startSession(
    req: FastifyRequest,
    reply: FastifyReply,
    manager: Session['manager'],
  ): Promise<SessionView> {
    // A login always gets a new id; a session the browser still carried is ended (no fixation).
    const old = sessionCookieOf(req);
    if (old) {
      await readSession(ctx.db, old, ctx.now(), dc.session).then((s) => (s ? closeSession(ctx.db, s.idHash) : 0));
      ctx.credentials.forgetSessions([sha256(old)]);
    }
    const { id, session: s, ended } = await openSession(ctx.db, manager, ctx.now(), dc.session);
    if (ended.length) {
      ctx.credentials.forgetSessions(ended);
      dc.live.endSessions(
        ended,
        `You logged in on more than ${MAX_SESSIONS_PER_MANAGER} browsers: this oldest session ended. Log in again.`,
      );
    }
    reply.header('set-cookie', cookie(id, Math.floor(dc.session.absoluteMs / 1000)));
    reply.header('cache-control', 'no-store');
    return viewOf(s);
  }

  return { cookie, viewOf, startSession };
}

/** Setup and login: registered inside the anonymous audience (dashboard-routes.ts). */
export function dashboardLoginRoutes(app: HubApp, ctx: HubContext): void {
  const dc = ctx.dashboard;
  const { startSession } = sessionKit(ctx);
  app.post(`${D}/setup`, { schema: { body: SetupRequestSchema, ...session } }, async (req, reply) => {
    checkOrigin(req, dc);
    const body = req.body;
    const m = await completeSetup(ctx.db, body.token, body.name, body.password, ctx.now());
    await writeAudit(ctx.db, { manager: m, address: req.ip }, 'setup', m.name, null, ctx.now());
    req.log.info({ managerId: m.id }, 'hub: first manager created with the setup link');
    // Creating the first manager logs them in: it is their first login (Managers said "never").
    await writeAudit(ctx.db, { manager: m, address: req.ip }, 'login', null, 'with the setup link', ctx.now());
    return startSession(req, reply, m);
  });

  app.post(`${D}/login`, { schema: { body: LoginRequestSchema, ...session } }, async (req, reply) => {
    checkOrigin(req, dc);
    const wait = dc.loginLimiter.take(`login:${req.ip}`, ctx.now());
    if (wait)
      throw fail('HUB_RATE_LIMITED', 429, 'Too many login attempts from this address: wait, then try again.', {
        retryAfterMs: wait,
      });
    const body = req.body;
    try {
      const m = await checkLogin(ctx.db, body.name, body.password, ctx.now(), dc.throttle, req.ip);
      await writeAudit(ctx.db, { manager: m, address: req.ip }, 'login', null, null, ctx.now());
      req.log.info({ managerId: m.id }, 'hub: manager logged in');
      return await startSession(req, reply, m);
    } catch (e) {
      const code = (e as { code?: string }).code;
      req.log.warn({ code }, 'hub: manager login refused');
      // Checked and refused (a password hash ran): in the audit log with the name tried. Refusals
      // for too many attempts are not (they cost nothing and would let a flood fill the log).
      const why =
        code === 'HUB_LOGIN_FAILED'
          ? 'wrong name or password'
          : code === 'HUB_FORBIDDEN'
            ? 'the account is disabled'
            : null;
      if (why)
        await writeAudit(
          ctx.db,
          { manager: null, name: body.name, address: req.ip },
          'login.failed',
          null,
          why,
          ctx.now(),
        );
      throw e;
    }
  });
}

/** The session, logout and logout everywhere: registered inside the manager audience (dashboard-routes.ts). */
export function dashboardSessionRoutes(app: HubApp, ctx: HubContext): void {
  const { cookie, viewOf } = sessionKit(ctx);
  app.get(`${D}/session`, { schema: session }, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return viewOf(sessionOf(req));
  });

  app.post(`${D}/logout`, { schema: loggedOut }, async (req, reply) => {
    const s = sessionOf(req);
    reply.header('set-cookie', cookie('', 0));
    ctx.credentials.forgetSessions([s.idHash]);
    return { sessionsEnded: await closeSession(ctx.db, s.idHash) };
  });

  app.post(`${D}/logout-everywhere`, { schema: loggedOut }, async (req, reply) => {
    const s = sessionOf(req);
    reply.header('set-cookie', cookie('', 0));
    const n = await closeAllSessions(ctx.db, s.manager.id);
    ctx.credentials.forgetManager(s.manager.id);
    req.log.info({ managerId: s.manager.id, sessions: n }, 'hub: manager logged out everywhere');
    return { sessionsEnded: n };
  });
}
