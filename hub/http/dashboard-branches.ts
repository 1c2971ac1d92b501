// The dashboard's branch names: GET lists the branches in the manager's scope with their names;
// PUT /:branch names one (head office only; a branch no counter joined with is refused).
import type { FastifyInstance } from 'fastify';
import {
  BranchIdParamSchema,
  DASH_BRANCHES_PATH,
  PutBranchNameRequestSchema,
  type BranchesView,
} from '../../shared/hub-branches-contract';
import type { HubContext } from '../context';
import { fail } from '../errors';
import { listBranches, setBranchName } from '../store/branches';
import { scopeOf } from '../store/scope';
import { checked, sessionOf } from './audiences';

/** Registered inside the manager audience (dashboard-routes.ts). */
export function dashboardBranchRoutes(app: FastifyInstance, ctx: HubContext): void {
  app.get(DASH_BRANCHES_PATH, async (req): Promise<BranchesView> => {
    const s = sessionOf(req);
    return { branches: await listBranches(ctx.db, scopeOf(s.manager)) };
  });

  app.put(
    `${DASH_BRANCHES_PATH}/:branch`,
    { schema: { params: BranchIdParamSchema, body: PutBranchNameRequestSchema } },
    async (req): Promise<BranchesView> => {
      const s = sessionOf(req);
      if (s.manager.role !== 'head-office') throw fail('HUB_FORBIDDEN', 403, 'Only head office names branches.');
      const { branch } = checked(BranchIdParamSchema, req.params);
      const { name } = checked(PutBranchNameRequestSchema, req.body);
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
