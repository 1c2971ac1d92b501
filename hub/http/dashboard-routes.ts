// The manager's dashboard API (`/api/v1/dashboard/...`, contract in shared/hub-dashboard-contract.ts):
// setup, login, sessions and logout (dashboard-session.ts); Today, the live feed, Needs attention, shifts, order search,
// an order's history, CSV exports, counters and managers; the programme and a day's shows
// (dashboard-programme.ts). Setup and login are anonymous; the rest is the manager audience: a
// session cookie, and for every write the session's CSRF token header and, when the browser sends
// one, a same-origin Origin (hooks in audiences.ts). Reads take the session's scope
// (hub/store/scope.ts): a branch manager sees their branch only.
import { Readable } from 'node:stream';
import { z } from 'zod';
import {
  AttentionQuerySchema,
  AttentionViewSchema,
  CountersViewSchema,
  CreateManagerRequestSchema,
  DASHBOARD_PREFIX as D,
  DashIssueCodeRequestSchema,
  DashIssueCodeResponseSchema,
  lagosDayOf,
  LiveQuerySchema,
  ManagerViewSchema,
  OrderDetailSchema,
  ORDERS_CSV_COLUMNS,
  OrdersPageSchema,
  OrdersQuerySchema,
  SHIFTS_CSV_COLUMNS,
  ShiftsQuerySchema,
  ShiftsViewSchema,
  TodayQuerySchema,
  TodayViewSchema,
  LAGOS_OFFSET_MS,
  type OrderRow,
} from '../../shared/hub-dashboard-contract';
import { csvLine } from '../../shared/csv-cell';
import { koboToNairaString } from '../../shared/money';
import type { HubContext } from '../context';
import { fail } from '../errors';
import { issueEnrollCode, revokeCounter } from '../store/counters';
import { attention } from '../store/attention';
import { dashCounters, shifts, today } from '../store/dashboard';
import { orderDetail, searchOrders, type OrderFilters } from '../store/dashboard-orders';
import { createManager, type Session } from '../store/managers';
import { counterInScope, scopeOf } from '../store/scope';
import { writeAudit } from '../store/manager-admin';
import { dashboardBranchRoutes } from './dashboard-branches';
import { dashboardManagerRoutes } from './dashboard-managers';
import { dashboardProgrammeRoutes } from './dashboard-programme';
import { dashboardSalesRoutes } from './dashboard-sales';
import { dashboardLoginRoutes, dashboardSessionRoutes } from './dashboard-session';
import { anonymousAudience, managerAudience, sessionOf } from './audiences';
import type { HubApp } from './zod-provider';
import { dashboardSeatRoutes } from './dashboard-seats';
import { dashboardAfterSaleRoutes } from './dashboard-after-sale';
import { afterSaleFigures } from '../store/after-sale-views';

const IdParam = z.object({ id: z.string().regex(/^\d{1,18}$/, 'an order id is a number') });
const CounterParam = z.object({ id: z.string().regex(/^[A-Za-z0-9_]{1,64}$/, 'not a counter id') });
const CountersQuery = z.object({ branch: z.string().max(64).optional() }).strict();
const CsvOrdersQuery = OrdersQuerySchema.omit({ cursor: true, limit: true });
const RevokedResponse = z.object({ revoked: z.string() });

