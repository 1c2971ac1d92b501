// The dashboard's branch names: GET lists the branches in the manager's scope with their names;
// PUT /:branch names one (head office only; a branch no counter joined with is refused).
import {
  BranchIdParamSchema,
  DASH_BRANCHES_PATH,
  PutBranchNameRequestSchema,
  BranchesViewSchema,
} from '../../shared/hub-branches-contract';
import type { HubContext } from '../context';
import { fail } from '../errors';
import { listBranches, setBranchName } from '../store/branches';
import { scopeOf } from '../store/scope';
import { sessionOf } from './audiences';
import type { HubApp } from './zod-provider';

/** Registered inside the manager audience (dashboard-routes.ts). */
export function dashboardBranchRoutes(app: HubApp, ctx: HubContext): void {
  app.get(DASH_BRANCHES_PATH, { schema: { response: { 200: BranchesViewSchema } } }, async (req) => {
    const s = sessionOf(req);
    return { branches: await listBranches(ctx.db, scopeOf(s.manager)) };
  });

  app.put(
    `${DASH_BRANCHES_PATH}/:branch`,
    {
      schema: { params: BranchIdParamSchema, body: PutBranchNameRequestSchema, response: { 200: BranchesViewSchema } },
    },
    async (req) => {
      const s = sessionOf(req);
      if (s.manager.role !== 'head-office') throw fail('HUB_FORBIDDEN', 403, 'Only head office names branches.');
      const { branch } = req.params;
      const { name } = req.body;
      const known = await listBranches(ctx.db, { kind: 'all' });
      if (!known.some((b) => b.branch === branch))
        throw fail(
          'HUB_NOT_FOUND',
          404,
          `No counter has joined branch ${branch}: enroll one first, then name the branch.`,
        );
      await setBranchName(ctx.db, branch, name, s.manager.name, ctx.now());
      req.log.info({ managerId: s.manager.id, branch }, 'hub: branch named');
      return { branches: known.map((b) => (b.branch === branch ? { branch, name } : b)) };
    },
  );
}
