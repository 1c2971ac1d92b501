// After the sale on the dashboard (docs/hub.md "Refunds", "Complaint cases", "Approval codes"),
// registered inside the manager audience (dashboard-routes.ts): a one-time approval code for a
// branch (a branch manager's own; head office names it; audited), the Refunds and Cases views; and
// the counters' side (registered inside the counter audience, counter-routes.ts): redeeming a code.
import { DASHBOARD_PREFIX as D } from '../../shared/hub-dashboard-contract';
import {
  APPROVAL_CODES_PATH,
  APPROVAL_REDEEM_PATH,
  RedeemApprovalRequestSchema,
  RedeemApprovalResponseSchema,
  CasesQuerySchema,
  CasesViewSchema,
  IssueApprovalCodeRequestSchema,
  IssuedApprovalCodeSchema,
  RefundsQuerySchema,
  RefundsViewSchema,
} from '../../shared/hub-refunds-contract';
import type { HubContext } from '../context';
import { fail, HubFailure } from '../errors';
import { casesView, refundsView } from '../store/after-sale-views';
import { issueApprovalCode, redeemApprovalCode } from '../store/approval-codes';
import { scopeOf } from '../store/scope';
import { counterOf, sessionOf } from './audiences';
import type { HubApp } from './zod-provider';

export function dashboardAfterSaleRoutes(app: HubApp, ctx: HubContext): void {
  app.post(
    APPROVAL_CODES_PATH,
    { schema: { body: IssueApprovalCodeRequestSchema, response: { 200: IssuedApprovalCodeSchema } } },
    async (req) => {
      const s = sessionOf(req);
      const asked = req.body.branch;
      if (s.manager.role === 'branch' && asked !== null && asked !== s.manager.branch)
        throw fail('HUB_FORBIDDEN', 403, 'A branch manager issues approval codes for their own branch only.');
      const branch = s.manager.role === 'branch' ? s.manager.branch : asked;
      if (branch === null)
        throw fail(
          'HUB_BAD_REQUEST',
          400,
          'Say which branch the approval code is for: it is redeemed at that branch only.',
          {
            issues: [{ path: 'branch', message: 'required' }],
          },
        );
      const c = await issueApprovalCode(ctx.db, { manager: s.manager, address: req.ip }, branch, ctx.now());
      req.log.info({ managerId: s.manager.id, branch }, 'hub: approval code issued');
      return c;
    },
  );

  app.get(
    `${D}/refunds`,
    { schema: { querystring: RefundsQuerySchema, response: { 200: RefundsViewSchema } } },
    async (req) => refundsView(ctx.db, scopeOf(sessionOf(req).manager), ctx.now(), req.query.branch),
  );

  app.get(
    `${D}/cases`,
    { schema: { querystring: CasesQuerySchema, response: { 200: CasesViewSchema } } },
    async (req) => casesView(ctx.db, scopeOf(sessionOf(req).manager), ctx.now(), req.query.branch),
  );
}

/** Registered inside the counter audience (counter-routes.ts): a code redeemed once by a counter of its branch. */
export function counterApprovalRoutes(counters: HubApp, ctx: HubContext): void {
  // A manager's one-time approval code, redeemed once by a counter of its branch (approval-codes.ts).
  counters.post(
    APPROVAL_REDEEM_PATH,
    {
      bodyLimit: ctx.limits.otherBodyBytes,
      schema: { body: RedeemApprovalRequestSchema, response: { 200: RedeemApprovalResponseSchema } },
    },
    async (req) => {
      const c = counterOf(req);
      const r = await redeemApprovalCode(ctx.db, c, req.body.code, req.body.what, ctx.now(), req.ip).catch(
        (e: unknown) => {
          if (e instanceof HubFailure)
            req.log.warn(
              { counterId: c.id, branch: c.branch, code: e.code, details: e.details },
              'hub: approval code refused',
            );
          throw e;
        },
      );
      req.log.info({ counterId: c.id, branch: c.branch, by: r.by }, 'hub: approval code redeemed');
      return r;
    },
  );
}