export function dashboardRoutes(app: HubApp, ctx: HubContext): void {
  const dc = ctx.dashboard;
  /** The Hub cannot verify the provider's notifications from its start when it has no merchant file. */
  const relayOffSince = ctx.merchant ? null : ctx.now();
  const headOffice = (s: Session) => {
    if (s.manager.role !== 'head-office') throw fail('HUB_FORBIDDEN', 403, 'Only head office may do this.');
  };
  void app.register(async (anon: HubApp) => {
    anon.addHook('onRequest', anonymousAudience(ctx));
    dashboardLoginRoutes(anon, ctx);
  });

  void app.register(async (managers: HubApp) => {
    managers.addHook('onRequest', managerAudience(ctx));
    managerRoutes(managers);
  });

  function managerRoutes(app: HubApp): void {
    dashboardSessionRoutes(app, ctx);

    app.post(
      `${D}/managers`,
      { schema: { body: CreateManagerRequestSchema, response: { 200: ManagerViewSchema } } },
      async (req) => {
        const s = sessionOf(req);
        headOffice(s);
        const m = await createManager(ctx.db, req.body, ctx.now());
        await writeAudit(
          ctx.db,
          { manager: s.manager, address: req.ip },
          'manager.created',
          m.name,
          m.role === 'branch' ? `branch ${m.branch}` : 'head office',
          ctx.now(),
        );
        req.log.info({ managerId: m.id, role: m.role, branch: m.branch, by: s.manager.id }, 'hub: manager created');
        return m;
      },
    );

    app.get(
      `${D}/today`,
      { schema: { querystring: TodayQuerySchema, response: { 200: TodayViewSchema } } },
      async (req) => {
        const s = sessionOf(req);
        const f = req.query;
        const now = ctx.now();
        const day = f.day ?? lagosDayOf(now);
        const scope = scopeOf(s.manager);
        return {
          ...(await today(ctx.db, scope, day, f.branch)),
          afterSale: await afterSaleFigures(ctx.db, scope, day, now, f.branch),
        };
      },
    );

    app.get(
      `${D}/attention`,
      { schema: { querystring: AttentionQuerySchema, response: { 200: AttentionViewSchema } } },
      async (req) => {
        const s = sessionOf(req);
        const f = req.query;
        return attention(
          ctx.db,
          scopeOf(s.manager),
          ctx.now(),
          dc.attention,
          (id) => ctx.relay.isConnected(id),
          f.branch,
          relayOffSince,
        );
      },
    );

    app.get(`${D}/live`, { schema: { querystring: LiveQuerySchema } }, async (req, reply) => {
      const s = sessionOf(req);
      const f = req.query;
      const h = req.headers['last-event-id'];
      const last = typeof h === 'string' && /^\d{1,18}$/.test(h) ? Number(h) : null;
      reply.hijack();
      await dc.live.open(reply.raw, s.idHash, s.manager.id, scopeOf(s.manager), f.branch, last);
    });

    app.get(
      `${D}/shifts`,
      { schema: { querystring: ShiftsQuerySchema, response: { 200: ShiftsViewSchema } } },
      async (req) => {
        const s = sessionOf(req);
        const f = req.query;
        return shifts(ctx.db, scopeOf(s.manager), f.day ?? lagosDayOf(ctx.now()), f);
      },
    );

    app.get(`${D}/shifts.csv`, { schema: { querystring: ShiftsQuerySchema } }, async (req, reply) => {
      const s = sessionOf(req);
      const f = req.query;
      const day = f.day ?? lagosDayOf(ctx.now());
      const v = await shifts(ctx.db, scopeOf(s.manager), day, f);
      const lines = [SHIFTS_CSV_COLUMNS.join(',')];
      for (const x of v.shifts) {
        const base = [
          x.branch,
          x.counterName,
          x.shiftId,
          x.cashier,
          lagosStamp(x.openedAt),
          x.closedAt === null ? '' : lagosStamp(x.closedAt),
          nairaOrEmpty(x.floatKobo),
          nairaOrEmpty(x.cardTotalKobo),
        ];
        const zs = x.zreports.length ? x.zreports : [null];
        for (const z of zs)
          lines.push(
            csvLine([
              ...base,
              z ? String(z.reportNo) : '',
              z ? koboToNairaString(z.totalKobo) : '',
              z ? String(z.count) : '',
              x.practice ? 'yes' : 'no',
            ]),
          );
      }
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="shifts-${day}.csv"`)
        .send(lines.join('\r\n') + '\r\n');
    });

    app.get(
      `${D}/orders`,
      { schema: { querystring: OrdersQuerySchema, response: { 200: OrdersPageSchema } } },
      async (req) => {
        const s = sessionOf(req);
        const f = req.query;
        return searchOrders(ctx.db, scopeOf(s.manager), f, f.limit);
      },
    );

    app.get(`${D}/orders/:id`, { schema: { params: IdParam, response: { 200: OrderDetailSchema } } }, async (req) => {
      const s = sessionOf(req);
      const { id } = req.params;
      const d = await orderDetail(ctx.db, scopeOf(s.manager), id);
      if (!d) throw fail('HUB_NOT_FOUND', 404, `No order ${id} that you may see.`);
      return d;
    });

    app.get(`${D}/orders.csv`, { schema: { querystring: CsvOrdersQuery } }, async (req, reply) => {
      const s = sessionOf(req);
      const f = req.query;
      if (!f.from || !f.to)
        throw fail(
          'HUB_BAD_REQUEST',
          400,
          'An export needs a date range: from=yyyy-MM-dd&to=yyyy-MM-dd (Lagos days, both included).',
        );
      const scope = scopeOf(s.manager);
      const db = ctx.db;
      // Pages of 2,000 rows read one after another as the client takes them: memory stays flat.
      async function* rows(): AsyncGenerator<string> {
        yield ORDERS_CSV_COLUMNS.join(',') + '\r\n';
        let cursor: string | undefined;
        for (;;) {
          const page = await searchOrders(db, scope, { ...f, cursor } as OrderFilters, 2000, 'asc');
          if (page.orders.length) yield page.orders.map(orderCsv).join('');
          if (!page.nextCursor) return;
          cursor = page.nextCursor;
        }
      }
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="orders-${f.from}-to-${f.to}.csv"`)
        .send(Readable.from(rows()));
    });

    app.get(
      `${D}/counters`,
      { schema: { querystring: CountersQuery, response: { 200: CountersViewSchema } } },
      async (req) => {
        const s = sessionOf(req);
        const f = req.query;
        return {
          counters: await dashCounters(
            ctx.db,
            scopeOf(s.manager),
            ctx.now(),
            dc.attention.staleMs,
            (id) => ctx.relay.isConnected(id),
            f.branch,
          ),
          relayVerifies: ctx.merchant !== null,
        };
      },
    );

    app.post(
      `${D}/counters/enroll-codes`,
      { schema: { body: DashIssueCodeRequestSchema, response: { 200: DashIssueCodeResponseSchema } } },
      async (req) => {
        const s = sessionOf(req);
        const body = req.body;
        if (s.manager.role === 'branch' && body.branch !== null && body.branch !== s.manager.branch)
          throw fail('HUB_FORBIDDEN', 403, 'A branch manager issues codes for their own branch only.');
        // Every code is for one branch: the counter cannot choose its branch with it.
        if (s.manager.role !== 'branch' && body.branch === null)
          throw fail(
            'HUB_BAD_REQUEST',
            400,
            "Say which branch the code is for (the branch's merchant id, as its counters are set up): a code enrolls a counter of that branch only.",
            { issues: [{ path: 'branch', message: 'required' }] },
          );
        const branch = s.manager.role === 'branch' ? s.manager.branch : body.branch;
        const c = await issueEnrollCode(ctx.db, ctx.now(), body.ttlMinutes, branch);
        await writeAudit(
          ctx.db,
          { manager: s.manager, address: req.ip },
          'counter.code-issued',
          branch,
          `valid ${body.ttlMinutes} minutes`,
          ctx.now(),
        );
        req.log.info({ managerId: s.manager.id, branch }, 'hub: enrollment code issued from the dashboard');
        return c;
      },
    );

    app.post(
      `${D}/counters/:id/revoke`,
      { schema: { params: CounterParam, response: { 200: RevokedResponse } } },
      async (req) => {
        const s = sessionOf(req);
        const { id } = req.params;
        if (!(await counterInScope(ctx.db, scopeOf(s.manager), id)) || !(await revokeCounter(ctx.db, id, ctx.now()))) {
          throw fail('HUB_NOT_FOUND', 404, `No counter ${id} that you may manage.`);
        }
        ctx.credentials.forgetCounter(id);
        await writeAudit(ctx.db, { manager: s.manager, address: req.ip }, 'counter.revoked', id, null, ctx.now());
        req.log.info({ counterId: id, managerId: s.manager.id }, 'hub: counter revoked from the dashboard');
        return { revoked: id };
      },
    );

    dashboardProgrammeRoutes(app, ctx);
    dashboardSalesRoutes(app, ctx);
    dashboardSeatRoutes(app, ctx);
    dashboardBranchRoutes(app, ctx);
    dashboardManagerRoutes(app, ctx);
    dashboardAfterSaleRoutes(app, ctx);
  }
}

// ---- CSV ------------------------------------------------------------------------------------------

const nairaOrEmpty = (kobo: number | null) => (kobo === null ? '' : koboToNairaString(kobo));
/** yyyy-MM-dd HH:mm:ss in Lagos. */
export const lagosStamp = (ms: number) => new Date(ms + LAGOS_OFFSET_MS).toISOString().slice(0, 19).replace('T', ' ');

function orderCsv(o: OrderRow): string {
  return (
    csvLine([
      lagosStamp(o.createdAt),
      o.branch,
      o.counterName,
      o.cashier ?? '',
      o.reference,
      o.orderNo ?? '',
      o.payNo ?? '',
      o.state,
      koboToNairaString(o.amountKobo),
      o.filmTitle ?? o.filmName ?? '',
      o.showDate ?? '',
      o.showTime ?? '',
      o.seats ?? '',
      o.tickets === null ? '' : String(o.tickets),
      o.practice ? 'yes' : 'no',
      o.paidAfterClosingKobo === null ? '' : koboToNairaString(o.paidAfterClosingKobo),
    ]) + '\r\n'
  );
}
